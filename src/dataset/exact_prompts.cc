#include "dataset/exact_prompts.h"

#include <algorithm>
#include <cctype>
#include <unordered_map>

#include <fmt/format.h>

namespace servebench::dataset {
namespace {

constexpr size_t kMaxPieceBytes = 64;     // very long "words" (rules, URLs) are skipped
constexpr uint16_t kMaxPieceTokens = 16;  // so one piece never dominates a short prompt
constexpr size_t kMaxScan = 4096;         // pieces scanned for one that fits the remainder

}  // namespace

Result<ExactPromptBuilder> ExactPromptBuilder::create(std::string_view corpus, const tokenizer::Tokenizer& tok) {
  ExactPromptBuilder b{std::string(corpus), tok};
  std::unordered_map<std::string_view, std::pair<uint16_t, uint16_t>> counted;
  // A piece's space-prefixed cost is measured after an anchor word rather than as " word"
  // alone: tokenizers that prepend "▁" (SentencePiece layouts) would count a leading space twice.
  constexpr std::string_view kAnchor = "a";
  const size_t anchor_tokens = tok.count(kAnchor);
  // "a " stays at the front of the scratch; each word is appended after it (shrinking back with
  // resize also sidesteps a GCC 12 -Wrestrict false positive on assign()).
  std::string scratch(kAnchor);
  scratch.push_back(' ');
  const size_t prefix_bytes = scratch.size();
  std::string_view text = b.corpus_;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    const size_t start = i;
    while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (i == start || i - start > kMaxPieceBytes) continue;
    std::string_view w = text.substr(start, i - start);
    auto it = counted.find(w);
    if (it == counted.end()) {
      scratch.resize(prefix_bytes);
      scratch.append(w);
      const size_t bare = tok.count(w);
      const size_t with_anchor = tok.count(scratch);
      const size_t cont = with_anchor > anchor_tokens ? with_anchor - anchor_tokens : 0;
      it = counted.emplace(w, std::make_pair(static_cast<uint16_t>(std::min<size_t>(bare, 0xFFFF)),
                                             static_cast<uint16_t>(std::min<size_t>(cont, 0xFFFF)))).first;
    }
    auto [bare, cont] = it->second;
    if (bare == 0 || cont == 0 || bare > kMaxPieceTokens || cont > kMaxPieceTokens) continue;
    b.pieces_.push_back(Piece{static_cast<uint32_t>(start), static_cast<uint32_t>(i - start), bare, cont});
  }
  if (b.pieces_.empty()) return make_error(ErrorCode::kInvalidArgument, "the prompt corpus has no usable words");
  // Filler: the most frequent piece that is a single token in both forms.
  std::unordered_map<std::string_view, size_t> freq;
  for (const auto& p : b.pieces_)
    if (p.bare_tokens == 1 && p.cont_tokens == 1) ++freq[b.text_of(p)];
  if (freq.empty())
    return make_error(ErrorCode::kUnsupported,
                      fmt::format("tokenizer '{}' splits every corpus word into several tokens; "
                                  "exact-length prompts need at least one single-token word", tok.name()));
  auto best = std::max_element(freq.begin(), freq.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second < b.second : a.first > b.first;
  });
  b.filler_ = std::string(best->first);
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

ExactPromptBuilder::Prompt ExactPromptBuilder::build(int64_t target_tokens, core::Rng& rng, bool continuation) const {
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
