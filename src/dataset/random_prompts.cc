#include "dataset/random_prompts.h"

#include <algorithm>
#include <string_view>

#include <fmt/format.h>

#include "tokenizer/unicode.h"

namespace servebench::dataset {
namespace {

using tokenizer::TokenId;

constexpr int kMaxRounds = 12;   // corrections of one draw
constexpr int kMaxAttempts = 8;  // fresh draws before giving up on exactness
constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD
// The text a continuation prompt is counted after (as ExactPromptBuilder's calibration does).
constexpr std::string_view kAnchor = "a";

// Removes every U+FFFD (what a lossy decode makes of a cut multi-byte character).
void drop_replacements(std::string* s) {
  size_t at = s->find(kReplacement);
  if (at == std::string::npos) return;
  std::string out;
  out.reserve(s->size());
  size_t from = 0;
  for (; at != std::string::npos; at = s->find(kReplacement, from)) {
    out.append(*s, from, at - from);
    from = at + kReplacement.size();
  }
  out.append(*s, from, std::string::npos);
  *s = std::move(out);
}

// Trims Unicode White_Space at both ends. REQUIRES: valid UTF-8.
void trim_white_space(std::string* s) {
  size_t begin = 0;
  while (begin < s->size()) {
    size_t next = begin;
    if (!tokenizer::is_rust_whitespace(tokenizer::next_code_point(*s, &next))) break;
    begin = next;
  }
  size_t end = s->size();
  while (end > begin) {
    size_t start = end - 1;
    while (start > begin && (static_cast<unsigned char>((*s)[start]) & 0xC0) == 0x80) --start;
    size_t pos = start;
    if (!tokenizer::is_rust_whitespace(tokenizer::next_code_point(*s, &pos))) break;
    end = start;
  }
  *s = s->substr(begin, end - begin);
}

}  // namespace

Result<RandomTokenPrompts> RandomTokenPrompts::create(const tokenizer::Tokenizer& tok) {
  RandomTokenPrompts r(tok);
  const size_t n = tok.vocab_size();
  std::vector<TokenId> one(1);
  for (size_t id = 0; id < n; ++id) {
    one[0] = static_cast<TokenId>(id);
    if (tok.is_added_token(one[0])) continue;
    const std::string s = tok.decode(one, /*skip_special_tokens=*/true);
    if (s.empty() || !tokenizer::is_valid_utf8(s) || s.find(kReplacement) != std::string::npos) continue;
    r.pool_.push_back(one[0]);
  }
  if (r.pool_.empty())
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("--prompt-corpus random: tokenizer '{}' has no decodable non-special token; "
                                  "use --prompt-corpus sonnet or another --tokenizer",
                                  tok.name()));
  r.anchor_ids_ = tok.encode(kAnchor, false);
  return r;
}

bool RandomTokenPrompts::drop_special_tokens(std::vector<TokenId>* ids) const {
  std::vector<TokenId> one(1);
  const auto special = [&](TokenId id) {
    if (!tok_->is_added_token(id)) return false;
    one[0] = id;
    return tok_->decode(one, /*skip_special_tokens=*/true).empty();
  };
  const auto end = std::remove_if(ids->begin(), ids->end(), special);
  if (end == ids->end()) return false;
  ids->erase(end, ids->end());
  return true;
}

void RandomTokenPrompts::draw(int64_t n, core::Rng& rng, std::vector<TokenId>* ids) const {
  for (int64_t i = 0; i < n; ++i) ids->push_back(pool_[rng.next_below(pool_.size())]);
}

std::string RandomTokenPrompts::clean_decode(const std::vector<TokenId>& ids) const {
  std::string s = tok_->decode(ids, /*skip_special_tokens=*/true);
  if (!tokenizer::is_valid_utf8(s)) {
    bool changed = false;
    s = tokenizer::sanitize_utf8(s, &changed);
  }
  drop_replacements(&s);
  trim_white_space(&s);
  return s;
}

int64_t RandomTokenPrompts::encode_as_sent(const std::string& text, bool continuation, std::vector<TokenId>* ids) const {
  ids->clear();
  if (text.empty()) return 0;
  if (!continuation) {
    *ids = tok_->encode(text, false);
    return static_cast<int64_t>(ids->size());
  }
  std::string probe(kAnchor);
  probe.push_back(' ');
  probe.append(text);
  *ids = tok_->encode(probe, false);
  const size_t a = anchor_ids_.size();
  if (ids->size() >= a && std::equal(anchor_ids_.begin(), anchor_ids_.end(), ids->begin())) {
    ids->erase(ids->begin(), ids->begin() + static_cast<std::ptrdiff_t>(a));
    return static_cast<int64_t>(ids->size());
  }
  // The anchor merged into the text (no pre-tokenizer split at the space): the count is the
  // difference; cuts and top-ups work on the text's own encoding.
  const int64_t n = static_cast<int64_t>(ids->size()) - static_cast<int64_t>(a);
  *ids = tok_->encode(text, false);
  return n;
}

bool RandomTokenPrompts::attempt(int64_t target, core::Rng& rng, bool continuation, Prompt* out) const {
  std::vector<TokenId> ids;
  ids.reserve(static_cast<size_t>(target + target / 2) + 8);
  // One more than needed: the text of random ids encodes to a few percent more tokens than were
  // drawn (3-6% with o200k, Llama-3 and Qwen3), and cutting that encoding at the target is the
  // step that lands exactly; a shortfall is topped up with a quarter's margin.
  draw(target + 1, rng, &ids);
  for (int round = 0; round < kMaxRounds; ++round) {
    out->text = clean_decode(ids);
    out->tokens = encode_as_sent(out->text, continuation, &ids);
    // Random neighbours could spell a special token ("<|" "endo" "ftext" "|>"): drop it and redraw.
    if (drop_special_tokens(&ids)) continue;
    if (out->tokens == target) return true;
    // `ids` is now the text's own encoding, so a cut lands on a token the text really has.
    if (out->tokens > target) {
      ids.resize(ids.size() - std::min(ids.size(), static_cast<size_t>(out->tokens - target)));
    } else {
      const int64_t missing = target - out->tokens;
      draw(missing + missing / 4 + 2, rng, &ids);
    }
  }
  return false;
}

RandomTokenPrompts::Prompt RandomTokenPrompts::build(int64_t target_tokens, core::Rng& rng, bool continuation) const {
  const int64_t target = std::max<int64_t>(1, target_tokens);
  // One draw from the caller's stream per prompt: a prompt's content does not depend on how many
  // corrections the prompts before it needed, and prompts could be built in parallel.
  core::Rng own(rng.next_u64());
  Prompt p;
  for (int a = 0; a < kMaxAttempts; ++a)
    if (attempt(target, own, continuation, &p)) return p;
  return p;
}

}  // namespace servebench::dataset
