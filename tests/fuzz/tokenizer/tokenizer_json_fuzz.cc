// Fuzz target for the tokenizer.json loader: any bytes give a tokenizer or an error, never a
// crash or hang; a loaded tokenizer encodes fixed probes and the input itself to ids inside its
// vocabulary, and decodes them without crashing.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "tokenizer/hf_tokenizer.h"

namespace {
void check(bool ok) {
  if (!ok) std::abort();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace servebench::tokenizer;
  std::string_view json(reinterpret_cast<const char*>(data), size);
  auto tok = parse_tokenizer_json(json, "fuzz.json");
  if (!tok) {
    check(!tok.error().message.empty());
    return 0;
  }
  const Tokenizer& t = **tok;
  const size_t vocab = t.vocab_size();
  const std::string_view probes[] = {"", "hello world", "  a\tb\nc  ", "日本語 😀 e\xCC\x81", "<s>x</s>",
                                     "\xFF\xFE invalid", json.substr(0, 256)};
  for (std::string_view p : probes) {
    for (bool special : {false, true}) {
      auto ids = t.encode(p, special);
      for (TokenId id : ids) check(id < vocab || vocab == 0);
      (void)t.decode(ids, false);
      (void)t.decode(ids, true);
    }
    check(t.count(p) == t.encode(p, false).size());
  }
  return 0;
}
