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
