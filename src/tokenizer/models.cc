#include "tokenizer/models.h"

#include <algorithm>
#include <iterator>
#include <cstdio>
#include <limits>
#include <queue>
#include <unordered_map>

#include "tokenizer/unicode.h"

namespace servebench::tokenizer {
namespace {

std::atomic<uint64_t> g_next_uid{1};

// Per-thread word -> ids cache of one model. When full it stops admitting words (as HF's cache
// does): the words seen first are the frequent ones in Zipf-distributed text.
class WordCache {
 public:
  static constexpr size_t kMaxWords = 1 << 16;
  static constexpr size_t kMaxWordBytes = 256;
  bool find(std::string_view word, std::vector<TokenId>* out) const {
    const uint32_t* e = map_.find(word);
    if (!e) return false;
    out->insert(out->end(), ids_.begin() + starts_[*e], ids_.begin() + starts_[*e + 1]);
    return true;
  }
  void insert(std::string_view word, const TokenId* ids, size_t n) {
    if (word.size() > kMaxWordBytes || map_.size() >= kMaxWords) return;
    map_.insert(word, static_cast<uint32_t>(starts_.size() - 1));
    ids_.insert(ids_.end(), ids, ids + n);
    starts_.push_back(static_cast<uint32_t>(ids_.size()));
  }

 private:
  StringIdMap map_;
  std::vector<TokenId> ids_;
  std::vector<uint32_t> starts_{0};
};

WordCache& cache_for(uint64_t uid) {
  thread_local uint64_t last_uid = 0;
  thread_local WordCache* last = nullptr;
  if (uid == last_uid) return *last;
  thread_local std::unordered_map<uint64_t, std::unique_ptr<WordCache>> caches;
  auto& c = caches[uid];
  if (!c) c = std::make_unique<WordCache>();
  last_uid = uid;
  last = c.get();
  return *c;
}

void fill_byte_fallback(const StringIdMap& vocab, int32_t* ids) {
  for (int b = 0; b < 256; ++b) {
    char name[8];
    std::snprintf(name, sizeof(name), "<0x%02X>", b);
    const uint32_t* id = vocab.find(name);
    ids[b] = id ? static_cast<int32_t>(*id) : -1;
  }
}

void set_token(std::vector<std::string>* table, TokenId id, std::string s) {
  if (id >= table->size()) table->resize(static_cast<size_t>(id) + 1);
  (*table)[id] = std::move(s);
}

}  // namespace

Model::Model() : uid_(g_next_uid.fetch_add(1)) {}

std::optional<TokenId> Model::token_to_id(std::string_view token) const {
  const uint32_t* id = vocab_.find(token);
  if (!id) return std::nullopt;
  return *id;
}

const std::string* Model::id_to_token(TokenId id) const {
  if (id >= id_to_token_.size()) return nullptr;
  return &id_to_token_[id];
}

size_t Model::memory_bytes() const {
  size_t n = vocab_.memory_bytes() + id_to_token_.capacity() * sizeof(std::string);
  for (const auto& s : id_to_token_) n += s.capacity() > 15 ? s.capacity() : 0;
  return n;
}

// ---- BPE -------------------------------------------------------------------------------------

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
  struct Symbol {
    TokenId id;
    int32_t prev, next;
    uint32_t len;
  };
  thread_local std::vector<Symbol> syms;
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

