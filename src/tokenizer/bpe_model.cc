#include <algorithm>
#include <iterator>

#include "tokenizer/bpe_merge.h"
#include "tokenizer/model_internal.h"
#include "tokenizer/models.h"
#include "tokenizer/unicode.h"

namespace servebench::tokenizer {

using internal::cache_for;
using internal::fill_byte_fallback;
using internal::set_token;
using internal::WordCache;

Result<std::unique_ptr<BpeModel>> BpeModel::create(BpeConfig c) {
  std::unique_ptr<BpeModel> m(new BpeModel());
  m->byte_keys_ = c.byte_level;
  m->fuse_unk_ = c.fuse_unk;
  m->byte_fallback_ = c.byte_fallback;
  m->ignore_merges_ = c.ignore_merges;
  m->vocab_.reserve(c.vocab.size());
  std::string conv;
  auto to_key = [&](const std::string& s, std::string* out) {
    if (!c.byte_level) {
      *out = s;
      return true;
    }
    return byte_level_to_bytes(s, out);
  };
  for (auto& [tok, id] : c.vocab) {
    if (to_key(tok, &conv)) m->vocab_.insert(conv, id);
    set_token(&m->id_to_token_, id, std::move(tok));
  }
  if (!to_key(c.continuing_subword_prefix, &m->prefix_) || !to_key(c.end_of_word_suffix, &m->suffix_)) {
    return make_error(ErrorCode::kUnsupported, "BPE: prefix/suffix outside the byte-level alphabet");
  }
  if (c.unk_token) {
    const uint32_t* id = m->vocab_.find(*c.unk_token);
    if (!id) {
      return make_error(ErrorCode::kParse, "BPE: unk_token '" + *c.unk_token + "' is not in the vocabulary");
    }
    m->unk_id_ = *id;
  }
  m->merges_.reserve(c.merges.size());
  std::string a, b;
  for (size_t r = 0; r < c.merges.size(); ++r) {
    if (!to_key(c.merges[r].first, &a) || !to_key(c.merges[r].second, &b)) continue;
    const uint32_t* ia = m->vocab_.find(a);
    const uint32_t* ib = m->vocab_.find(b);
    size_t plen = std::min(m->prefix_.size(), b.size());
    std::string merged = a + b.substr(plen);
    const uint32_t* in = m->vocab_.find(merged);
    if (!ia || !ib || !in) {
      return make_error(ErrorCode::kParse, "BPE: merge '" + c.merges[r].first + " " +
                                               c.merges[r].second + "' uses a token not in the vocabulary");
    }
    m->merges_.insert(*ia, *ib, {static_cast<uint32_t>(r), *in});
  }
  for (int i = 0; i < 256; ++i) {
    char ch = static_cast<char>(i);
    const uint32_t* id = m->vocab_.find(std::string_view(&ch, 1));
    m->byte_ids_[i] = id ? static_cast<int32_t>(*id) : -1;
  }
  fill_byte_fallback(m->vocab_, m->byte_fallback_ids_);
  return m;
}

Result<std::unique_ptr<BpeModel>> BpeModel::from_ranks(
    const std::vector<std::string>& tokens, const std::vector<std::pair<int32_t, int32_t>>* merges) {
  std::unique_ptr<BpeModel> m(new BpeModel());
  m->byte_keys_ = true;
  m->vocab_.reserve(tokens.size());
  const auto& b2u = byte_to_unicode();
  m->id_to_token_.resize(tokens.size());
  for (size_t i = 0; i < tokens.size(); ++i) {
    m->vocab_.insert(tokens[i], static_cast<uint32_t>(i));
    std::string spelled;
    for (unsigned char ch : tokens[i]) append_utf8(&spelled, b2u[ch]);
    m->id_to_token_[i] = std::move(spelled);
  }
  for (int i = 0; i < 256; ++i) {
    char ch = static_cast<char>(i);
    const uint32_t* id = m->vocab_.find(std::string_view(&ch, 1));
    if (!id) return make_error(ErrorCode::kParse, "tiktoken ranks: byte " + std::to_string(i) + " has no rank");
    m->byte_ids_[i] = static_cast<int32_t>(*id);
    m->byte_fallback_ids_[i] = -1;
  }
  m->merges_.reserve(tokens.size());
  if (merges) {
    if (merges->size() != tokens.size()) return make_error(ErrorCode::kParse, "tiktoken merges do not match the ranks");
    for (size_t r = 0; r < tokens.size(); ++r) {
      auto [a, b] = (*merges)[r];
      if (a < 0) continue;
      if (static_cast<size_t>(a) >= r || static_cast<size_t>(b) >= r) {
        return make_error(ErrorCode::kParse, "tiktoken merge of rank " + std::to_string(r) + " is out of order");
      }
      m->merges_.insert(static_cast<uint32_t>(a), static_cast<uint32_t>(b),
                        {static_cast<uint32_t>(r), static_cast<uint32_t>(r)});
    }
    return m;
  }
  // The pair that forms token t is the last merge of tiktoken's own algorithm run on t's bytes
  // with ranks below t (how HF converts tiktoken files). Ranks are processed in order, so every
  // lower-ranked token already has its merge.
  std::vector<TokenId> parts;
  for (size_t r = 0; r < tokens.size(); ++r) {
    const std::string& t = tokens[r];
    if (t.size() < 2) continue;
    parts.clear();
    m->merge_word(t, &parts);  // uses merges of ranks < r only: t itself has no merge yet
    if (parts.size() != 2) continue;  // unreachable token: never produced by BPE
    m->merges_.insert(parts[0], parts[1], {static_cast<uint32_t>(r), static_cast<uint32_t>(r)});
  }
  return m;
}

std::unique_ptr<BpeModel> BpeModel::from_rank_tables(RankTables tables) {
  std::unique_ptr<BpeModel> m(new BpeModel());
  m->byte_keys_ = true;
  std::copy(std::begin(tables.byte_ranks), std::end(tables.byte_ranks), m->byte_ids_);
  std::fill(std::begin(m->byte_fallback_ids_), std::end(m->byte_fallback_ids_), -1);
  m->merges_ = std::move(tables.merges);
  m->lazy_ = std::make_unique<LazyRanks>();
  m->lazy_->tables = std::move(tables);
  return m;
}

void BpeModel::build_vocab_from_ranks() const {
  std::call_once(lazy_->once, [this] {
    // Built once, before any reader of these members (call_once orders them); the model is
    // never a const object, only accessed through const methods.
    auto* self = const_cast<BpeModel*>(this);
    const RankTables& t = lazy_->tables;
    const auto& b2u = byte_to_unicode();
    self->vocab_.reserve(t.ranks);
    self->id_to_token_.resize(t.ranks);
    for (uint32_t r = 0; r < t.ranks; ++r) {
      const std::string_view tok = t.token(r);
      self->vocab_.insert(tok, r);
      std::string& spelled = self->id_to_token_[r];
      for (unsigned char ch : tok) append_utf8(&spelled, b2u[ch]);
    }
  });
}

const std::string* BpeModel::id_to_token(TokenId id) const {
  if (lazy_) build_vocab_from_ranks();
  return Model::id_to_token(id);
}

size_t BpeModel::vocab_size() const { return lazy_ ? lazy_->tables.ranks : Model::vocab_size(); }

std::vector<std::pair<int32_t, int32_t>> BpeModel::derive_rank_merges(const std::vector<std::string>& tokens) {
  std::vector<std::pair<int32_t, int32_t>> out(tokens.size(), {-1, -1});
  auto m = from_ranks(tokens);
  if (!m) return out;
  std::vector<TokenId> parts;
  for (size_t r = 0; r < tokens.size(); ++r) {
    if (tokens[r].size() < 2) continue;
    // With every merge present, the symbols of t merge up to t itself; the last pair merged is
    // the one whose merged id is r. Re-run with merges below r by looking the pair up directly.
    parts.clear();
    (*m)->merge_word_below(tokens[r], static_cast<uint32_t>(r), &parts);
    if (parts.size() == 2) out[r] = {static_cast<int32_t>(parts[0]), static_cast<int32_t>(parts[1])};
  }
  return out;
}

std::optional<TokenId> BpeModel::token_to_id(std::string_view token) const {
  if (lazy_) build_vocab_from_ranks();
  if (!byte_keys_) return Model::token_to_id(token);
  std::string raw;
  if (!byte_level_to_bytes(token, &raw)) return std::nullopt;
  return Model::token_to_id(raw);
}

void BpeModel::merge_word_below(std::string_view w, uint32_t max_rank, std::vector<TokenId>* out) const {
  merge_word(w, out, max_rank);
}

void BpeModel::merge_word(std::string_view w, std::vector<TokenId>* out, uint32_t max_rank) const {
  thread_local std::vector<BpeSymbol> syms;
  syms.clear();
  // Pending unknown symbol (HF keeps one so consecutive unknowns can fuse).
  bool has_unk = false;
  TokenId unk_id = 0;
  uint32_t unk_len = 0;
  auto add = [&](TokenId id, uint32_t len) {
    int32_t n = static_cast<int32_t>(syms.size());
    syms.push_back({id, n - 1, n + 1, len});
  };
  const bool plain_bytes = byte_keys_ && prefix_.empty() && suffix_.empty();
  std::string s;
  for (size_t i = 0; i < w.size();) {
    size_t start = i;
    if (byte_keys_) {
      ++i;
    } else {
      i += std::min(utf8_len(static_cast<unsigned char>(w[i])), w.size() - i);
    }
    auto byte_len = static_cast<uint32_t>(i - start);
    const uint32_t* id;
    uint32_t id_storage;
    if (plain_bytes) {
      int32_t b = byte_ids_[static_cast<unsigned char>(w[start])];
      id_storage = static_cast<uint32_t>(b);
      id = b >= 0 ? &id_storage : nullptr;
    } else {
      s.clear();
      if (start > 0) s += prefix_;
      s.append(w.substr(start, byte_len));
      if (i == w.size()) s += suffix_;
      id = vocab_.find(s);
    }
    if (id) {
      if (has_unk) {
        add(unk_id, unk_len);
        has_unk = false;
      }
      add(*id, byte_len);
      continue;
    }
    if (byte_fallback_) {
      std::string_view piece = plain_bytes ? w.substr(start, byte_len) : std::string_view(s);
      bool all = true;
      for (unsigned char ch : piece) all = all && byte_fallback_ids_[ch] >= 0;
      if (all) {
        for (unsigned char ch : piece) add(static_cast<TokenId>(byte_fallback_ids_[ch]), 1);
        continue;
      }
    }
    if (unk_id_) {
      if (has_unk && fuse_unk_) {
        unk_len += byte_len;
      } else {
        if (has_unk) add(unk_id, unk_len);
        has_unk = true;
        unk_id = *unk_id_;
        unk_len = byte_len;
      }
    }
  }
  if (has_unk) add(unk_id, unk_len);
  if (syms.empty()) return;
  syms.back().next = -1;

  merge_symbols(merges_, max_rank, &syms);
  for (const BpeSymbol& sym : syms) {
    if (sym.len != 0) out->push_back(sym.id);
  }
  // One huge word must not pin its symbols (16 bytes per byte of text) to the thread.
  if (syms.capacity() > (size_t{1} << 16)) std::vector<BpeSymbol>().swap(syms);
}

void BpeModel::tokenize(std::string_view word, std::vector<TokenId>* out) const {
  if (word.empty()) return;
  if (ignore_merges_) {
    if (const uint32_t* id = vocab_.find(word)) {
      out->push_back(*id);
      return;
    }
  }
  if (word.size() > WordCache::kMaxWordBytes) {
    tokenize_long(word, out);
    return;
  }
  WordCache& cache = cache_for(uid_);
  if (cache.find(word, out)) return;
  size_t before = out->size();
  merge_word(word, out);
  cache.insert(word, out->data() + before, out->size() - before);
}

namespace {

// True when some merge takes an unknown or byte-fallback token, whose spelling is not its text.
bool merges_take(const PairMap& merges, const std::optional<TokenId>& unk,
                 const int32_t* fallback_ids) {
  std::vector<bool> special;
  auto mark = [&](int64_t id) {
    if (id < 0) return;
    if (static_cast<size_t>(id) >= special.size()) special.resize(static_cast<size_t>(id) + 1);
    special[static_cast<size_t>(id)] = true;
  };
  if (unk) mark(*unk);
  for (int b = 0; b < 256; ++b) mark(fallback_ids[b]);
  auto is_special = [&](uint32_t id) { return id < special.size() && special[id]; };
  const uint64_t* keys = merges.raw_keys();
  for (size_t i = 0; i < merges.capacity(); ++i) {
    if (keys[i] == PairMap::kEmpty) continue;
    if (is_special(static_cast<uint32_t>(keys[i] >> 32)) ||
        is_special(static_cast<uint32_t>(keys[i]))) {
      return true;
    }
  }
  return false;
}

}  // namespace

const TokenBigrams* BpeModel::token_bigrams() const {
  std::call_once(long_words_->once, [this] {
    if (!prefix_.empty() || !suffix_.empty()) return;  // symbols would spell more than their text
    if (byte_keys_) {
      // A byte without a token becomes an unknown or byte-fallback symbol.
      for (int32_t id : byte_ids_) {
        if (id < 0) return;
      }
    } else {
      if (merges_take(merges_, unk_id_, byte_fallback_ids_)) return;
      long_words_->char_level = true;
    }
    auto bigrams = std::make_unique<TokenBigrams>();
    if (lazy_) {
      for (uint32_t r = 0; r < lazy_->tables.ranks; ++r) bigrams->add_token(lazy_->tables.token(r));
    } else {
      vocab_.for_each([&](std::string_view token, uint32_t) { bigrams->add_token(token); });
    }
    long_words_->bigrams = std::move(bigrams);
  });
  return long_words_->bigrams.get();
}

bool BpeModel::may_cut_before(std::string_view w, size_t i) const {
  if (!long_words_->char_level) return true;
  if ((static_cast<unsigned char>(w[i]) & 0xC0) == 0x80) return false;  // inside a character
  size_t start = i - 1;
  while (start > 0 && (static_cast<unsigned char>(w[start]) & 0xC0) == 0x80) --start;
  const size_t next_len = std::min(utf8_len(static_cast<unsigned char>(w[i])), w.size() - i);
  return vocab_.find(w.substr(start, i - start)) && vocab_.find(w.substr(i, next_len));
}

void BpeModel::tokenize_long(std::string_view word, std::vector<TokenId>* out) const {
  // Pieces up to this size enter the word cache: ordinary words do, most pieces of text without
  // repetition do not, so such text leaves room for real words.
  constexpr size_t kMaxCachedPieceBytes = 32;
  const TokenBigrams* bigrams =
      long_word_options().split_at_safe_boundaries ? token_bigrams() : nullptr;
  if (!bigrams) {
    merge_word(word, out);
    return;
  }
  WordCache& cache = cache_for(uid_);
  auto may_cut = [&](size_t i) { return may_cut_before(word, i); };
  bigrams->for_each_piece(word, 1, may_cut, [&](std::string_view piece) {
    if (cache.find(piece, out)) return;
    const size_t before = out->size();
    merge_word(piece, out);
    if (piece.size() <= kMaxCachedPieceBytes) {
      cache.insert(piece, out->data() + before, out->size() - before);
    }
  });
}

}  // namespace servebench::tokenizer
