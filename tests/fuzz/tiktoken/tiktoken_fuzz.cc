// Fuzz target for tiktoken rank files (tokenizer/tiktoken.h): any text either fails to parse
// with an error or gives ranks; small rank sets are built into a tokenizer, which either fails
// cleanly or encodes a fixed text into ids below its vocabulary size.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "tokenizer/tiktoken.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace servebench::tokenizer;
  if (size > 65536) return 0;
  auto ranks = parse_tiktoken_ranks(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!ranks || ranks->size() > 1024) return 0;
  auto tok = make_tiktoken(*ranks, TiktokenEncoding::kR50k, "fuzz");
  if (!tok) return 0;
  const auto ids = (*tok)->encode("Hello, w\xc3\xb6rld 123 !!  a ab", false);
  for (auto id : ids)
    if (static_cast<size_t>(id) >= (*tok)->vocab_size()) std::abort();  // ids are unsigned
  (void)(*tok)->decode(ids, false);
  return 0;
}
