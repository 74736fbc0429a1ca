// Fuzz target for Http1ResponseParser: any bytes, fed whole and then in pieces whose sizes the
// input's first bytes choose, must give what the Boost.Beast parser it replaced gives (whether
// the response completes; then its status, body, keep-alive and the bytes it used), and the same
// result for both feedings. Never a crash.
#include "unit/transport/beast_response_oracle.h"  // first: it configures Boost's asserts

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "transport/http1_response_parser.h"
#include "unit/transport/http1_outcome.h"

namespace {

using servebench::transport::Http1ResponseParser;
using servebench::transport::testing::BeastResponseOracle;
using servebench::transport::testing::feed_response;

void check(bool ok) {
  if (!ok) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // First byte: how many piece sizes follow (0-3), each one byte (1-256).
  std::vector<size_t> pieces;
  size_t skip = 0;
  if (size > 0) {
    const size_t count = data[0] % 4;
    skip = 1;
    for (size_t i = 0; i < count && skip < size; ++i, ++skip) pieces.push_back(size_t{data[skip]} + 1);
  }
  const std::string_view input(reinterpret_cast<const char*>(data) + skip, size - skip);
  const auto whole = feed_response<Http1ResponseParser>(input, {});
  check(whole == feed_response<BeastResponseOracle>(input, {}));
  if (!pieces.empty()) {
    std::vector<size_t> cuts;  // the piece sizes, repeated, as offsets
    for (size_t at = 0, k = 0; at < input.size(); ++k) cuts.push_back(at += pieces[k % pieces.size()]);
    const auto split = feed_response<Http1ResponseParser>(input, cuts);
    check(split == feed_response<BeastResponseOracle>(input, cuts));
    check(split == whole);
  }
  return 0;
}
