#include "tokenizer/normalizers.h"

#include <utf8proc.h>

#include <cstring>

namespace servebench::tokenizer {

std::string SequenceNormalizer::normalize(std::string_view text) const {
  std::string cur(text);
  for (const auto& s : steps_) cur = s->normalize(cur);
  return cur;
}

std::string StripNormalizer::normalize(std::string_view text) const {
  size_t b = 0, e = text.size();
  if (left_) {
    while (b < e) {
      size_t p = b;
      if (!is_rust_whitespace(next_code_point(text, &p))) break;
      b = p;
    }
  }
  if (right_) {
    while (e > b) {
      size_t s = e - 1;
      while (s > b && (static_cast<unsigned char>(text[s]) & 0xC0) == 0x80) --s;
      size_t p = s;
      if (!is_rust_whitespace(next_code_point(text, &p))) break;
      e = s;
    }
  }
  return std::string(text.substr(b, e - b));
}

std::string StripAccentsNormalizer::normalize(std::string_view text) const {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    size_t s = i;
    char32_t c = next_code_point(text, &i);
    if (!is_mark(c)) out.append(text.substr(s, i - s));
  }
  return out;
}

std::string ReplaceNormalizer::normalize(std::string_view text) const {
  std::string out;
  if (!regex_) {
    if (literal_.empty()) return std::string(text);
    size_t pos = 0;
    while (true) {
      size_t f = text.find(literal_, pos);
      if (f == std::string_view::npos) break;
      out.append(text.substr(pos, f - pos));
      out += content_;
      pos = f + literal_.size();
    }
    out.append(text.substr(pos));
    return out;
  }
  std::vector<std::pair<size_t, size_t>> m;
  regex_->find_all(text, &m);
  size_t pos = 0;
  for (auto [s, e] : m) {
    out.append(text.substr(pos, s - pos));
    out += content_;
    pos = e;
  }
  out.append(text.substr(pos));
  return out;
}

std::string BertNormalizer::normalize(std::string_view text) const {
  std::string out;
  out.reserve(text.size() + 8);
  for (size_t i = 0; i < text.size();) {
    char32_t c = next_code_point(text, &i);
    if (clean_text_) {
      // Controls are dropped before whitespace is mapped, so \f and \v vanish (HF order).
      if (c == 0 || c == 0xFFFD || is_hf_control(c)) continue;
      if (is_hf_bert_space(c)) c = ' ';
    }
    if (handle_chinese_chars_ && is_cjk_ideograph(c)) {
      out += ' ';
      append_utf8(&out, c);
      out += ' ';
    } else {
      append_utf8(&out, c);
    }
  }
  if (strip_accents_) {
    std::string nfd = normalize_form(out, NormalForm::kNfd);
    out.clear();
    for (size_t i = 0; i < nfd.size();) {
      size_t s = i;
      if (!is_bert_mark(next_code_point(nfd, &i))) out.append(nfd, s, i - s);
    }
  }
  if (lowercase_) out = to_lower_rust(out);
  return out;
}

std::string NmtNormalizer::normalize(std::string_view text) const {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    char32_t c = next_code_point(text, &i);
    if ((c >= 0x1 && c <= 0x8) || c == 0xB || (c >= 0xE && c <= 0x1F) || c == 0x7F || c == 0x8F ||
        c == 0x9F) {
      continue;
    }
    switch (c) {
      case 0x9: case 0xA: case 0xC: case 0xD: case 0x1680: case 0x200B: case 0x200C: case 0x200D:
      case 0x200E: case 0x200F: case 0x2028: case 0x2029: case 0x2581: case 0xFEFF: case 0xFFFD:
        c = ' ';
        break;
      default:
        break;
    }
    append_utf8(&out, c);
  }
  return out;
}

// ---- Precompiled -----------------------------------------------------------------------------

Result<std::unique_ptr<Normalizer>> PrecompiledNormalizer::create(std::string blob) {
  if (blob.size() < 4) {
    return make_error(ErrorCode::kParse, "Precompiled normalizer: charsmap too short");
  }
  uint32_t trie_bytes;
  std::memcpy(&trie_bytes, blob.data(), 4);
  if (trie_bytes % 4 != 0 || 4 + static_cast<size_t>(trie_bytes) > blob.size()) {
    return make_error(ErrorCode::kParse, "Precompiled normalizer: corrupt charsmap");
  }
  std::unique_ptr<PrecompiledNormalizer> n(new PrecompiledNormalizer());
  n->trie_.resize(trie_bytes / 4);
  if (trie_bytes > 0) std::memcpy(n->trie_.data(), blob.data() + 4, trie_bytes);
  n->normalized_ = blob.substr(4 + trie_bytes);
  return std::unique_ptr<Normalizer>(std::move(n));
}

const char* PrecompiledNormalizer::transform(std::string_view key, size_t* len) const {
  // Darts-clone double array: first (shortest) prefix hit wins, as in HF's spm_precompiled.
  auto offset = [](uint32_t u) { return (u >> 10) << ((u & (1u << 9)) >> 6); };
  auto label = [](uint32_t u) { return u & ((1u << 31) | 0xFF); };
  auto has_leaf = [](uint32_t u) { return ((u >> 8) & 1) == 1; };
  if (trie_.empty()) return nullptr;
  size_t pos = 0;
  uint32_t unit = trie_[0];
  pos ^= offset(unit);
  for (size_t i = 0; i < key.size(); ++i) {
    auto c = static_cast<unsigned char>(key[i]);
    if (c == 0) break;
    pos ^= c;
    if (pos >= trie_.size()) return nullptr;
    unit = trie_[pos];
    if (label(unit) != c) return nullptr;
    pos ^= offset(unit);
    if (pos >= trie_.size()) return nullptr;
    if (has_leaf(unit)) {
      size_t v = trie_[pos] & ((1u << 31) - 1);
      if (v >= normalized_.size()) return nullptr;
      *len = i + 1;
      return normalized_.c_str() + v;
    }
  }
  return nullptr;
}

std::string PrecompiledNormalizer::normalize(std::string_view text) const {
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    // One extended grapheme cluster [i, j).
    size_t j = i;
    utf8proc_int32_t state = 0;
    char32_t prev = next_code_point(text, &j);
    while (j < text.size()) {
      size_t k = j;
      char32_t c = next_code_point(text, &k);
      if (utf8proc_grapheme_break_stateful(static_cast<utf8proc_int32_t>(prev),
                                           static_cast<utf8proc_int32_t>(c), &state)) {
        break;
      }
      prev = c;
      j = k;
    }
    std::string_view g = text.substr(i, j - i);
    size_t len = 0;
    const char* norm = g.size() < 6 ? transform(g, &len) : nullptr;
    if (norm) {
      out += norm;
    } else {
      for (size_t p = 0; p < g.size();) {
        size_t q = p;
        next_code_point(g, &q);
        const char* n = transform(g.substr(p, q - p), &len);
        if (n) {
          out += n;
        } else {
          out.append(g.substr(p, q - p));
        }
        p = q;
      }
    }
    i = j;
  }
  return out;
}

}  // namespace servebench::tokenizer
