#include "tokenizer/models.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <limits>
#include <memory>
#include <unordered_map>

#include "tokenizer/model_internal.h"
#include "tokenizer/unicode.h"

namespace servebench::tokenizer {
namespace {

std::atomic<uint64_t> g_next_uid{1};

}  // namespace

namespace internal {

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

}  // namespace internal

using internal::cache_for;
using internal::fill_byte_fallback;
using internal::set_token;
using internal::WordCache;

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
  size_t prefixes = 0;
  for (const auto& piece : m->id_to_token_) prefixes += piece.size();
  size_t bits = 64;
  while (bits < prefixes * 8) bits <<= 1;  // ~12% of absent prefixes collide
  m->prefix_bits_.assign(bits / 64, 0);
  m->prefix_mask_ = bits - 1;
  for (const auto& piece : m->id_to_token_) {
    for (size_t n = 1; n < piece.size(); ++n) {  // every byte length: the text may not be UTF-8
      const uint64_t h = hash_bytes(std::string_view(piece).substr(0, n)) & m->prefix_mask_;
      m->prefix_bits_[h >> 6] |= uint64_t{1} << (h & 63);
    }
  }
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
      if (end == s.size() || !may_extend(s.substr(pos, end - pos))) break;
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
