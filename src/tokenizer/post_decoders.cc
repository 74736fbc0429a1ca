#include "tokenizer/post_decoders.h"

#include "tokenizer/normalizers.h"

namespace servebench::tokenizer {

void WrapPostProcessor::process(std::vector<TokenId>* ids, bool add) const {
  if (!add) return;
  ids->insert(ids->begin(), prefix_.begin(), prefix_.end());
  ids->insert(ids->end(), suffix_.begin(), suffix_.end());
}

void ByteLevelDecoder::decode_chain(std::vector<std::string>* tokens) const {
  std::string bytes;
  for (const auto& t : *tokens) {
    for (size_t i = 0; i < t.size();) {
      size_t s = i;
      int b = unicode_to_byte(next_code_point(t, &i));
      if (b >= 0) {
        bytes.push_back(static_cast<char>(b));
      } else {
        bytes.append(t, s, i - s);  // HF keeps characters outside the byte alphabet
      }
    }
  }
  bool changed;
  tokens->assign(1, sanitize_utf8(bytes, &changed));
}

void MetaspaceDecoder::decode_chain(std::vector<std::string>* tokens) const {
  for (size_t i = 0; i < tokens->size(); ++i) {
    std::string out;
    const std::string& t = (*tokens)[i];
    size_t pos = 0;
    while (true) {
      size_t f = replacement_.empty() ? std::string::npos : t.find(replacement_, pos);
      if (f == std::string::npos) break;
      out.append(t, pos, f - pos);
      // HF drops every replacement character of the first token when a prefix was prepended.
      if (!(i == 0 && strip_first_)) out += ' ';
      pos = f + replacement_.size();
    }
    out.append(t, pos, std::string::npos);
    (*tokens)[i] = std::move(out);
  }
}

void WordPieceDecoder::decode_chain(std::vector<std::string>* tokens) const {
  for (size_t i = 0; i < tokens->size(); ++i) {
    std::string& t = (*tokens)[i];
    if (i != 0) {
      if (t.compare(0, prefix_.size(), prefix_) == 0) {
        t.erase(0, prefix_.size());
      } else {
        std::string spaced;
        spaced.reserve(t.size() + 1);
        spaced.push_back(' ');
        spaced.append(t);
        t.swap(spaced);
      }
    }
    if (cleanup_) {
      static const std::pair<const char*, const char*> kRules[] = {
          {" .", "."}, {" ?", "?"}, {" !", "!"}, {" ,", ","}, {" ' ", "'"}, {" n't", "n't"},
          {" 'm", "'m"}, {" do not", " don't"}, {" 's", "'s"}, {" 've", "'ve"}, {" 're", "'re"}};
      for (auto [from, to] : kRules) {
        t = ReplaceNormalizer(nullptr, from, to).normalize(t);
      }
    }
  }
}

void ByteFallbackDecoder::decode_chain(std::vector<std::string>* tokens) const {
  std::vector<std::string> out;
  std::string pending;
  size_t pending_count = 0;
  auto flush = [&] {
    if (pending_count == 0) return;
    if (is_valid_utf8(pending)) {
      out.push_back(pending);
    } else {
      for (size_t k = 0; k < pending_count; ++k) out.push_back("\xEF\xBF\xBD");
    }
    pending.clear();
    pending_count = 0;
  };
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  for (auto& t : *tokens) {
    if (t.size() == 6 && t.compare(0, 3, "<0x") == 0 && t[5] == '>' && hex(t[3]) >= 0 && hex(t[4]) >= 0) {
      pending.push_back(static_cast<char>(hex(t[3]) * 16 + hex(t[4])));
      ++pending_count;
    } else {
      flush();
      out.push_back(std::move(t));
    }
  }
  flush();
  tokens->swap(out);
}

void FuseDecoder::decode_chain(std::vector<std::string>* tokens) const {
  std::string all;
  for (const auto& t : *tokens) all += t;
  tokens->assign(1, std::move(all));
}

void StripDecoder::decode_chain(std::vector<std::string>* tokens) const {
  for (auto& t : *tokens) {
    size_t b = 0;
    for (size_t k = 0; k < start_ && t.compare(b, content_.size(), content_) == 0; ++k) {
      b += content_.size();
    }
    size_t e = t.size();
    for (size_t k = 0; k < stop_ && e >= b + content_.size() &&
                       t.compare(e - content_.size(), content_.size(), content_) == 0;
         ++k) {
      e -= content_.size();
    }
    t = t.substr(b, e - b);
  }
}

void ReplaceDecoder::decode_chain(std::vector<std::string>* tokens) const {
  ReplaceNormalizer r(regex_, literal_, content_);
  for (auto& t : *tokens) t = r.normalize(t);
}

void BpeSuffixDecoder::decode_chain(std::vector<std::string>* tokens) const {
  for (size_t i = 0; i < tokens->size(); ++i) {
    std::string& t = (*tokens)[i];
    std::string rep = i + 1 == tokens->size() ? "" : " ";
    t = ReplaceNormalizer(nullptr, suffix_, rep).normalize(t);
  }
}

}  // namespace servebench::tokenizer
