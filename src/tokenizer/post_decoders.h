// Post-processors (special-token templates) and decoders of the tokenizer.json pipeline.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "tokenizer/pipeline.h"
#include "tokenizer/unicode.h"

namespace servebench::tokenizer {

// TemplateProcessing's single template, Bert/RobertaProcessing: ids before and after the text.
class WrapPostProcessor final : public PostProcessor {
 public:
  WrapPostProcessor(std::vector<TokenId> prefix, std::vector<TokenId> suffix)
      : prefix_(std::move(prefix)), suffix_(std::move(suffix)) {}
  void process(std::vector<TokenId>* ids, bool add_special_tokens) const override;

 private:
  std::vector<TokenId> prefix_, suffix_;
};

class SequencePostProcessor final : public PostProcessor {
 public:
  explicit SequencePostProcessor(std::vector<std::unique_ptr<PostProcessor>> steps)
      : steps_(std::move(steps)) {}
  void process(std::vector<TokenId>* ids, bool add_special_tokens) const override {
    for (const auto& s : steps_) s->process(ids, add_special_tokens);
  }

 private:
  std::vector<std::unique_ptr<PostProcessor>> steps_;
};

// ByteLevel post-processing only trims offsets: ids are unchanged.
class NoopPostProcessor final : public PostProcessor {
 public:
  void process(std::vector<TokenId>*, bool) const override {}
};

class SequenceDecoder final : public Decoder {
 public:
  explicit SequenceDecoder(std::vector<std::unique_ptr<Decoder>> steps) : steps_(std::move(steps)) {}
  void decode_chain(std::vector<std::string>* tokens) const override {
    for (const auto& s : steps_) s->decode_chain(tokens);
  }

 private:
  std::vector<std::unique_ptr<Decoder>> steps_;
};

class ByteLevelDecoder final : public Decoder {
 public:
  void decode_chain(std::vector<std::string>* tokens) const override;
};

class MetaspaceDecoder final : public Decoder {
 public:
  MetaspaceDecoder(std::string replacement, bool strip_first_space)
      : replacement_(std::move(replacement)), strip_first_(strip_first_space) {}
  void decode_chain(std::vector<std::string>* tokens) const override;

 private:
  std::string replacement_;
  bool strip_first_;
};

class WordPieceDecoder final : public Decoder {
 public:
  WordPieceDecoder(std::string prefix, bool cleanup) : prefix_(std::move(prefix)), cleanup_(cleanup) {}
  void decode_chain(std::vector<std::string>* tokens) const override;

 private:
  std::string prefix_;
  bool cleanup_;
};

class ByteFallbackDecoder final : public Decoder {
 public:
  void decode_chain(std::vector<std::string>* tokens) const override;
};

class FuseDecoder final : public Decoder {
 public:
  void decode_chain(std::vector<std::string>* tokens) const override;
};

class StripDecoder final : public Decoder {
 public:
  StripDecoder(std::string content, size_t start, size_t stop)
      : content_(std::move(content)), start_(start), stop_(stop) {}
  void decode_chain(std::vector<std::string>* tokens) const override;

 private:
  std::string content_;  // one character
  size_t start_, stop_;
};

class ReplaceDecoder final : public Decoder {
 public:
  ReplaceDecoder(std::shared_ptr<const Regex> regex, std::string literal, std::string content)
      : regex_(std::move(regex)), literal_(std::move(literal)), content_(std::move(content)) {}
  void decode_chain(std::vector<std::string>* tokens) const override;

 private:
  std::shared_ptr<const Regex> regex_;
  std::string literal_, content_;
};

// BPEDecoder: the end-of-word suffix becomes a space (except on the last token).
class BpeSuffixDecoder final : public Decoder {
 public:
  explicit BpeSuffixDecoder(std::string suffix) : suffix_(std::move(suffix)) {}
  void decode_chain(std::vector<std::string>* tokens) const override;

 private:
  std::string suffix_;
};

}  // namespace servebench::tokenizer
