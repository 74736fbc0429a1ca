#include "tokenizer/added_vocab.h"

#include <algorithm>
#include <cstring>

#include "tokenizer/unicode.h"

namespace servebench::tokenizer {
namespace {

char32_t last_char(std::string_view s) {
  size_t i = s.size() - 1;
  while (i > 0 && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) --i;
  return next_code_point(s, &i);
}
bool is_word_char(char32_t c) { return c == '_' || is_rust_alphanumeric(c) || is_mark(c); }

}  // namespace

AddedVocabulary::AddedVocabulary(std::vector<AddedToken> tokens, const Normalizer* normalizer)
    : tokens_(std::move(tokens)) {
  plain_.patterns.resize(tokens_.size());
  normalized_.patterns.resize(tokens_.size());
  for (size_t i = 0; i < tokens_.size(); ++i) {
    const AddedToken& t = tokens_[i];
    by_id_[t.id] = i;
    by_content_.emplace(t.content, i);
    bool norm = t.normalized;
    Matcher& m = norm ? normalized_ : plain_;
    std::string pat = norm && normalizer ? normalizer->normalize(t.content) : t.content;
    if (pat.empty()) continue;
    m.patterns[i] = pat;
    m.by_first_byte[static_cast<unsigned char>(pat[0])].push_back(static_cast<uint32_t>(i));
    m.any = true;
  }
  for (Matcher* m : {&plain_, &normalized_}) {
    int firsts = 0;
    for (int b = 0; b < 256; ++b) {
      auto& v = m->by_first_byte[b];
      std::stable_sort(v.begin(), v.end(), [&](uint32_t x, uint32_t y) {
        return m->patterns[x].size() > m->patterns[y].size();
      });
      if (!v.empty() && ++firsts == 1) m->only_first = b;
    }
    if (firsts != 1) m->only_first = -1;
  }
}

const AddedToken* AddedVocabulary::by_id(TokenId id) const {
  auto it = by_id_.find(id);
  return it == by_id_.end() ? nullptr : &tokens_[it->second];
}

const AddedToken* AddedVocabulary::by_content(std::string_view content) const {
  auto it = by_content_.find(std::string(content));
  return it == by_content_.end() ? nullptr : &tokens_[it->second];
}

void AddedVocabulary::split(std::string_view s, bool normalized,
                            std::vector<AddedSplit>* out) const {
  const Matcher& m = normalized ? normalized_ : plain_;
  if (!m.any) {
    if (!s.empty()) out->push_back({s, -1});
    return;
  }
  size_t start_offset = 0;
  size_t i = 0;
  while (i < s.size()) {
    if (m.only_first >= 0 && static_cast<unsigned char>(s[i]) != m.only_first) {
      // No pattern starts before the next such byte: skip to it (most texts hold none).
      const void* next = std::memchr(s.data() + i, m.only_first, s.size() - i);
      if (!next) break;
      i = static_cast<size_t>(static_cast<const char*>(next) - s.data());
    }
    const auto& cands = m.by_first_byte[static_cast<unsigned char>(s[i])];
    const AddedToken* hit = nullptr;
    size_t hit_len = 0;
    for (uint32_t idx : cands) {
      const std::string& p = m.patterns[idx];
      if (s.compare(i, p.size(), p) == 0) {
        hit = &tokens_[idx];
        hit_len = p.size();
        break;
      }
    }
    if (!hit) {
      ++i;
      continue;
    }
    size_t start = i, stop = i + hit_len;
    i = stop;  // the matcher resumes after the match even when the match is rejected
    if (hit->single_word) {
      bool start_ok = start == 0 || !is_word_char(last_char(s.substr(0, start)));
      size_t p = stop;
      bool stop_ok = stop == s.size() || !is_word_char(next_code_point(s, &p));
      if (!start_ok || !stop_ok) continue;
    }
    if (hit->lstrip) {
      size_t ns = start;
      while (ns > 0) {
        size_t q = ns - 1;
        while (q > 0 && (static_cast<unsigned char>(s[q]) & 0xC0) == 0x80) --q;
        size_t r = q;
        if (!is_rust_whitespace(next_code_point(s, &r))) break;
        ns = q;
      }
      start = std::max(ns, start_offset);
    }
    if (hit->rstrip) {
      while (stop < s.size()) {
        size_t r = stop;
        if (!is_rust_whitespace(next_code_point(s, &r))) break;
        stop = r;
      }
    }
    if (start_offset < start) out->push_back({s.substr(start_offset, start - start_offset), -1});
    out->push_back({s.substr(start, stop - start), static_cast<int64_t>(hit->id)});
    start_offset = stop;
  }
  if (start_offset < s.size()) out->push_back({s.substr(start_offset), -1});
}

}  // namespace servebench::tokenizer
