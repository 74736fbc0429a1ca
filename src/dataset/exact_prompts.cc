#include "dataset/exact_prompts.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <optional>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/env.h"
#include "core/log.h"
#include "dataset/count_cache.h"
#include "dataset/embedded_counts.h"
#include "dataset/random_prompts.h"

namespace servebench::dataset {
namespace {

using count_cache::CacheKey;
using count_cache::kAnchor;
using count_cache::kMaxPieceBytes;

constexpr uint16_t kMaxPieceTokens = 16;  // so one piece never dominates a short prompt
constexpr size_t kMaxScan = 4096;         // pieces scanned for one that fits the remainder
static_assert(kMaxPieceTokens < 255, "the count cache stores counts clipped to one byte");

// ---- counting --------------------------------------------------------------------------------

// The C locale's isspace (' ', \t \n \v \f \r), independent of any setlocale() (cache entries
// and the embedded table must split words the same way in every process).
inline bool is_space(unsigned char c) { return c == ' ' || static_cast<unsigned char>(c - '\t') <= 4; }

// Bit j set when p[j] is a space, for j < n <= 64 (bits from n on are set too: the text's end
// ends a word).
inline uint64_t space_mask(const unsigned char* p, size_t n) {
  uint64_t mask = 0;
#if defined(__SSE2__)
  if (n == 64) {
    for (int k = 0; k < 4; ++k) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k));
      const __m128i blank = _mm_cmpeq_epi8(v, _mm_set1_epi8(' '));
      const __m128i t = _mm_sub_epi8(v, _mm_set1_epi8('\t'));  // \t..\r: t <= 4 unsigned
      const __m128i ctrl = _mm_cmpeq_epi8(_mm_min_epu8(t, _mm_set1_epi8(4)), t);
      mask |= static_cast<uint64_t>(static_cast<uint32_t>(_mm_movemask_epi8(_mm_or_si128(blank, ctrl)))) << (16 * k);
    }
    return mask;
  }
#endif
  for (size_t j = 0; j < n; ++j) mask |= static_cast<uint64_t>(is_space(p[j])) << j;
  if (n < 64) mask |= ~uint64_t{0} << n;
  return mask;
}

// Calls f(offset, bytes) for every word occurrence, in order: a maximal run of non-space bytes,
// at most kMaxPieceBytes long (longer runs are skipped). Scans 64 bytes per step as a bit mask
// of spaces and walks its transitions (the corpus has ~200k words in 1.2 MB).
template <class F>
void for_each_word(std::string_view text, F&& f) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const size_t n = text.size();
  constexpr size_t kNone = ~size_t{0};
  size_t start = kNone;  // first byte of the word being scanned; kNone between words
  for (size_t base = 0; base < n; base += 64) {
    const uint64_t space = space_mask(p + base, std::min<size_t>(64, n - base));
    size_t pos = 0;
    while (pos < 64) {
      if (start == kNone) {
        const uint64_t word_bytes = ~space >> pos;
        if (word_bytes == 0) break;
        pos += static_cast<size_t>(__builtin_ctzll(word_bytes));
        start = base + pos;
      } else {
        const uint64_t spaces = space >> pos;
        if (spaces == 0) break;
        pos += static_cast<size_t>(__builtin_ctzll(spaces));
        if (base + pos - start <= kMaxPieceBytes) f(start, base + pos - start);
        start = kNone;
      }
    }
  }
  if (start != kNone && n - start <= kMaxPieceBytes) f(start, n - start);
}

uint8_t clip(size_t n) { return static_cast<uint8_t>(std::min<size_t>(n, 255)); }

