// Fuzz target for the encoders: any bytes encode to valid ids under builtin (o200k) and small
// BPE (byte fallback), Unigram and WordPiece pipelines; builtin round-trips valid UTF-8 exactly.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tokenizer/hf_tokenizer.h"
#include "tokenizer/unicode.h"

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

const std::vector<std::shared_ptr<const servebench::tokenizer::Tokenizer>>& tokenizers() {
  using namespace servebench::tokenizer;
  static const auto list = [] {
    std::vector<std::shared_ptr<const Tokenizer>> v;
    v.push_back(*load_tokenizer("builtin"));
    const char* docs[] = {
        // SentencePiece-style BPE with byte fallback and fused unk.
        R"({"normalizer":{"type":"Sequence","normalizers":[{"type":"Prepend","prepend":"▁"},{"type":"Replace","pattern":{"String":" "},"content":"▁"}]},
            "model":{"type":"BPE","unk_token":"<unk>","fuse_unk":true,"byte_fallback":true,
            "vocab":{"<unk>":0,"▁":1,"a":2,"b":3,"▁a":4,"ab":5,"<0x41>":6,"<0xE6>":7},"merges":["▁ a","a b"]}})",
        // Unigram with Metaspace.
        R"({"pre_tokenizer":{"type":"Metaspace","replacement":"▁","prepend_scheme":"first","split":true},
            "decoder":{"type":"Metaspace","replacement":"▁","prepend_scheme":"first","split":true},
            "model":{"type":"Unigram","unk_id":0,"byte_fallback":true,"vocab":[["<unk>",0],["▁",-2],["a",-3],["▁a",-1.5],["b",-3],["<0x41>",-5]]}})",
        // WordPiece with the BERT pipeline.
        R"({"normalizer":{"type":"BertNormalizer","lowercase":true},"pre_tokenizer":{"type":"BertPreTokenizer"},
            "post_processor":{"type":"BertProcessing","sep":["[SEP]",2],"cls":["[CLS]",1]},"decoder":{"type":"WordPiece","prefix":"##"},
            "model":{"type":"WordPiece","unk_token":"[UNK]","vocab":{"[UNK]":0,"[CLS]":1,"[SEP]":2,"a":3,"##b":4,"!":5}}})",
    };
    for (const char* d : docs) {
      auto t = parse_tokenizer_json(d, "fuzz-seed");
      if (!t) std::abort();
      v.push_back(*t);
    }
    return v;
  }();
  return list;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace servebench::tokenizer;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto& list = tokenizers();
  for (size_t i = 0; i < list.size(); ++i) {
    const Tokenizer& t = *list[i];
    auto ids = t.encode(text, i % 2 == 1);
    for (TokenId id : ids) check(id < t.vocab_size());
    std::string back = t.decode(ids, false);
    if (i == 0 && is_valid_utf8(text)) check(back == text);
  }
  return 0;
}
