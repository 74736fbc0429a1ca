// Normalizers of the tokenizer.json pipeline (HF `normalizers` module).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "tokenizer/pipeline.h"
#include "tokenizer/unicode.h"

namespace servebench::tokenizer {

class SequenceNormalizer final : public Normalizer {
 public:
  explicit SequenceNormalizer(std::vector<std::unique_ptr<Normalizer>> steps)
      : steps_(std::move(steps)) {}
  std::string normalize(std::string_view text) const override;

 private:
  std::vector<std::unique_ptr<Normalizer>> steps_;
};

class UnicodeNormalizer final : public Normalizer {
 public:
  explicit UnicodeNormalizer(NormalForm form) : form_(form) {}
  std::string normalize(std::string_view text) const override { return normalize_form(text, form_); }

 private:
  NormalForm form_;
};

class LowercaseNormalizer final : public Normalizer {
 public:
  std::string normalize(std::string_view text) const override { return to_lower_rust(text); }
};

class StripNormalizer final : public Normalizer {
 public:
  StripNormalizer(bool left, bool right) : left_(left), right_(right) {}
  std::string normalize(std::string_view text) const override;

 private:
  bool left_, right_;
};

// Removes combining marks (General_Category M); HF pairs it with NFD.
class StripAccentsNormalizer final : public Normalizer {
 public:
  std::string normalize(std::string_view text) const override;
};

// Replace: a literal string or a regex, every occurrence, by `content`.
class ReplaceNormalizer final : public Normalizer {
 public:
  ReplaceNormalizer(std::shared_ptr<const Regex> regex, std::string literal, std::string content)
      : regex_(std::move(regex)), literal_(std::move(literal)), content_(std::move(content)) {}
  std::string normalize(std::string_view text) const override;

 private:
  std::shared_ptr<const Regex> regex_;  // null: literal_
  std::string literal_;
  std::string content_;
};

// Prepend: prefixes non-empty text.
class PrependNormalizer final : public Normalizer {
 public:
  explicit PrependNormalizer(std::string prefix) : prefix_(std::move(prefix)) {}
  std::string normalize(std::string_view text) const override {
    return text.empty() ? std::string() : prefix_ + std::string(text);
  }

 private:
  std::string prefix_;
};

class BertNormalizer final : public Normalizer {
 public:
  BertNormalizer(bool clean_text, bool handle_chinese_chars, bool strip_accents, bool lowercase)
      : clean_text_(clean_text),
        handle_chinese_chars_(handle_chinese_chars),
        strip_accents_(strip_accents),
        lowercase_(lowercase) {}
  std::string normalize(std::string_view text) const override;

 private:
  bool clean_text_, handle_chinese_chars_, strip_accents_, lowercase_;
};

// Nmt: SentencePiece's NMT cleanup (drops some controls, maps odd spaces to ' ').
class NmtNormalizer final : public Normalizer {
 public:
  std::string normalize(std::string_view text) const override;
};

// Precompiled: SentencePiece's precompiled charsmap (a Darts double-array trie over UTF-8 plus
// replacement strings), applied per grapheme cluster as HF does.
class PrecompiledNormalizer final : public Normalizer {
 public:
  static Result<std::unique_ptr<Normalizer>> create(std::string blob);
  std::string normalize(std::string_view text) const override;

 private:
  // Longest match of the trie at text; returns the replacement or nullptr, *len the match length.
  const char* transform(std::string_view text, size_t* len) const;
  std::vector<uint32_t> trie_;
  std::string normalized_;
};

}  // namespace servebench::tokenizer