// Counts every distinct word once, bare and after the anchor; returns the per-occurrence
// (bare, cont) pairs in the cache's layout.
std::string count_words(std::string_view text, const tokenizer::Tokenizer& tok) {
  std::unordered_map<std::string_view, std::pair<uint8_t, uint8_t>> counted;
  const size_t anchor_tokens = tok.count(kAnchor);
  // "a " stays at the front of the scratch; each word is appended after it (shrinking back with
  // resize also sidesteps a GCC 12 -Wrestrict false positive on assign()).
  std::string scratch(kAnchor);
  scratch.push_back(' ');
  const size_t prefix_bytes = scratch.size();
  std::string out;
  for_each_word(text, [&](size_t start, size_t bytes) {
    std::string_view w = text.substr(start, bytes);
    auto it = counted.find(w);
    if (it == counted.end()) {
      scratch.resize(prefix_bytes);
      scratch.append(w);
      const size_t bare = tok.count(w);
      const size_t with_anchor = tok.count(scratch);
      const size_t cont = with_anchor > anchor_tokens ? with_anchor - anchor_tokens : 0;
      it = counted.emplace(w, std::make_pair(clip(bare), clip(cont))).first;
    }
    out.push_back(static_cast<char>(it->second.first));
    out.push_back(static_cast<char>(it->second.second));
  });
  return out;
}

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

std::string ExactPromptBuilder::default_count_cache_dir() { return count_cache::default_dir(core::env()); }

std::string ExactPromptBuilder::count_cache_file_name(std::string_view corpus, const tokenizer::Tokenizer& tok) {
  auto key = count_cache::cache_key(corpus, tok);
  return key ? key->file_name() : std::string();
}

Result<std::string> ExactPromptBuilder::make_embedded_count_table(std::string_view corpus,
                                                                  const tokenizer::Tokenizer& tok) {
  const std::string fp = tok.fingerprint();
  if (fp.empty()) return make_error(ErrorCode::kInvalidArgument, fmt::format("tokenizer '{}' has no fingerprint", tok.name()));
  CountTable table{count_words(corpus, tok), CountTable::kChooseFiller};
  SB_TRY_ASSIGN(const ExactPromptBuilder b, from_counts(corpus, tok, &table));
  if (b.verify_all_)
    return make_error(ErrorCode::kUnsupported,
                      fmt::format("tokenizer '{}' is not additive over the corpus's words: nothing to embed", tok.name()));
  return count_cache::encode_count_table(count_cache::embedded_key(corpus, fp), corpus.size(), table);
}

std::optional<ExactPromptBuilder> ExactPromptBuilder::from_embedded(std::string_view corpus,
                                                                    const tokenizer::Tokenizer& tok) {
  const std::string_view data = embedded_count_table();
  // The table's corpus size first: a cheap no for other corpora.
  if (count_cache::table_corpus_bytes(data) != corpus.size()) return std::nullopt;
  const std::string fp = tok.fingerprint();
  if (fp.empty()) return std::nullopt;
  auto table = count_cache::parse_count_table(data, count_cache::embedded_key(corpus, fp), corpus.size());
  if (!table) {
    SB_LOG_DEBUG("piece counts: embedded table not used ({})", table.error().message);
    return std::nullopt;
  }
  auto b = from_counts(corpus, tok, &*table);
  if (!b || b->verify_all_) {
    SB_LOG_DEBUG("piece counts: the embedded table disagrees with tokenizer '{}'; not used", tok.name());
    return std::nullopt;
  }
  b->count_source_ = CountSource::kEmbedded;
  return std::move(*b);
}

