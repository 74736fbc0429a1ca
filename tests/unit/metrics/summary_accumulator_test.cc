// SummaryAccumulator: the summary does not depend on record order or on how records are split
// across merged accumulators; records can be dropped after add(); memory per request is
// bounded; capabilities decide which rows exist.
#include "metrics/summary_accumulator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>

#include "metrics/log_histogram.h"
#include "unit/metrics/record_fixtures.h"

namespace servebench::metrics {
namespace {

using record::ErrorKind;
using record::RequestRecord;
using servebench::testing::make_error_record;
using servebench::testing::make_stream_record;
using servebench::testing::StreamSpec;

constexpr int64_t kMs = 1'000'000;

// Varied records: successes (some with multi-token chunks, reasoning, a requested OSL, a late
// send), HTTP errors with per-request ids, rate cancellations and dropped ones.
std::vector<RequestRecord> varied(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<RequestRecord> v;
  for (size_t i = 0; i < n; ++i) {
    const int64_t start = 1000 * kMs + static_cast<int64_t>(rng() % 5000) * kMs;
    if (i % 23 == 4) {
      v.push_back(make_error_record(i, start, ErrorKind::kHttpStatus, 500,
                                    "HTTP 500: id chatcmpl-" + std::to_string(rng()) + "x"));
      continue;
    }
    if (i % 41 == 7) {
      auto c = make_error_record(i, start, ErrorKind::kCancelled, 0, "cancelled");
      c.cancel_reason = i % 2 ? record::CancelReason::kRate : record::CancelReason::kGrace;
      v.push_back(c);
      continue;
    }
    StreamSpec s;
    s.start_ns = start;
    s.intended_ns = start - static_cast<int64_t>(rng() % 3) * kMs;
    s.ttft_ns = static_cast<int64_t>(rng() % 200 + 1) * kMs;
    const int gaps = static_cast<int>(rng() % 12);
    for (int g = 0; g < gaps; ++g) s.gaps_ns.push_back(static_cast<int64_t>(rng() % 30) * kMs);
    if (i % 5 == 0) {
      for (int g = 0; g <= gaps; ++g) s.chunk_tokens.push_back(static_cast<int32_t>(rng() % 4));
    }
    s.reasoning_chunks = i % 7 == 0 ? 1 : 0;
    s.requested_output_tokens = i % 3 == 0 ? 8 : -1;
    s.input_tokens = 50 + static_cast<int64_t>(rng() % 500);
    v.push_back(make_stream_record(i, s));
  }
  return v;
}

void expect_same(const Summary& a, const Summary& b) {
  ASSERT_EQ(a.metrics.size(), b.metrics.size());
  for (size_t i = 0; i < a.metrics.size(); ++i) {
    const MetricResult& x = a.metrics[i];
    const MetricResult& y = b.metrics[i];
    ASSERT_EQ(x.tag(), y.tag());
    if (x.distribution) {
      EXPECT_EQ(x.stats.count, y.stats.count) << x.tag();
      EXPECT_EQ(x.stats.min, y.stats.min) << x.tag();
      EXPECT_EQ(x.stats.max, y.stats.max) << x.tag();
      for (size_t p = 0; p < 9; ++p) {
        // A statistic a row does not have is NaN on both sides (the sweep rows' p1..p25, p75).
        if (!(std::isnan(x.stats.p[p]) && std::isnan(y.stats.p[p]))) {
          EXPECT_EQ(x.stats.p[p], y.stats.p[p]) << x.tag();
        }
      }
      if (std::isinf(y.stats.avg)) {
        EXPECT_EQ(x.stats.avg, y.stats.avg) << x.tag();
      } else {  // sums of doubles: equal up to the order of additions
        EXPECT_NEAR(x.stats.avg, y.stats.avg, std::abs(y.stats.avg) * 1e-12) << x.tag();
        EXPECT_NEAR(x.stats.std, y.stats.std, std::abs(y.stats.std) * 1e-9 + 1e-9) << x.tag();
      }
    } else {
      EXPECT_NEAR(x.value, y.value, std::abs(y.value) * 1e-12) << x.tag();
      EXPECT_EQ(x.int_value, y.int_value) << x.tag();
    }
  }
  EXPECT_EQ(a.request_count, b.request_count);
  EXPECT_EQ(a.error_request_count, b.error_request_count);
  EXPECT_EQ(a.extras.peak_concurrency, b.extras.peak_concurrency);
  EXPECT_EQ(a.extras.cancelled_request_count, b.extras.cancelled_request_count);
  EXPECT_EQ(a.extras.errors_by_kind, b.extras.errors_by_kind);
  ASSERT_EQ(a.error_summary.size(), b.error_summary.size());
  for (size_t i = 0; i < a.error_summary.size(); ++i) {
    EXPECT_EQ(a.error_summary[i].message, b.error_summary[i].message);
    EXPECT_EQ(a.error_summary[i].count, b.error_summary[i].count);
  }
}

std::vector<const RequestRecord*> ptrs(const std::vector<RequestRecord>& v) {
  std::vector<const RequestRecord*> out;
  for (const auto& r : v) out.push_back(&r);
  return out;
}

// Splits `recs` (shuffled) over k accumulators, merges them in a random order.
Summary split_and_merge(std::vector<RequestRecord> recs, size_t k, const SummaryOptions& o,
                        std::mt19937_64& rng) {
  std::shuffle(recs.begin(), recs.end(), rng);
  std::vector<SummaryAccumulator> parts;
  for (size_t i = 0; i < k; ++i) parts.emplace_back(o);
  for (const auto& r : recs) parts[rng() % k].add(r);
  std::shuffle(parts.begin(), parts.end(), rng);
  for (size_t i = 1; i < k; ++i) parts[0].merge(std::move(parts[i]));
  return parts[0].finish();
}

TEST(SummaryAccumulatorTest, IndependentOfOrderAndSplit) {
  const auto recs = varied(600, 11);
  SummaryOptions o;
  o.slos = *parse_goodput("time_to_first_token:100 schedule_lag:1.5");
  const Summary ref = summarize(ptrs(recs), o);
  ASSERT_NE(ref.find("per_token_inter_token_latency"), nullptr);
  ASSERT_NE(ref.find("adj_request_latency"), nullptr);
  ASSERT_GT(ref.extras.cancelled_request_count, 0);
  EXPECT_EQ(ref.error_summary.size(), 2u);  // ids normalised: one HTTP 500 group, one 499
  std::mt19937_64 rng(3);
  for (size_t k : {1, 2, 3, 7, 16}) {
    SCOPED_TRACE(k);
    expect_same(split_and_merge(recs, k, o, rng), ref);
  }
}

TEST(SummaryAccumulatorTest, HistogramModeIsIndependentOfSplitToo) {
  const auto recs = varied(600, 12);
  SummaryOptions o;
  o.exact_chunk_samples = 500;  // far fewer than the ~3,000 gaps: histogram
  const Summary ref = summarize(ptrs(recs), o);
  std::mt19937_64 rng(4);
  for (size_t k : {2, 5}) expect_same(split_and_merge(recs, k, o, rng), ref);
  // And within the stated error of the exact summary.
  SummaryOptions exact;
  const Summary e = summarize(ptrs(recs), exact);
  for (const char* tag : {"inter_chunk_latency", "per_token_inter_token_latency"}) {
    const Stats& h = ref.find(tag)->stats;
    const Stats& x = e.find(tag)->stats;
    EXPECT_EQ(h.count, x.count);
    EXPECT_EQ(h.max, x.max);
    for (size_t p = 0; p < 9; ++p) {
      EXPECT_LE(std::abs(h.p[p] - x.p[p]), x.p[p] * LogHistogram::kRelativeError) << tag << p;
    }
  }
}

TEST(SummaryAccumulatorTest, RecordsCanBeDroppedAfterAdd) {
  const auto recs = varied(100, 13);
  SummaryAccumulator acc(SummaryOptions{});
  for (const auto& r : recs) {
    auto copy = std::make_unique<RequestRecord>(r);
    acc.add(*copy);
  }  // every copy destroyed here
  EXPECT_EQ(acc.size(), recs.size());
  const Summary first = acc.finish();
  expect_same(first, summarize(ptrs(recs), {}));
  expect_same(acc.finish(), first);  // finish() may be called again
}

TEST(SummaryAccumulatorTest, MemoryPerRequestIsBounded) {
  // Streamed requests of 1,000 content chunks with a 100k-sample bound on the chunk series.
  SummaryOptions o;
  o.exact_chunk_samples = 100'000;
  SummaryAccumulator acc(o);
  StreamSpec s;
  for (int g = 0; g < 999; ++g) s.gaps_ns.push_back((g % 50 + 1) * 100'000);
  auto add = [&](int from, int to) {
    for (int i = from; i < to; ++i) {
      s.start_ns = 1000 * kMs + i * kMs;
      acc.add(make_stream_record(i, s));
    }
  };
  add(0, 50);  // 49,950 gaps: exact, 8 bytes each
  const size_t per_request_exact = acc.memory_bytes() / 50;
  EXPECT_GT(per_request_exact, 999u * 8);
  add(50, 4000);  // ~4M gaps: the series are a histogram, only the columns grow
  const size_t per_request = acc.memory_bytes() / 4000;
  EXPECT_LT(per_request, 700u) << "bytes per request";
  const Summary sum = acc.finish();
  EXPECT_EQ(sum.find("inter_chunk_latency")->stats.count, 4000 * 999);
}

TEST(SummaryAccumulatorTest, EmbeddingsGetLatencyIslAndThroughputButNoTokenRows) {
  std::vector<RequestRecord> recs;
  for (int i = 0; i < 4; ++i) {
    RequestRecord r;
    r.request_index = static_cast<uint64_t>(i);
    r.request_start_ns = 1000 * kMs + i * 10 * kMs;
    r.request_sent_ns = r.request_start_ns + kMs / 10;
    r.first_byte_ns = r.request_start_ns + 4 * kMs;
    r.response_complete_ns = r.request_start_ns + (5 + i) * kMs;
    r.end_ns = r.response_complete_ns;
    r.http_status = 200;
    r.input_tokens = 64;
    r.output_items = 8;  // vectors; no content chunks
    r.usage.prompt_tokens = 64;
    r.usage.total_tokens = 64;
    recs.push_back(r);
  }
  SummaryOptions o;
  o.capabilities = core::kCapTokenizesInput;
  const Summary s = summarize(ptrs(recs), o);
  ASSERT_NE(s.find("request_latency"), nullptr);
  EXPECT_DOUBLE_EQ(s.find("request_latency")->stats.min, 5 * kMs);
  EXPECT_DOUBLE_EQ(s.find("request_latency")->stats.max, 8 * kMs);
  for (const char* tag :
       {"input_sequence_length", "request_throughput", "request_count", "benchmark_duration",
        "usage_prompt_tokens", "total_isl", "input_token_throughput", "http_req_waiting"}) {
    EXPECT_NE(s.find(tag), nullptr) << tag;
  }
  for (const char* tag : {"time_to_first_token", "inter_token_latency", "inter_chunk_latency",
                          "output_sequence_length", "output_token_throughput",
                          "e2e_output_token_throughput", "per_token_inter_token_latency",
                          "total_token_throughput", "decode_duration", "total_osl"}) {
    EXPECT_EQ(s.find(tag), nullptr) << tag;
  }
  // Window: first start .. last response complete (1030 + 8 ms).
  double v;
  ASSERT_TRUE(s.lookup("benchmark_duration", "avg", &v));
  EXPECT_DOUBLE_EQ(v, 0.038);
  ASSERT_TRUE(s.lookup("request_throughput", "avg", &v));
  EXPECT_DOUBLE_EQ(v, 4 / 0.038);
}

TEST(SummaryAccumulatorTest, TokenEndpointKeepsLastContentChunkDefinition) {
  // A chat response without content (empty completion) has no latency, as in AIPerf, even if
  // the response completed; a non-token output (output_items >= 0) ends at response_complete.
  StreamSpec spec;
  RequestRecord r = make_stream_record(0, spec);
  std::erase_if(r.chunks, [](const record::Chunk& c) { return record::is_content_chunk(c.kind); });
  r.response_complete_ns = r.end_ns;
  Summary s = summarize({&r}, {});
  EXPECT_EQ(s.find("request_latency"), nullptr);
  EXPECT_EQ(s.request_count, 1);
  r.output_items = 1;
  s = summarize({&r}, {});
  ASSERT_NE(s.find("request_latency"), nullptr);
  EXPECT_DOUBLE_EQ(s.find("request_latency")->stats.avg,
                   static_cast<double>(r.response_complete_ns - r.request_start_ns));
}

}  // namespace
}  // namespace servebench::metrics

namespace servebench::metrics {
namespace {

// add(r, &values) hands a writer what compute_record_metrics would give it, so the JSONL line
// written from them is the one computed on its own (every slot, bit for bit, and the extras).
TEST(SummaryAccumulatorTest, AddFillsTheValuesComputeRecordMetricsGives) {
  for (core::Capabilities caps : {core::kTextGenerationCaps,
                                  core::kTextGenerationCaps & ~core::kCapStreams,
                                  core::kTextGenerationCaps & ~core::kCapProducesTokens}) {
    SummaryOptions o;
    o.capabilities = caps;
    SummaryAccumulator acc(o);
    for (RequestRecord& r : varied(400, 11)) {
      RecordValues got, want;
      got.usage_discrepancy = got.osl_mismatch = true;  // stale values must be reset
      acc.add(r, &got);
      compute_record_metrics(r, &want, caps);
      for (size_t i = 0; i < kNumRecordSlots; ++i) {
        if (std::isnan(want.v[i])) {
          EXPECT_TRUE(std::isnan(got.v[i])) << r.request_index << " slot " << i;
        } else {
          EXPECT_EQ(got.v[i], want.v[i]) << r.request_index << " slot " << i;
        }
      }
      EXPECT_EQ(got.last_content_ns, want.last_content_ns);
      EXPECT_EQ(std::isnan(got.schedule_lag_ns), std::isnan(want.schedule_lag_ns));
      if (!std::isnan(want.schedule_lag_ns)) {
        EXPECT_EQ(got.schedule_lag_ns, want.schedule_lag_ns);
      }
      EXPECT_EQ(std::isnan(got.ttft_from_intended_ns), std::isnan(want.ttft_from_intended_ns));
      EXPECT_EQ(std::isnan(got.latency_from_intended_ns),
                std::isnan(want.latency_from_intended_ns));
      EXPECT_EQ(got.usage_discrepancy, want.usage_discrepancy);
      EXPECT_EQ(got.osl_mismatch, want.osl_mismatch);
    }
  }
}

}  // namespace
}  // namespace servebench::metrics
