// Fuzz target for SseParser: the events must not depend on how the bytes are split, and must
// equal the naive whole-buffer reference parser's. The first input byte picks the split sizes.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "transport/sse_parser.h"
#include "unit/transport/sse_reference.h"

namespace {

using servebench::testing::RefEvent;

std::vector<RefEvent> parse_in_pieces(std::string_view all, uint32_t seed) {
  servebench::transport::SseParser parser;
  std::vector<RefEvent> got;
  auto sink = [&](const servebench::transport::SseEvent& ev) {
    got.push_back({std::string(ev.event), std::string(ev.data)});
  };
  uint32_t state = seed * 2654435761u + 1;
  size_t pos = 0;
  while (pos < all.size()) {
    state = state * 1103515245u + 12345u;
    size_t n = seed == 0 ? all.size() : 1 + (state >> 16) % (seed % 37 + 1);
    if (n > all.size() - pos) n = all.size() - pos;
    // Copy the piece so views into an earlier piece cannot survive by accident.
    std::string piece(all.substr(pos, n));
    parser.feed(piece, 0, sink);
    pos += n;
  }
  parser.finish(0, sink);
  return got;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint32_t seed = data[0];
  std::string_view body(reinterpret_cast<const char*>(data) + 1, size - 1);
  const std::vector<RefEvent> expected = servebench::testing::reference_sse_parse(body);
  if (parse_in_pieces(body, 0) != expected) std::abort();
  if (parse_in_pieces(body, seed | 1) != expected) std::abort();
  return 0;
}
