#include "transport/http1_response_parser.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "http1_outcome.h"

namespace servebench::transport {
namespace {

using Collect = testing::CollectSink;

struct Outcome {
  int status;
  int header_calls;
  std::string body;
  bool done;
  bool keep_alive;
  size_t consumed;  // bytes of the input that belonged to the response
  bool operator==(const Outcome&) const = default;
};

// Feeds `pieces` until the response completes; `eof` then signals the end of the connection.
Outcome parse(const std::vector<std::string>& pieces, bool eof = false) {
  Http1ResponseParser p;
  Collect c;
  p.start(&c);
  size_t consumed = 0;
  for (const std::string& piece : pieces) {
    std::string err;
    std::string copy = piece;
    size_t n = p.feed(copy, &err);
    EXPECT_TRUE(err.empty()) << err;
    consumed += n;
    if (p.done()) break;
  }
  if (eof && !p.done()) p.feed_eof();
  return {c.status, c.header_calls, c.body, p.done(), p.keep_alive(), consumed};
}

std::vector<std::string> split_at(const std::string& s, size_t a, size_t b) {
  return {s.substr(0, a), s.substr(a, b - a), s.substr(b)};
}

const std::string kChunked =
    "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
    "f\r\ndata: {\"a\":1}\n\n\r\n"
    "E;ext=1\r\ndata: [DONE]\n\n\r\n"
    "0\r\nX-Trailer: t\r\n\r\n";
const std::string kLength =
    "HTTP/1.1 404 Not Found\r\nContent-Length: 11\r\nConnection: keep-alive\r\n\r\nhello world";
const std::string kInterim = "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";

TEST(Http1ResponseParser, ChunkedBodyIsDechunked) {
  Outcome o = parse({kChunked});
  EXPECT_EQ(o.status, 200);
  EXPECT_EQ(o.body, "data: {\"a\":1}\n\ndata: [DONE]\n\n");
  EXPECT_TRUE(o.done);
  EXPECT_TRUE(o.keep_alive);
  EXPECT_EQ(o.consumed, kChunked.size());
}

TEST(Http1ResponseParser, ContentLengthAndNextResponseBytesLeftAlone) {
  Outcome o = parse({kLength + "HTTP/1.1 200 OK\r\n"});
  EXPECT_EQ(o.status, 404);
  EXPECT_EQ(o.body, "hello world");
  EXPECT_EQ(o.consumed, kLength.size());
  EXPECT_TRUE(o.keep_alive);
}

TEST(Http1ResponseParser, InterimResponseSkipped) {
  Outcome o = parse({kInterim});
  EXPECT_EQ(o.status, 200);
  EXPECT_EQ(o.header_calls, 1);
  EXPECT_EQ(o.body, "ok");
}

TEST(Http1ResponseParser, CloseDelimitedBodyCompletesAtEof) {
  const std::string r = "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nstream until close";
  Outcome o = parse({r});
  EXPECT_FALSE(o.done);
  Outcome e = parse({r}, /*eof=*/true);
  EXPECT_TRUE(e.done);
  EXPECT_FALSE(e.keep_alive);
  EXPECT_EQ(e.body, "stream until close");
}

TEST(Http1ResponseParser, TruncatedResponsesAreIncompleteAtEof) {
  EXPECT_FALSE(parse({kChunked.substr(0, kChunked.size() - 10)}, true).done);
  EXPECT_FALSE(parse({kLength.substr(0, kLength.size() - 1)}, true).done);
  EXPECT_FALSE(parse({"HTTP/1.1 200 OK\r\nContent-"}, true).done);
}

TEST(Http1ResponseParser, GarbageIsAnError) {
  Http1ResponseParser p;
  Collect c;
  p.start(&c);
  std::string err;
  EXPECT_EQ(p.feed("SSH-2.0-OpenSSH\r\n\r\n", &err), 0u);
  EXPECT_FALSE(err.empty());
}

// A head over 64 KiB is refused whether it arrives in one read or in pieces.
TEST(Http1ResponseParser, OversizedHeadIsAnError) {
  const std::string head = "HTTP/1.1 200 OK\r\nX-Big: " + std::string(70 * 1024, 'a') + "\r\nContent-Length: 0\r\n\r\n";
  for (size_t piece : {head.size(), size_t{4096}}) {
    Http1ResponseParser p;
    Collect c;
    p.start(&c);
    std::string err;
    for (size_t at = 0; at < head.size() && err.empty(); at += piece) p.feed(head.substr(at, piece), &err);
    EXPECT_FALSE(err.empty()) << piece;
    EXPECT_FALSE(p.done());
    EXPECT_EQ(c.header_calls, 0);
  }
}

TEST(Http1ResponseParser, ConnectionCloseHeaderDisablesKeepAlive) {
  Outcome o = parse({"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"});
  EXPECT_TRUE(o.done);
  EXPECT_FALSE(o.keep_alive);
}

// Property: every two-cut split gives the same outcome as the whole buffer.
TEST(Http1ResponseParser, EverySplitGivesTheSameResult) {
  for (const std::string& r : {kChunked, kLength, kInterim}) {
    const Outcome whole = parse({r});
    for (size_t a = 0; a <= r.size(); ++a) {
      for (size_t b = a; b <= r.size(); b += 3) {
        ASSERT_EQ(parse(split_at(r, a, b)), whole) << a << "," << b;
      }
    }
  }
}

TEST(Http1ResponseParser, FinalChunkSplitRightAfterItsLine) {
  // Found by fuzzing: Beast 1.74 asserted on this legal split (see http1_response_parser.cc).
  const std::string head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
  Outcome o = parse({head, "0\r\n", "X", "-T: 1\r\n", "\r\n"});
  EXPECT_TRUE(o.done);
  EXPECT_EQ(o.status, 200);
  EXPECT_EQ(o.body, "");
}

TEST(Http1ResponseParser, ReusableForTheNextResponse) {
  Http1ResponseParser p;
  Collect c1, c2;
  std::string err;
  p.start(&c1);
  p.feed(kLength, &err);
  ASSERT_TRUE(p.done());
  p.start(&c2);
  EXPECT_FALSE(p.done());
  p.feed(kChunked, &err);
  EXPECT_TRUE(p.done());
  EXPECT_EQ(c2.status, 200);
}

}  // namespace
}  // namespace servebench::transport
