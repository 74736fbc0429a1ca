// HfTokenizer: the Hugging Face tokenizer.json pipeline (added tokens -> normalizer ->
// pre-tokenizer -> model -> post-processor; decoder for decode), assembled from parts.
//
// Thread safety: immutable after construction; encode/decode are const and re-entrant.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "tokenizer/added_vocab.h"
#include "tokenizer/models.h"
#include "tokenizer/pipeline.h"

namespace servebench::tokenizer {

struct HfParts {
  std::unique_ptr<Normalizer> normalizer;
  std::unique_ptr<PreTokenizer> pre_tokenizer;
  std::unique_ptr<Model> model;
  std::unique_ptr<PostProcessor> post_processor;
  std::unique_ptr<Decoder> decoder;
  std::vector<AddedToken> added_tokens;
  std::string name;
};

class HfTokenizer final : public Tokenizer {
 public:
  explicit HfTokenizer(HfParts parts);
  std::vector<TokenId> encode(std::string_view text, bool add_special_tokens) const override;
  // encode(text, false).size(), into a per-thread scratch vector (no allocation per call).
  size_t count(std::string_view text) const override;
  std::string decode(const std::vector<TokenId>& ids, bool skip_special_tokens) const override;
  std::string name() const override { return name_; }
  size_t vocab_size() const override { return vocab_size_; }
  bool is_added_token(TokenId id) const override { return added_.by_id(id) != nullptr; }
  // Token spelling of an id (added tokens first), or nullptr.
  const std::string* id_to_token(TokenId id) const;

 private:
  void encode_into(std::string_view text, std::vector<TokenId>* ids) const;
  // UTF-8 sanitizing, encode_into and the post-processor: encode()'s body, appending to *ids.
  void encode_checked(std::string_view text, bool add_special_tokens,
                      std::vector<TokenId>* ids) const;
  std::unique_ptr<Normalizer> normalizer_;
  std::unique_ptr<PreTokenizer> pre_tokenizer_;
  std::unique_ptr<Model> model_;
  std::unique_ptr<PostProcessor> post_processor_;
  std::unique_ptr<Decoder> decoder_;
  AddedVocabulary added_;
  std::string name_;
  size_t vocab_size_ = 0;
};

// Parses a tokenizer.json document. `name` labels the tokenizer and error messages.
Result<std::shared_ptr<const Tokenizer>> parse_tokenizer_json(std::string_view json,
                                                              const std::string& name);
// Reads and parses a tokenizer.json file.
Result<std::shared_ptr<const Tokenizer>> load_tokenizer_json_file(const std::string& path);

}  // namespace servebench::tokenizer