  struct Merge {
    uint32_t rank;
    int32_t pos;
    TokenId id;
    bool operator<(const Merge& o) const {  // max-heap: lowest rank, then leftmost, on top
      return rank != o.rank ? rank > o.rank : pos > o.pos;
    }
  };
  thread_local std::vector<Merge> heap;
  heap.clear();
  for (size_t i = 0; i + 1 < syms.size(); ++i) {
    if (const auto* v = merges_.find(syms[i].id, syms[i + 1].id); v && v->rank < max_rank) {
      heap.push_back({v->rank, static_cast<int32_t>(i), v->id});
    }
  }
  std::make_heap(heap.begin(), heap.end());
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end());
    Merge top = heap.back();
    heap.pop_back();
    Symbol& cur = syms[top.pos];
    if (cur.len == 0 || cur.next < 0) continue;
    Symbol right = syms[cur.next];
    const auto* v = merges_.find(cur.id, right.id);
    if (!v || v->id != top.id) continue;  // stale entry
    cur.id = top.id;
    cur.len += right.len;
    syms[cur.next].len = 0;
    cur.next = right.next;
    if (right.next >= 0) syms[right.next].prev = top.pos;
    if (cur.prev >= 0) {
      if (const auto* pv = merges_.find(syms[cur.prev].id, cur.id); pv && pv->rank < max_rank) {
        heap.push_back({pv->rank, cur.prev, pv->id});
        std::push_heap(heap.begin(), heap.end());
      }
    }
    if (cur.next >= 0) {
      if (const auto* nv = merges_.find(cur.id, syms[cur.next].id); nv && nv->rank < max_rank) {
        heap.push_back({nv->rank, top.pos, nv->id});
        std::push_heap(heap.begin(), heap.end());
      }
    }
  }
  for (const Symbol& sym : syms) {
    if (sym.len != 0) out->push_back(sym.id);
  }
}

void BpeModel::tokenize(std::string_view word, std::vector<TokenId>* out) const {
  if (word.empty()) return;
  if (ignore_merges_) {
    if (const uint32_t* id = vocab_.find(word)) {
      out->push_back(*id);
      return;
    }
  }
  WordCache& cache = cache_for(uid_);
  if (cache.find(word, out)) return;
  size_t before = out->size();
  merge_word(word, out);
  cache.insert(word, out->data() + before, out->size() - before);
}

// ---- Unigram ---------------------------------------------------------------------------------

Result<std::unique_ptr<UnigramModel>> UnigramModel::create(UnigramConfig c) {
  std::unique_ptr<UnigramModel> m(new UnigramModel());
  m->vocab_.reserve(c.vocab.size());
  m->min_score_ = std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < c.vocab.size(); ++i) {
    m->vocab_.insert(c.vocab[i].first, static_cast<uint32_t>(i));
    m->scores_.push_back(c.vocab[i].second);
    m->min_score_ = std::min(m->min_score_, c.vocab[i].second);
    m->max_piece_bytes_ = std::max(m->max_piece_bytes_, c.vocab[i].first.size());
    m->id_to_token_.push_back(std::move(c.vocab[i].first));
  }
  if (c.unk_id && *c.unk_id >= c.vocab.size()) {
    return make_error(ErrorCode::kParse, "Unigram: unk_id out of range");
  }
  m->unk_id_ = c.unk_id;
  m->byte_fallback_ = c.byte_fallback;
  fill_byte_fallback(m->vocab_, m->byte_fallback_ids_);
  return m;
}

void UnigramModel::tokenize(std::string_view s, std::vector<TokenId>* out) const {
  if (s.empty()) return;
  WordCache& cache = cache_for(uid_);
  if (cache.find(s, out)) return;
  size_t before = out->size();
  struct Node {
    TokenId id = 0;
    double score = 0;
    int64_t start = -1;
  };
  const double unk_score = min_score_ - 10.0;
  std::vector<Node> best(s.size() + 1);
  size_t pos = 0;
  while (pos < s.size()) {
    double base = best[pos].score;
    size_t mblen = std::min(utf8_len(static_cast<unsigned char>(s[pos])), s.size() - pos);
    bool has_single = false;
    for (size_t end = pos + mblen; end <= s.size() && end - pos <= max_piece_bytes_;) {
      if (const uint32_t* id = vocab_.find(s.substr(pos, end - pos))) {
        Node& t = best[end];
        double cand = scores_[*id] + base;
        if (t.start < 0 || cand > t.score) {
          t.score = cand;
          t.start = static_cast<int64_t>(pos);
          t.id = *id;
        }
        if (end - pos == mblen) has_single = true;
      }
      if (end == s.size()) break;
      end += std::min(utf8_len(static_cast<unsigned char>(s[end])), s.size() - end);
    }
    if (!has_single && unk_id_) {
      Node& t = best[pos + mblen];
      double cand = unk_score + base;
      if (t.start < 0 || cand > t.score) {
        t.score = cand;
        t.start = static_cast<int64_t>(pos);
        t.id = *unk_id_;
      }
    }
    pos += mblen;
  }
  // Backtrack; consecutive unknown pieces fuse into one (HF Unigram always fuses).
  std::vector<std::pair<size_t, size_t>> pieces;
  size_t end = s.size();
  bool in_unk = false;
  while (end > 0) {
    const Node& n = best[end];
    if (n.start < 0) {  // no unk id and no path: HF errors; emit nothing for this char
      end -= 1;
      continue;
    }
    auto start = static_cast<size_t>(n.start);
    bool is_unk = unk_id_ && n.id == *unk_id_;
    if (is_unk && in_unk) {
      pieces.back().first = start;
    } else {
      pieces.emplace_back(start, end);
    }
    in_unk = is_unk;
    end = start;
  }
  for (auto it = pieces.rbegin(); it != pieces.rend(); ++it) {
    std::string_view p = s.substr(it->first, it->second - it->first);
    if (const uint32_t* id = vocab_.find(p)) {
      out->push_back(*id);
      continue;
    }
    if (byte_fallback_) {
      bool all = true;
      for (unsigned char ch : p) all = all && byte_fallback_ids_[ch] >= 0;
      if (all) {
        for (unsigned char ch : p) out->push_back(static_cast<TokenId>(byte_fallback_ids_[ch]));
        continue;
      }
    }
    if (unk_id_) out->push_back(*unk_id_);
  }
  cache.insert(s, out->data() + before, out->size() - before);
}

