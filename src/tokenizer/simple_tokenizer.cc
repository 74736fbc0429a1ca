#include "tokenizer/simple_tokenizer.h"

namespace servebench::tokenizer {
namespace {

// ASCII whitespace only: the rule must be trivially reproducible by other tests.
bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

template <class F>
void for_each_word(std::string_view text, F&& f) {
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && is_space(text[i])) ++i;
    size_t start = i;
    while (i < text.size() && !is_space(text[i])) ++i;
    if (i > start) f(text.substr(start, i - start));
  }
}

}  // namespace

std::vector<TokenId> SimpleTokenizer::encode(std::string_view text, bool) const {
  std::vector<TokenId> ids;
  for_each_word(text, [&](std::string_view w) {
    uint32_t h = 2166136261u;
    for (unsigned char c : w) h = (h ^ c) * 16777619u;
    ids.push_back(h % kSimpleVocabSize);
  });
  return ids;
}

size_t SimpleTokenizer::count(std::string_view text) const {
  size_t n = 0;
  for_each_word(text, [&](std::string_view) { ++n; });
  return n;
}

std::string SimpleTokenizer::decode(const std::vector<TokenId>& ids, bool) const {
  std::string out;
  for (size_t i = 0; i < ids.size(); ++i) {
    if (i) out += ' ';
    out += 'w';
    out += std::to_string(ids[i]);
  }
  return out;
}

}  // namespace servebench::tokenizer
