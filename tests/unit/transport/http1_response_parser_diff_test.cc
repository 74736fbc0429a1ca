// Http1ResponseParser against the Boost.Beast parser it replaced: generated responses (every
// framing, 1xx interim heads, obsolete line folding, chunk extensions, trailers, HTTP/1.0 and
// 1.1 keep-alive rules), fed whole, in random splits and byte by byte, and the same responses
// with random byte mutations. Both parsers must agree on whether a response completes and, when
// it does, on its status, body, keep-alive and the bytes it used.
#include "beast_response_oracle.h"  // first: it configures Boost's asserts

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "http1_outcome.h"
#include "transport/http1_response_parser.h"

namespace servebench::transport {
namespace {

using testing::ResponseOutcome;

class Gen {
 public:
  explicit Gen(uint64_t seed) : rng_(seed) {}
  size_t below(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng_); }
  bool chance(int percent) { return below(100) < static_cast<size_t>(percent); }
  template <class T>
  const T& pick(const std::vector<T>& v) { return v[below(v.size())]; }

  std::string ows() { return pick<std::string>({"", "", " ", "  ", "\t", " \t "}); }
  std::string text(size_t max) {
    static const std::string alphabet = "abcXYZ019 -_/.:;=\"\t\x80\xc3\xa9{}";
    std::string s;
    for (size_t n = below(max + 1); n > 0; --n) s += alphabet[below(alphabet.size())];
    return s;
  }
  std::string body_bytes(size_t max) {
    std::string s;
    for (size_t n = below(max + 1); n > 0; --n) s += static_cast<char>(below(256));
    if (chance(50)) s = "data: {\"choices\":[{\"delta\":{\"content\":\"" + text(20) + "\"}}]}\n\n" + s;
    return s;
  }
  // A field line; `fold` lets its value continue on a folded line (not for framing fields, whose
  // values must stay exact).
  std::string field(const std::string& name, const std::string& value, bool fold = false) {
    std::string v = ows() + value + ows();
    if (fold && chance(10)) v += "\r\n" + pick<std::string>({" ", "\t", "  "}) + text(10);
    return name + ":" + v + "\r\n";
  }
  std::string case_of(std::string s) {
    for (char& c : s) {
      if (chance(30) && c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    }
    return s;
  }
  std::string chunk_ext() {
    if (!chance(25)) return "";
    return pick<std::string>({";a", ";a=b", " ;n=v", ";x=\"q \\\" y\"", "; k = v ;z", ";A=1;B"});
  }
  std::string trailers() {
    std::string t;
    for (size_t n = chance(30) ? below(3) + 1 : 0; n > 0; --n) t += field("X-Trailer-" + std::to_string(n), text(8));
    return t;
  }

  // One response: optional interim heads, a head with one framing, its body.
  std::string response() {
    std::string r;
    for (size_t n = chance(10) ? below(2) + 1 : 0; n > 0; --n) {
      r += pick<std::string>({"HTTP/1.1 100 Continue\r\n\r\n", "HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n"});
    }
    const bool http11 = !chance(15);
    const int status = pick<int>({200, 200, 200, 201, 204, 304, 400, 404, 429, 500, 503, 99});
    char code[4];
    std::snprintf(code, sizeof code, "%03d", status);
    r += std::string(http11 ? "HTTP/1.1 " : "HTTP/1.0 ") + code + " " + text(12) + "\r\n";
    std::vector<std::string> fields = {field("Content-Type", "text/event-stream", true),
                                       field("Server", text(10), true), field("X-Request-Id", text(16), true)};
    if (chance(40)) {
      fields.push_back(field(case_of(chance(80) ? "connection" : "proxy-connection"),
                             pick<std::string>({"close", "keep-alive", "Keep-Alive, Upgrade", "upgrade", ", close ,"})));
    }
    const std::string body = body_bytes(300);
    std::string encoded = body;
    switch (below(4)) {
      case 0: {  // Content-Length, maybe as a list or repeated
        const std::string n = std::to_string(body.size());
        fields.push_back(field(case_of("content-length"), chance(10) ? n + ", " + n : n));
        if (chance(10)) fields.push_back(field("Content-Length", n));
        break;
      }
      case 1: {  // chunked
        fields.push_back(field(case_of("transfer-encoding"), pick<std::string>({"chunked", "gzip, chunked", "Chunked"})));
        encoded.clear();
        for (size_t at = 0; at < body.size();) {
          const size_t n = std::min(body.size() - at, below(80) + 1);
          char hex[32];
          std::snprintf(hex, sizeof hex, chance(50) ? "%zx" : "%zX", n);
          encoded += std::string(chance(10) ? "00" : "") + hex + chunk_ext() + "\r\n" + body.substr(at, n) + "\r\n";
          at += n;
        }
        encoded += std::string(chance(20) ? "000" : "0") + chunk_ext() + "\r\n" + trailers() + "\r\n";
        break;
      }
      case 2:  // a coding that is not chunked: the body runs until close
        fields.push_back(field("Transfer-Encoding", pick<std::string>({"gzip", "chunked, gzip"})));
        break;
      default:  // no framing field: until close
        break;
    }
    for (size_t i = fields.size(); i > 1; --i) std::swap(fields[i - 1], fields[below(i)]);
    for (const std::string& f : fields) r += f;
    return r + "\r\n" + encoded;
  }

  std::vector<size_t> cuts(size_t size) {
    std::vector<size_t> c;
    if (chance(10)) {  // byte by byte
      for (size_t i = 1; i < size; ++i) c.push_back(i);
      return c;
    }
    for (size_t n = below(5); n > 0; --n) c.push_back(below(size + 1));
    std::sort(c.begin(), c.end());
    return c;
  }

  std::string mutate(std::string s) {
    static const std::string interesting = "\r\n \t:;,\"\\0aF\x7f\x80";
    for (size_t n = below(3) + 1; n > 0 && !s.empty(); --n) {
      const size_t at = below(s.size());
      switch (below(4)) {
        case 0: s[at] = interesting[below(interesting.size())]; break;
        case 1: s.insert(at, 1, interesting[below(interesting.size())]); break;
        case 2: s.erase(at, 1); break;
        default: s[at] = static_cast<char>(below(256)); break;
      }
    }
    return s;
  }

 private:
  std::mt19937_64 rng_;
};

void expect_same(const std::string& input, const std::vector<size_t>& cuts, int* completed) {
  const ResponseOutcome mine = testing::feed_response<Http1ResponseParser>(input, cuts);
  const ResponseOutcome beast = testing::feed_response<testing::BeastResponseOracle>(input, cuts);
  ASSERT_EQ(mine, beast) << "input (" << input.size() << " bytes): " << ::testing::PrintToString(input);
  if (mine.done) ++*completed;
}

TEST(Http1ResponseParserDiff, GeneratedResponsesAgreeInEverySplit) {
  Gen g(20261203);
  int completed = 0;
  for (int i = 0; i < 4000; ++i) {
    std::string r = g.response();
    if (g.chance(20)) r += "HTTP/1.1 200 OK\r\n";  // the next response's first bytes
    expect_same(r, {}, &completed);
    expect_same(r, g.cuts(r.size()), &completed);
    if (HasFatalFailure()) return;
  }
  EXPECT_EQ(completed, 8000);  // every generated response is well formed
}

// Hand-picked edges the generator reaches rarely, each in every two-way split.
TEST(Http1ResponseParserDiff, EdgeCasesAgree) {
  const std::string chunked = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n";
  const std::vector<std::string> cases = {
      chunked + "\r\n3\r\nabc\n0\r\n\r\n",                     // chunk data ended by LF alone
      chunked + "\r\n3\r\nabc\n\n0\r\n\r\n",                   // by LF LF
      chunked + "\r\n3\r\nabc\r\r\n0\r\n\r\n",                 // by CR CR LF
      chunked + "\r\n3\r\nabcX\r\n0\r\n\r\n",                  // chunk longer than its size
      chunked + "\r\n3\rX\nabc\r\n0\r\n\r\n",                 // CR without LF in a chunk line
      chunked + "\r\n3 \r\nabc\r\n0\r\n\r\n",                 // BWS without an extension
      chunked + "\r\n3;a=\"x\\\"\r\n\"\r\nabc\r\n0\r\n\r\n",  // CR inside a quoted extension
      chunked + "\r\n3;a=\"\n\"\r\nabc\r\n0\r\n\r\n",             // LF inside a quoted extension
      chunked + "\r\nffffffffffffffffff\r\n",                     // chunk size overflow
      chunked + "\r\n0\r\nContent-Length: 0\r\n\r\n",           // Content-Length in the trailers
      chunked + "\r\n0\r\nTransfer-Encoding: chunked\r\n\r\n",  // Transfer-Encoding in the trailers
      chunked + "\r\n0\r\nConnection: close\r\n\r\n",           // close in the trailers
      chunked + "Content-Length: 3\r\n\r\nabc",                   // both framings, both orders
      "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
      "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: gzip\r\n\r\nabc",
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\nContent-Length: 3\r\n\r\nabc",
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip;q=1, chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked x\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
      "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd",
      "HTTP/1.1 200 OK\r\nContent-Length: 3,,3\r\n\r\nabc",
      "HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999\r\n\r\nabc",
      "HTTP/1.1 204 No Content\r\nContent-Length: 3\r\n\r\nabc",
      "HTTP/1.1 304 Not Modified\r\nTransfer-Encoding: chunked\r\n\r\n",
      "HTTP/1.1 100 Continue\r\nConnection: close\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n",
      "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 1\r\n\r\nx",
      "HTTP/1.0 200 OK\r\nConnection: close, keep-alive\r\nContent-Length: 1\r\n\r\nx",
      "HTTP/1.1 200 OK\r\nConnection: close;x\r\nContent-Length: 1\r\n\r\nx",
      "HTTP/1.1 200 OK\r\nX: a\r\n \r\n\tb\r\nContent-Length: 1\r\n\r\nx",  // folds, one empty
      "HTTP/1.1 200 OK\r\n Folded-First: a\r\nContent-Length: 1\r\n\r\nx",
      "HTTP/1.1 200 OK\r\nBad Name: a\r\nContent-Length: 1\r\n\r\nx",
      "HTTP/1.1 200 OK\r\n: no name\r\nContent-Length: 1\r\n\r\nx",
      "HTTP/1.1 200 OK\r\nX: a\x01b\r\nContent-Length: 1\r\n\r\nx",
      "HTTP/1.1 200 OK\nContent-Length: 1\r\n\r\nx",
      "HTTP/1.1 200\r\nContent-Length: 1\r\n\r\nx",
      "HTTP/1.1 200 \r\nContent-Length: 1\r\n\r\nx",
      "HTTP/2.0 200 OK\r\nContent-Length: 1\r\n\r\nx",
      "HTTP/1.1 20x OK\r\nContent-Length: 1\r\n\r\nx",
      "\r\nHTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nx",
      "HTTP/1.1 200 OK\r\n\r\nuntil close",
  };
  int completed = 0;
  for (const std::string& c : cases) {
    expect_same(c, {}, &completed);
    for (size_t a = 1; a < c.size(); ++a) expect_same(c, {a}, &completed);
    if (HasFatalFailure()) return;
  }
  EXPECT_GT(completed, 0);
}

TEST(Http1ResponseParserDiff, MutatedResponsesAgree) {
  Gen g(7);
  int completed = 0;
  for (int i = 0; i < 20000; ++i) {
    const std::string r = g.mutate(g.response());
    expect_same(r, g.cuts(r.size()), &completed);
    if (HasFatalFailure()) return;
  }
  // Most mutations land in bodies and leave the response well formed; the rest must be
  // exercised too.
  EXPECT_GT(completed, 4000);
  EXPECT_LT(completed, 19000);
}

}  // namespace
}  // namespace servebench::transport