Result<ExactPromptBuilder> ExactPromptBuilder::create(std::string_view corpus, const tokenizer::Tokenizer& tok,
                                                      const ExactPromptOptions& options) {
  const auto t0 = std::chrono::steady_clock::now();
  if (options.use_embedded_counts) {
    if (auto b = from_embedded(corpus, tok)) {
      SB_LOG_DEBUG("piece counts: {} pieces from the embedded table with '{}' in {:.1f} ms", b->piece_count(),
                   tok.name(), ms_since(t0));
      return std::move(*b);
    }
  }
  std::string dir, path;
  std::optional<CacheKey> key;
  if (options.use_count_cache) {
    dir = options.count_cache_dir.empty() ? default_count_cache_dir() : options.count_cache_dir;
    if (!dir.empty()) key = count_cache::cache_key(corpus, tok);
    if (key) path = dir + "/" + key->file_name();
  }
  CountTable table;
  bool from_cache = false;
  if (key) {
    if (auto cached = count_cache::read_count_cache(path, *key, corpus.size())) {
      table = std::move(*cached);
      from_cache = true;
      ::utimensat(AT_FDCWD, path.c_str(), nullptr, 0);  // recently used: pruned last
    } else {
      SB_LOG_DEBUG("piece counts: cache {} not used ({})", path, cached.error().message);
    }
  } else if (options.use_count_cache) {
    SB_LOG_DEBUG("piece counts: not cached (tokenizer '{}' has no fingerprint, or no cache folder)", tok.name());
  }
  Result<ExactPromptBuilder> b = make_error(ErrorCode::kInternal, "piece counts missing");
  if (from_cache) b = from_counts(corpus, tok, &table);
  // A cache entry that does not fit this corpus, or whose counts the calibration check refutes,
  // is not trusted: count afresh (and overwrite it unless the fresh counts are the same).
  std::string distrusted;
  if (from_cache && (!b || b->verify_all_)) {
    SB_LOG_DEBUG("piece counts: cache {} disagrees with the corpus or the tokenizer; recounting", path);
    from_cache = false;
    distrusted = std::move(table.counts);
  }
  if (!from_cache) {
    table = CountTable{count_words(corpus, tok), CountTable::kChooseFiller};
    b = from_counts(corpus, tok, &table);
    if (b && key && table.counts != distrusted) {
      if (auto w = count_cache::write_count_cache(dir, path, *key, corpus.size(), table); !w)
        SB_LOG_DEBUG("piece counts: cache not written ({})", w.error().message);
      else
        count_cache::prune_count_cache(dir);
    }
  }
  if (!b) return b;
  b->count_source_ = from_cache ? CountSource::kCache : CountSource::kCounted;
  SB_LOG_DEBUG("piece counts: {} words {} with '{}' in {:.1f} ms", table.counts.size() / 2,
               from_cache ? "read from cache" : "counted", tok.name(), ms_since(t0));
  return b;
}

Result<ExactPromptBuilder> ExactPromptBuilder::from_counts(std::string_view corpus, const tokenizer::Tokenizer& tok,
                                                           CountTable* table) {
  ExactPromptBuilder b{std::string(corpus), tok};
  const std::string_view counts = table->counts;
  const bool choose = table->filler_word == CountTable::kChooseFiller;
  // Filler: the most frequent piece that is a single token in both forms (ties: the smallest
  // text); value = (frequency, index of its first occurrence).
  std::unordered_map<std::string_view, std::pair<size_t, uint64_t>> freq;
  std::string_view given_filler;
  uint64_t k = 0;
  bool fits = true;
  b.pieces_.reserve(counts.size() / 2);
  for_each_word(b.corpus_, [&](size_t start, size_t bytes) {
    if (2 * k + 1 >= counts.size()) {
      fits = false;
      return;
    }
    const auto bare = static_cast<uint8_t>(counts[2 * k]), cont = static_cast<uint8_t>(counts[2 * k + 1]);
    const uint64_t word = k++;
    if (bare == 0 || cont == 0 || bare > kMaxPieceTokens || cont > kMaxPieceTokens) return;
    b.pieces_.push_back(Piece{static_cast<uint32_t>(start), static_cast<uint32_t>(bytes), bare, cont});
    if (bare != 1 || cont != 1) return;
    const std::string_view text = std::string_view(b.corpus_).substr(start, bytes);
    if (choose) {
      ++freq.try_emplace(text, 0, word).first->second.first;
    } else if (word == table->filler_word) {
      given_filler = text;
    }
  });
  if (!fits || 2 * k != counts.size())
    return make_error(ErrorCode::kInternal, "piece counts do not match the corpus's words");
  if (b.pieces_.empty()) return make_error(ErrorCode::kInvalidArgument, "the prompt corpus has no usable words");
  if (choose) {
    if (freq.empty())
      return make_error(ErrorCode::kUnsupported,
                        fmt::format("tokenizer '{}' splits every corpus word into several tokens; "
                                    "exact-length prompts need at least one single-token word", tok.name()));
    auto best = std::max_element(freq.begin(), freq.end(), [](const auto& x, const auto& y) {
      return x.second.first != y.second.first ? x.second.first < y.second.first : x.first > y.first;
    });
    given_filler = best->first;
    table->filler_word = best->second.second;
  } else if (given_filler.empty()) {
    return make_error(ErrorCode::kInternal, "the cached filler word is not a single-token piece");
  }
  b.filler_ = std::string(given_filler);
  b.calibrate(16, 256, 0x5EED);
  return b;
}

