// Pipeline stage interfaces of the tokenizer.json model: normalizers, pre-tokenizers,
// post-processors and decoders. Offsets are not tracked (servebench needs ids and counts), only
// whether a piece starts at the original text's first byte (Metaspace's "first" scheme).
//
// Thread safety: every stage is immutable after construction; methods are const.
#pragma once

#include <forward_list>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tokenizer/tokenizer.h"

namespace servebench::tokenizer {

// A piece of text moving through pre-tokenization. Views point into the caller's text or into
// an Arena that outlives the encode call.
struct Piece {
  std::string_view text;
  bool at_origin = false;  // starts at offset 0 of the original input
};

// Owns strings produced while encoding one text (normalized or rewritten pieces).
class Arena {
 public:
  std::string_view keep(std::string s) {
    owned_.push_front(std::move(s));
    return owned_.front();
  }
  void clear() { owned_.clear(); }

 private:
  std::forward_list<std::string> owned_;  // stable addresses; no allocation until used
};

class Normalizer {
 public:
  virtual ~Normalizer() = default;
  virtual std::string normalize(std::string_view text) const = 0;
};

class PreTokenizer {
 public:
  virtual ~PreTokenizer() = default;
  // Replaces *pieces with their split; empty pieces are dropped.
  virtual void split(std::vector<Piece>* pieces, Arena* arena) const = 0;
};

class PostProcessor {
 public:
  virtual ~PostProcessor() = default;
  // Called for every encode; implementations only add tokens when add_special_tokens.
  virtual void process(std::vector<TokenId>* ids, bool add_special_tokens) const = 0;
};

class Decoder {
 public:
  virtual ~Decoder() = default;
  // Rewrites the token strings in place (HF's decode_chain); the result is their concatenation.
  virtual void decode_chain(std::vector<std::string>* tokens) const = 0;
};

}  // namespace servebench::tokenizer
