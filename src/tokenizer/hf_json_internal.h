// Shared by hf_json.cc (model, added tokens, loading) and hf_json_pipeline.cc (normalizers,
// pre-tokenizers, decoders, post-processors): simdjson helpers and the component parsers.
// Internal to the tokenizer module; simdjson stays inside its .cc files.
#pragma once

#include <simdjson.h>

#include <memory>
#include <string>

#include "tokenizer/hf_tokenizer.h"
#include "tokenizer/normalizers.h"
#include "tokenizer/post_decoders.h"
#include "tokenizer/pre_tokenizers.h"

namespace servebench::tokenizer::hf_json {

using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::object;

template <class T>
using R = Result<T>;

// Ids index dense tables: anything this large is a corrupt file, not a vocabulary.
inline constexpr uint64_t kMaxTokenId = 1u << 24;

inline std::string str_or(element e, const char* key, std::string def) {
  std::string_view v;
  if (e[key].get(v) == simdjson::SUCCESS) return std::string(v);
  return def;
}
inline bool bool_or(element e, const char* key, bool def) {
  bool v;
  if (e[key].get(v) == simdjson::SUCCESS) return v;
  return def;
}
inline bool is_null_or_missing(element e, const char* key) {
  element v;
  return e[key].get(v) != simdjson::SUCCESS || v.is_null();
}
inline tl::unexpected<Error> bad(const std::string& what) {
  return make_error(ErrorCode::kParse, "tokenizer.json: " + what);
}
inline tl::unexpected<Error> unsupported(const std::string& kind, const std::string& type) {
  return make_error(ErrorCode::kUnsupported,
                    "tokenizer.json: " + kind + " '" + type + "' is not supported by servebench");
}

// Each parses one tokenizer.json component object; unknown types are an error naming them.
R<std::unique_ptr<Normalizer>> parse_normalizer(element e);
// `byte_level` is set when the chain contains a ByteLevel pre-tokenizer (which must come last).
R<std::unique_ptr<PreTokenizer>> parse_pre_tokenizer(element e, bool* byte_level, bool last);
R<std::unique_ptr<Decoder>> parse_decoder(element e);
R<std::unique_ptr<PostProcessor>> parse_post_processor(element e);

}  // namespace servebench::tokenizer::hf_json