// ---- WordPiece / WordLevel -------------------------------------------------------------------

Result<std::unique_ptr<WordPieceModel>> WordPieceModel::create(
    std::vector<std::pair<std::string, TokenId>> vocab, std::string unk, std::string prefix,
    size_t max_chars) {
  std::unique_ptr<WordPieceModel> m(new WordPieceModel());
  m->vocab_.reserve(vocab.size());
  for (auto& [tok, id] : vocab) {
    m->vocab_.insert(tok, id);
    set_token(&m->id_to_token_, id, std::move(tok));
  }
  const uint32_t* u = m->vocab_.find(unk);
  if (!u) return make_error(ErrorCode::kParse, "WordPiece: unk_token '" + unk + "' is not in the vocabulary");
  m->unk_id_ = *u;
  m->prefix_ = std::move(prefix);
  m->max_chars_ = max_chars;
  return m;
}

void WordPieceModel::tokenize(std::string_view w, std::vector<TokenId>* out) const {
  size_t chars = 0;
  for (unsigned char ch : w) chars += (ch & 0xC0) != 0x80;
  if (chars > max_chars_) {
    out->push_back(unk_id_);
    return;
  }
  size_t before = out->size();
  std::string sub;
  size_t start = 0;
  while (start < w.size()) {
    size_t end = w.size();
    const uint32_t* found = nullptr;
    while (start < end) {
      sub.clear();
      if (start > 0) sub += prefix_;
      sub.append(w.substr(start, end - start));
      found = vocab_.find(sub);
      if (found) break;
      do {
        --end;
      } while (end > start && (static_cast<unsigned char>(w[end]) & 0xC0) == 0x80);
    }
    if (!found) {
      out->resize(before);
      out->push_back(unk_id_);
      return;
    }
    out->push_back(*found);
    start = end;
  }
}

Result<std::unique_ptr<WordLevelModel>> WordLevelModel::create(
    std::vector<std::pair<std::string, TokenId>> vocab, std::string unk) {
  std::unique_ptr<WordLevelModel> m(new WordLevelModel());
  m->vocab_.reserve(vocab.size());
  for (auto& [tok, id] : vocab) {
    m->vocab_.insert(tok, id);
    set_token(&m->id_to_token_, id, std::move(tok));
  }
  if (const uint32_t* u = m->vocab_.find(unk)) m->unk_id_ = *u;
  return m;
}

void WordLevelModel::tokenize(std::string_view w, std::vector<TokenId>* out) const {
  if (const uint32_t* id = vocab_.find(w)) {
    out->push_back(*id);
  } else if (unk_id_) {
    out->push_back(*unk_id_);
  }
}

}  // namespace servebench::tokenizer
