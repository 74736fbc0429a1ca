// Token counting and deterministic output text for servebench-mock.
//
// TokenCounter: how the mock counts prompt tokens (and checks its own output).
//   Without --tokenizer: the documented simple rule, prompt tokens = number of whitespace-
//   separated words of each message's text (space, tab, CR, LF, FF, VT separate words).
//   With --tokenizer SPEC: the same library and spec syntax as the client (exact counts).
//
// OutputText: the output vocabulary and the word sequence responses are cut from. The corpus
// (data/corpus/mobydick.txt) is checked against its SHA256SUMS entry at start; its words
// (letters only, lowercased) that are in the vocabulary form a fixed sequence, and a response
// is `count` consecutive entries of it from a seeded start, each a " word" piece. Every piece is
// one token and pieces never merge, so the concatenated output re-tokenizes to exactly `count`
// tokens. With a tokenizer, the vocabulary is mock_word_list() filtered to words that this
// tokenizer proves to be single, non-merging tokens, and a sample output is verified at load.
// Tokenizers that prepend a space marker to the whole text (SentencePiece Metaspace, e.g.
// Llama-2/Mistral) count a leading space as an extra token; for them the first piece of each
// text (content, and reasoning) is sent without its space, as a real server's detokenizer does.
// Without --tokenizer the leading space stays: exact for byte-level BPE (GPT-2, cl100k, o200k,
// Llama-3, Qwen, DeepSeek) and Gemma; a Metaspace tokenizer sees one extra token per text.
//
// Thread safety: both types are immutable after construction; all methods are const.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace servebench::mock {

class TokenCounter {
 public:
  virtual ~TokenCounter() = default;
  virtual int64_t count(std::string_view text) const = 0;
  virtual std::string name() const = 0;
};

// The whitespace-word rule.
std::unique_ptr<TokenCounter> make_word_counter();

// Loads a real tokenizer (only when built with the tokenizer library; otherwise an error that
// says so). Errors are one line naming the spec.
Result<std::unique_ptr<TokenCounter>> make_tokenizer_counter(const std::string& spec);

// Hex SHA256 of a file's bytes.
Result<std::string> sha256_file_hex(const std::string& path);

class OutputText {
 public:
  // Loads and checks `corpus_path` (its SHA256SUMS must sit next to it). `tokenizer` is null for
  // the word rule (no filtering needed: the list is single-token by construction).
  static Result<OutputText> load(const std::string& corpus_path, const TokenCounter* tokenizer);
  // The vendored corpus embedded in the binary (data/corpus/mobydick.txt, hashed at build time):
  // the default, so an installed or copied servebench-mock reads no data file.
  static Result<OutputText> load_embedded(const TokenCounter* tokenizer);

  // Appends `count` pieces starting at sequence position `start` (wrapping around).
  // `starts_text`: these pieces begin a text the client will count on its own.
  void append(uint64_t start, int64_t count, std::string* out, bool starts_text = false) const;
  bool strips_first_space() const { return strip_first_space_; }
  size_t sequence_size() const { return sequence_.size(); }
  const std::vector<std::string>& vocabulary() const { return vocabulary_; }

 private:
  std::vector<std::string> vocabulary_;
  std::vector<uint16_t> sequence_;  // indexes into vocabulary_
  bool strip_first_space_ = false;

  static Result<std::string> read_checked(const std::string& corpus_path);
  static Result<OutputText> from_text(std::string_view corpus, const std::string& what,
                                      const TokenCounter* tokenizer);
};

}  // namespace servebench::mock
