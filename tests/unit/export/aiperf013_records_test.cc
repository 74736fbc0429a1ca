// AIPerf 0.13's record keys in profile_export.jsonl (phase, processor and session-tree metadata,
// http_req_chunks_sent, sizes in KB) and their way back through the reader; the summary CSV's
// AIPerf 0.13 rows.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "export/csv_export.h"
#include "export/records_jsonl.h"
#include "export/records_reader.h"
#include "metrics/summary.h"
#include "unit/metrics/record_fixtures.h"

namespace servebench::exporter {
namespace {

using record::RequestRecord;

const record::RunAnchor kAnchor{0, 1'700'000'000'000'000'000};

RequestRecord profiling_record() {
  servebench::testing::StreamSpec s;
  s.gaps_ns = {4'000'000};
  RequestRecord r = servebench::testing::make_stream_record(7, s);
  r.phase_index = 1;  // after a warm-up
  r.processor_slot = 2;
  r.request_writes = 3;
  r.request_bytes = 1536;
  return r;
}

nlohmann::json line_of(const RequestRecord& r) {
  std::string line;
  append_record_line(r, kAnchor, &line);
  return nlohmann::json::parse(line);
}

TEST(Aiperf013RecordsTest, MetadataHasPhaseProcessorAndSessionTreeKeys) {
  const auto j = line_of(profiling_record());
  const auto& m = j["metadata"];
  EXPECT_EQ(m["record_processor_id"], "record_processor_2");
  EXPECT_EQ(m["phase_index"], 1);
  EXPECT_EQ(m["profiling_index"], 0);
  EXPECT_EQ(m["phase_name"], "profiling");
  EXPECT_EQ(m["phase_kind"], "profiling");
  EXPECT_EQ(m["context_overflow_skip"], false);
  EXPECT_EQ(m["agent_depth"], 0);
  EXPECT_EQ(m["root_correlation_id"], "sess-7");
}

TEST(Aiperf013RecordsTest, WarmupRecordHasNoProfilingIndex) {
  RequestRecord r = profiling_record();
  r.phase = record::Phase::kWarmup;
  r.phase_index = 0;
  const auto m = line_of(r)["metadata"];
  EXPECT_TRUE(m["profiling_index"].is_null());
  EXPECT_EQ(m["phase_index"], 0);
  EXPECT_EQ(m["phase_kind"], "warmup");
}

// The keys shared by a worker's, URL's, processor's and phase's records are rendered once and
// reused: records alternating between each of those, one after the other on one thread, must
// each read their own values; a cancelled one in between its own.
TEST(Aiperf013RecordsTest, SharedMetadataFollowsEachRecordsWorkerUrlSlotAndPhase) {
  RequestRecord r = profiling_record();
  for (int i = 0; i < 40; ++i) {
    // One of them changes at a time.
    switch (i % 5) {
      case 0: r.worker_id = (r.worker_id + 1) % 3; break;
      case 1: r.url_index = 1 - r.url_index; break;
      case 2: r.processor_slot = static_cast<uint8_t>(1 - r.processor_slot); break;
      case 3:
        r.phase = r.phase == record::Phase::kWarmup ? record::Phase::kProfiling : record::Phase::kWarmup;
        break;
      case 4: r.phase_index = 1 - r.phase_index; break;
    }
    r.x_correlation_id = "sess-" + std::to_string(i);
    r.error = record::ErrorKind::kNone;
    r.cancel_reason = record::CancelReason::kNone;
    if (i % 7 == 6) {
      r.error = record::ErrorKind::kCancelled;
      r.cancel_reason = record::CancelReason::kGrace;
      r.cancel_ns = r.end_ns;
    }
    const auto m = line_of(r)["metadata"];
    EXPECT_EQ(m["worker_id"], "worker_" + std::to_string(r.worker_id)) << i;
    EXPECT_EQ(m["url_index"], r.url_index) << i;
    EXPECT_EQ(m["record_processor_id"], "record_processor_" + std::to_string(r.processor_slot)) << i;
    EXPECT_EQ(m["benchmark_phase"], r.phase == record::Phase::kWarmup ? "warmup" : "profiling") << i;
    EXPECT_EQ(m["phase_index"], r.phase_index) << i;
    EXPECT_EQ(m["was_cancelled"], r.cancelled()) << i;
    EXPECT_EQ(m["cancellation_time_ns"].is_null(), !r.cancelled()) << i;
    EXPECT_EQ(m["root_correlation_id"], r.x_correlation_id) << i;
  }
}

TEST(Aiperf013RecordsTest, HttpSizesInKbAndChunksSent) {
  const auto m = line_of(profiling_record())["metrics"];
  EXPECT_EQ(m["http_req_chunks_sent"]["value"], 3);
  EXPECT_EQ(m["http_req_chunks_sent"]["unit"], "count");
  EXPECT_DOUBLE_EQ(m["http_req_data_sent"]["value"].get<double>(), 1.5);
  EXPECT_EQ(m["http_req_data_sent"]["unit"], "KB");
  EXPECT_EQ(m["http_req_connection_reused"]["unit"], "ratio");
}

TEST(Aiperf013RecordsTest, ReaderGetsBytesWritesAndPhaseIndexBack) {
  std::string line;
  append_record_line(profiling_record(), kAnchor, &line);
  auto r = parse_record_line(line);
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_EQ(r->request_bytes, 1536);
  EXPECT_EQ(r->request_writes, 3);
  EXPECT_EQ(r->phase_index, 1);
}

TEST(Aiperf013RecordsTest, ReaderTakesOlderByteCounts) {
  std::string line;
  append_record_line(profiling_record(), kAnchor, &line);
  const std::string kb = "\"http_req_data_sent\":{\"value\":1.5,\"unit\":\"KB\"}";
  const size_t at = line.find(kb);
  ASSERT_NE(at, std::string::npos);
  line.replace(at, kb.size(), "\"http_req_data_sent\":{\"value\":1536,\"unit\":\"B\"}");
  auto r = parse_record_line(line);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->request_bytes, 1536);
}

TEST(Aiperf013RecordsTest, SummaryCsvHasAiperfRowNames) {
  std::vector<RequestRecord> v{profiling_record()};
  v[0].credit_issued_ns = v[0].request_start_ns - 2'000'000;
  std::vector<const RequestRecord*> p{&v[0]};
  const std::string csv = render_summary_csv(metrics::summarize(p, {}));
  for (const char* row :
       {"\nCredit-to-Start Latency (ms),2,", "\nHTTP Chunks Sent,3,", "\nHTTP Data Sent (KB),1.5,",
        "\nHTTP Connection Reused (ratio),", "\nHTTP Waiting (TTFB) (ms),",
        "\nEffective Latency (CO-aware) (ms),", "\nUsage Prompt Diff % (%),0,",
        "\nCompleted Requests (Success + Error),1\n"}) {
    EXPECT_NE(csv.find(row), std::string::npos) << row << "\n" << csv;
  }
}

}  // namespace
}  // namespace servebench::exporter
