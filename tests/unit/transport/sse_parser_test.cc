#include "transport/sse_parser.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/rng.h"
#include "unit/transport/sse_reference.h"

namespace servebench::transport {
namespace {

using servebench::testing::RefEvent;
using servebench::testing::reference_sse_parse;

struct Got {
  std::string event;
  std::string data;
  int64_t recv_ns;
};

// Feeds `pieces` one by one (each copied into a fresh buffer so no view can outlive its feed),
// stamping feed i with recv_ns = 100 + i, then finishes with recv_ns = 999.
std::vector<Got> run(const std::vector<std::string>& pieces) {
  SseParser p;
  std::vector<Got> out;
  auto sink = [&](const SseEvent& ev) {
    out.push_back({std::string(ev.event), std::string(ev.data), ev.recv_ns});
  };
  int64_t t = 100;
  for (const std::string& piece : pieces) {
    std::string copy = piece;
    p.feed(copy, t++, sink);
    copy.assign(copy.size(), '#');  // poison: a view into it must already be consumed
  }
  p.finish(999, sink);
  return out;
}

std::vector<RefEvent> strip(const std::vector<Got>& got) {
  std::vector<RefEvent> r;
  for (const Got& g : got) r.push_back({g.event, g.data});
  return r;
}

std::vector<std::string> split_every(const std::string& s, size_t n) {
  std::vector<std::string> v;
  for (size_t i = 0; i < s.size(); i += n) v.push_back(s.substr(i, n));
  return v;
}

// A vLLM-style chat stream as recorded on the wire.
const std::string kVllmStream =
    "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,"
    "\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}]}\n\n"
    "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,"
    "\"delta\":{\"content\":\"Hello\"},\"finish_reason\":null}]}\n\n"
    "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,"
    "\"delta\":{\"content\":\" world\"},\"finish_reason\":\"stop\"}]}\n\n"
    "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"choices\":[],"
    "\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":2,\"total_tokens\":7}}\n\n"
    "data: [DONE]\n\n";

// Everything at once: CRLF, CR, comments, event names, multi-line data, id/retry, no-space.
const std::string kMixedStream =
    "\xEF\xBB\xBF: keep-alive comment\r\n"
    "id: 7\r\nretry: 100\r\n"
    "data: one\r\n\r\n"
    "event: error\rdata: {\"error\":\"x\"}\r\r"
    "data:first\ndata: second\n\ndata\n\n"
    "event: lonely\n\n"
    "data: after-lonely\n\n"
    ":comment\ndata: tail-without-blank-line";

TEST(SseParser, ParsesRecordedVllmStream) {
  auto got = run({kVllmStream});
  ASSERT_EQ(got.size(), 5u);
  EXPECT_EQ(got[1].data,
            "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,"
            "\"delta\":{\"content\":\"Hello\"},\"finish_reason\":null}]}");
  EXPECT_EQ(got[4].data, "[DONE]");
  for (const Got& g : got) {
    EXPECT_EQ(g.event, "");
    EXPECT_EQ(g.recv_ns, 100);
  }
}

TEST(SseParser, MixedLineEndsCommentsAndFields) {
  auto got = strip(run({kMixedStream}));
  std::vector<RefEvent> want = {{"", "one"},
                                {"error", "{\"error\":\"x\"}"},
                                {"", "first\nsecond"},
                                {"", ""},
                                {"", "after-lonely"},
                                {"", "tail-without-blank-line"}};
  EXPECT_EQ(got, want);
  EXPECT_EQ(reference_sse_parse(kMixedStream), want);  // the oracle agrees on the spec case
}

TEST(SseParser, EventsTakeTheTimestampOfTheFeedThatCompletedThem) {
  auto got = run({"data: a\n", "\ndata: b\n\ndata: c", "\n\n"});
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].recv_ns, 101);
  EXPECT_EQ(got[1].recv_ns, 101);
  EXPECT_EQ(got[2].recv_ns, 102);
}

TEST(SseParser, FinalUnterminatedEventDispatchedOnFinish) {
  auto got = run({"data: a\n\ndata: partial"});
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[1].data, "partial");
  EXPECT_EQ(got[1].recv_ns, 999);
  // Nothing pending: finish dispatches nothing.
  EXPECT_EQ(run({"data: a\n\n"}).size(), 1u);
  EXPECT_EQ(run({"event: x\n"}).size(), 0u);
}

