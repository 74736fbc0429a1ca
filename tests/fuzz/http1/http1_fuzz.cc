// Fuzz target for Http1ResponseParser: any bytes, fed whole and then in pieces whose sizes the
// input's first bytes choose, must give what the Boost.Beast parser it replaced gives (whether
// the response completes; then its status, body, keep-alive and the bytes it used), and the same
// result for both feedings. Never a crash.
#include "unit/transport/beast_response_oracle.h"  // first: it configures Boost's asserts

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "transport/http1_response_parser.h"

namespace {

using servebench::transport::Http1ResponseParser;

struct Collect : Http1ResponseParser::Sink {
  int status = 0;
  int headers = 0;
  std::string body;
  void on_response_headers(int s) override {
    status = s;
    ++headers;
  }
  void on_response_body(std::string_view b) override { body.append(b); }
};

struct Outcome {
  bool done = false;
  int status = 0, headers = 0;
  std::string body;
  bool keep_alive = false;
  size_t consumed = 0;
  bool operator==(const Outcome&) const = default;
};

template <class Parser>
Outcome run(std::string_view input, const std::vector<size_t>& pieces) {
  Parser p;
  Collect c;
  p.start(&c);
  Outcome o;
  size_t at = 0;
  for (size_t k = 0; at < input.size(); ++k) {
    const size_t n = pieces.empty() ? input.size() : std::min(pieces[k % pieces.size()], input.size() - at);
    const std::string piece(input.substr(at, n));
    at += n;
    std::string err;
    const size_t used = p.feed(piece, &err);
    if (!err.empty()) return {};
    o.consumed += used;
    if (p.done()) break;
  }
  if (!p.done() && !p.feed_eof()) return {};
  o.done = true;
  o.status = c.status;
  o.headers = c.headers;
  o.body = c.body;
  o.keep_alive = p.keep_alive();
  return o;
}

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
  const Outcome whole = run<Http1ResponseParser>(input, {});
  check(whole == run<servebench::transport::testing::BeastResponseOracle>(input, {}));
  if (!pieces.empty()) {
    const Outcome split = run<Http1ResponseParser>(input, pieces);
    check(split == run<servebench::transport::testing::BeastResponseOracle>(input, pieces));
    check(split == whole);
  }
  return 0;
}