int64_t ExactPromptBuilder::assemble(int64_t target, size_t start, bool continuation, std::string* out) const {
  out->clear();
  int64_t total = 0;
  size_t scanned = 0;
  const size_t n = pieces_.size();
  for (size_t k = start; total < target && scanned < kMaxScan; k = (k + 1) % n) {
    const Piece& p = pieces_[k];
    const bool first = out->empty();
    const int64_t c = (first && !continuation) ? p.bare_tokens : p.cont_tokens;
    if (total + c > target) {
      ++scanned;
      continue;
    }
    scanned = 0;
    if (!first) out->push_back(' ');
    out->append(text_of(p));
    total += c;
  }
  // No fitting piece within the scan window (pathological corpora): pad with the filler.
  while (total < target) {
    if (!out->empty()) out->push_back(' ');
    out->append(filler_);
    ++total;
  }
  return total;
}

ExactPromptBuilder::Prompt ExactPromptBuilder::repair(int64_t target, size_t start, bool continuation) const {
  Prompt p;
  assemble(target, start, continuation, &p.text);
  p.tokens = static_cast<int64_t>(tok_->count(p.text));
  // Bounded tail repair: drop words from the end while over, pad with the filler while under.
  for (int round = 0; round < 8 && p.tokens != target; ++round) {
    if (p.tokens > target) {
      for (int64_t over = p.tokens - target; over > 0; --over) {
        const size_t sp = p.text.rfind(' ');
        if (sp == std::string::npos) break;
        p.text.resize(sp);
      }
    } else {
      for (int64_t under = target - p.tokens; under > 0; --under) {
        if (!p.text.empty()) p.text.push_back(' ');
        p.text.append(filler_);
      }
    }
    p.tokens = static_cast<int64_t>(tok_->count(p.text));
  }
  return p;
}

Result<ExactPromptBuilder> ExactPromptBuilder::random_vocabulary(const tokenizer::Tokenizer& tok) {
  const auto t0 = std::chrono::steady_clock::now();
  SB_TRY_ASSIGN(RandomTokenPrompts r, RandomTokenPrompts::create(tok));
  ExactPromptBuilder b{std::string(), tok};
  b.random_ = std::make_shared<const RandomTokenPrompts>(std::move(r));
  SB_LOG_DEBUG("random prompts: {} of {} ids drawable with '{}' ({:.1f} ms)", b.random_->pool().size(),
               tok.vocab_size(), tok.name(), ms_since(t0));
  return b;
}

Result<ExactPromptBuilder> ExactPromptBuilder::for_corpus(std::string_view corpus_name, std::string_view corpus_text,
                                                          const tokenizer::Tokenizer& tok,
                                                          const ExactPromptOptions& options) {
  if (corpus_name == kRandomCorpus) return random_vocabulary(tok);
  return create(corpus_text, tok, options);
}

ExactPromptBuilder::Prompt ExactPromptBuilder::build(int64_t target_tokens, core::Rng& rng, bool continuation) const {
  if (random_) {
    RandomTokenPrompts::Prompt r = random_->build(target_tokens, rng, continuation);
    return Prompt{std::move(r.text), r.tokens};
  }
  const int64_t target = std::max<int64_t>(1, target_tokens);
  const size_t start = static_cast<size_t>(rng.next_below(pieces_.size()));
  if (verify_all_) return repair(target, start, continuation);
  Prompt p;
  p.tokens = assemble(target, start, continuation, &p.text);
  return p;
}

void ExactPromptBuilder::calibrate(int samples, int64_t target_tokens, uint64_t seed) {
  core::Rng rng = core::Rng::stream(seed, "exact_prompts.calibrate");
  std::string text;
  for (int s = 0; s < samples && !verify_all_; ++s) {
    const size_t start = static_cast<size_t>(rng.next_below(pieces_.size()));
    const int64_t claimed = assemble(target_tokens, start, s % 2 == 1, &text);
    std::string probe = (s % 2 == 1) ? "x " + text : text;
    const int64_t actual = static_cast<int64_t>(tok_->count(probe)) - ((s % 2 == 1) ? static_cast<int64_t>(tok_->count("x")) : 0);
    if (actual != claimed) verify_all_ = true;
  }
}

}  // namespace servebench::dataset