TEST(SseParser, BomOnlyStrippedAtStart) {
  auto got = strip(run({"\xEF", "\xBB", "\xBF" "data: x\n\n\xEF\xBB\xBF" "data: y\n\n"}));
  ASSERT_EQ(got.size(), 1u);  // the second BOM makes "\xEF\xBB\xBFdata" an unknown field
  EXPECT_EQ(got[0].data, "x");
  // A partial BOM followed by other bytes is data of the first line, not dropped.
  auto partial = run({"\xEF\xBB", "x\n\ndata: z\n\n"});
  ASSERT_EQ(partial.size(), 1u);
  EXPECT_EQ(partial[0].data, "z");
}

TEST(SseParser, CrLfSplitBetweenFeedsIsOneLineEnd) {
  auto got = strip(run({"data: a\r", "\n\r", "\ndata: b\r", "\r"}));
  std::vector<RefEvent> want = {{"", "a"}, {"", "b"}};
  EXPECT_EQ(got, want);
}

TEST(SseParser, ManyMegabyteEvent) {
  std::string big(6 * 1024 * 1024, 'x');
  for (size_t i = 0; i < big.size(); i += 997) big[i] = 'a' + (i % 26);
  std::string stream = "data: " + big + "\ndata: " + big.substr(0, 1000) + "\n\ndata: small\n\n";
  for (size_t piece : {size_t{1} << 16, size_t{4093}, stream.size()}) {
    auto got = run(split_every(stream, piece));
    ASSERT_EQ(got.size(), 2u) << piece;
    EXPECT_EQ(got[0].data.size(), big.size() + 1 + 1000);
    EXPECT_EQ(got[0].data, big + "\n" + big.substr(0, 1000));
    EXPECT_EQ(got[1].data, "small");
  }
}

TEST(SseParser, ResetForgetsPartialState) {
  SseParser p;
  int n = 0;
  p.feed("data: half", 1, [&](const SseEvent&) { ++n; });
  p.reset();
  std::string data;
  p.feed("data: fresh\n\n", 2, [&](const SseEvent& ev) { ++n; data = ev.data; });
  EXPECT_EQ(n, 1);
  EXPECT_EQ(data, "fresh");
}

// Property: every split of a recorded stream gives the same events as the whole stream and as
// the reference parser.
class SplitProperty : public ::testing::TestWithParam<std::string> {};

TEST_P(SplitProperty, EverySingleSplitPoint) {
  const std::string& s = GetParam();
  const auto want = reference_sse_parse(s);
  ASSERT_EQ(strip(run({s})), want);
  for (size_t cut = 0; cut <= s.size(); ++cut) {
    ASSERT_EQ(strip(run({s.substr(0, cut), s.substr(cut)})), want) << "cut at " << cut;
  }
}

TEST_P(SplitProperty, EveryPairOfSplitPointsOnAPrefix) {
  const std::string s = GetParam().substr(0, 160);
  const auto want = reference_sse_parse(s);
  for (size_t a = 0; a <= s.size(); ++a) {
    for (size_t b = a; b <= s.size(); ++b) {
      ASSERT_EQ(strip(run({s.substr(0, a), s.substr(a, b - a), s.substr(b)})), want)
          << a << "," << b;
    }
  }
}

TEST_P(SplitProperty, ByteByByte) {
  const std::string& s = GetParam();
  EXPECT_EQ(strip(run(split_every(s, 1))), reference_sse_parse(s));
}

TEST_P(SplitProperty, RandomSplits) {
  const std::string& s = GetParam();
  const auto want = reference_sse_parse(s);
  core::Rng rng = core::Rng::stream(42, "sse-splits");
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<std::string> pieces;
    size_t pos = 0;
    while (pos < s.size()) {
      size_t n = 1 + rng.next_below(trial % 2 ? 8 : 64);
      pieces.push_back(s.substr(pos, n));
      pos += n;
    }
    ASSERT_EQ(strip(run(pieces)), want) << "trial " << trial;
  }
}

INSTANTIATE_TEST_SUITE_P(RecordedStreams, SplitProperty,
                         ::testing::Values(kVllmStream, kMixedStream,
                                           // llama.cpp-style CRLF stream with a role chunk.
                                           std::string("data: {\"choices\":[{\"delta\":{\"role\":"
                                                       "\"assistant\"}}]}\r\n\r\ndata: {\"choices\":"
                                                       "[{\"delta\":{\"content\":\"hi\"}}]}\r\n\r\n"
                                                       "data: [DONE]\r\n\r\n")));

}  // namespace
}  // namespace servebench::transport
