// Round trip writer → reader: every record written to profile_export.jsonl comes back with the
// fields the summary reads, so the summary (JSON and CSV text) recomputed from the file equals
// the one computed from the records. Records cover errors, cancellations of every reason,
// usage, reasoning and tool-call chunks, multi-token chunks, bodies (non-streamed), sessions and
// a warm-up record, at nanosecond timestamps that do not divide evenly into milliseconds.
#include "export/records_reader.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "export/csv_export.h"
#include "export/records_jsonl.h"
#include "export/summary_json.h"
#include "metrics/record_metrics.h"
#include "metrics/summary.h"
#include "unit/metrics/record_fixtures.h"

namespace servebench::exporter {
namespace {

using record::RequestRecord;

std::vector<RequestRecord> varied_records() {
  auto out = servebench::testing::golden_records();
  const int64_t base = 20'000'000'000;
  auto add = [&](servebench::testing::StreamSpec s) {
    out.push_back(servebench::testing::make_stream_record(out.size(), s));
    return &out.back();
  };
  // Odd nanoseconds everywhere: the file carries ms with shortest round-trip digits.
  auto* a = add({base + 7, base + 123'457, 41'234'567, {1'000'001, 999'999, 3, 12'345'678'901}, {}, 77});
  a->x_correlation_id = "session-A";
  a->turn_index = 1;
  a->session_num = 3;
  a->url_index = 1;
  a->usage.reasoning_tokens = 0;
  a->usage.prompt_cache_read_tokens = 64;
  a->usage.prompt_cache_write_tokens = 5;
  a->usage.prompt_cache_miss_tokens = 13;
  a->usage.accepted_prediction_tokens = 2;
  a->usage.rejected_prediction_tokens = 1;
  a->usage.tool_use_prompt_tokens = 9;
  auto* b = add({0, base + 1'000'000'003, 12'000'001, {7, 11}, {3, 0, 5}, 200, 1, 8});
  b->chunks[2].kind = record::ChunkKind::kToolCall;  // reasoning, tool call, content
  auto* c = add({base + 2'000'000'000, base + 2'000'010'001, 90'000'013, {}, {}, 50, 0, 1000});
  c->streaming = false;  // a body: one chunk, no TTFT
  c->output_items = 4;
  c->response_complete_ns = c->chunks[0].recv_ns;
  auto rate = servebench::testing::make_error_record(out.size(), base + 3'000'000'001,
                                                     record::ErrorKind::kCancelled, 200, "cancelled");
  rate.cancel_reason = record::CancelReason::kRate;
  out.push_back(rate);
  auto grace = servebench::testing::make_error_record(out.size(), base + 3'000'000'002,
                                                      record::ErrorKind::kCancelled, 0, "grace");
  grace.cancel_reason = record::CancelReason::kGrace;
  out.push_back(grace);
  auto reset = servebench::testing::make_error_record(out.size(), base + 3'100'000'003,
                                                      record::ErrorKind::kStreamReset, 200, "reset");
  reset.input_tokens = -1;
  out.push_back(reset);
  auto conn = servebench::testing::make_error_record(out.size(), base + 3'200'000'000,
                                                     record::ErrorKind::kConnect, 0, "refused");
  conn.first_byte_ns = 0;
  out.push_back(conn);
  return out;
}

const record::RunAnchor kAnchor{123'456'789, 1'700'000'000'000'000'001};

std::vector<RequestRecord> round_trip(const std::vector<RequestRecord>& records) {
  std::vector<RequestRecord> back;
  for (const auto& r : records) {
    std::string line;
    append_record_line(r, kAnchor, &line);
    auto parsed = parse_record_line(line);
    EXPECT_TRUE(parsed) << line;
    if (parsed) back.push_back(std::move(*parsed));
  }
  return back;
}

// The summary files' text for a phase, computed with `anchor`.
std::string summary_text(const std::vector<RequestRecord>& records, record::Phase phase,
                         const record::RunAnchor& anchor) {
  metrics::SummaryOptions o;
  o.anchor = anchor;
  o.slos = *metrics::parse_goodput("time_to_first_token:50 inter_token_latency:12");
  const metrics::Summary s = metrics::summarize_phase(records, phase, o);
  RunContext ctx;
  ctx.benchmark_id = "x";
  JsonInput in;
  in.context = &ctx;
  in.profiling = &s;
  return render_summary_json(in) + render_summary_csv(s);
}

TEST(RecordsReader, SummaryFromTheFileEqualsTheSummaryFromTheRecords) {
  const auto records = varied_records();
  const auto back = round_trip(records);
  ASSERT_EQ(back.size(), records.size());
  for (auto phase : {record::Phase::kProfiling, record::Phase::kWarmup}) {
    EXPECT_EQ(summary_text(back, phase, kReaderAnchor), summary_text(records, phase, kAnchor));
  }
}

TEST(RecordsReader, FieldsComeBack) {
  const auto records = varied_records();
  const auto back = round_trip(records);
  ASSERT_EQ(back.size(), records.size());
  for (size_t i = 0; i < records.size(); ++i) {
    const RequestRecord& r = records[i];
    const RequestRecord& q = back[i];
    SCOPED_TRACE(r.x_request_id);
    EXPECT_EQ(q.request_index, r.request_index);
    EXPECT_EQ(q.x_request_id, r.x_request_id);
    EXPECT_EQ(q.x_correlation_id, r.x_correlation_id);
    EXPECT_EQ(q.turn_index, r.turn_index);
    EXPECT_EQ(q.session_num, r.session_num);
    EXPECT_EQ(q.worker_id, r.worker_id);
    EXPECT_EQ(q.url_index, r.url_index);
    EXPECT_EQ(q.phase, r.phase);
    EXPECT_EQ(q.streaming, r.streaming);
    EXPECT_EQ(q.error, r.error);
    EXPECT_EQ(q.cancel_reason, r.cancel_reason);
    EXPECT_EQ(q.dropped(), r.dropped());
    EXPECT_EQ(q.http_status, r.http_status);
    EXPECT_EQ(q.request_start_ns, kAnchor.to_wall_ns(r.request_start_ns));
    EXPECT_EQ(q.intended_ns, kAnchor.to_wall_ns(r.intended_ns));
    EXPECT_EQ(q.request_sent_ns, kAnchor.to_wall_ns(r.request_sent_ns));
    EXPECT_EQ(q.first_byte_ns, kAnchor.to_wall_ns(r.first_byte_ns));
    EXPECT_EQ(q.end_ns, kAnchor.to_wall_ns(r.end_ns));
    EXPECT_EQ(q.response_complete_ns, kAnchor.to_wall_ns(r.response_complete_ns));
    EXPECT_EQ(q.input_tokens, r.input_tokens);
    EXPECT_EQ(q.output_tokens, r.output_tokens);
    EXPECT_EQ(q.reasoning_tokens, r.reasoning_tokens);
    EXPECT_EQ(q.requested_output_tokens, r.requested_output_tokens);
    EXPECT_EQ(q.output_items, r.output_items);
    if (r.ok()) {
      EXPECT_EQ(q.usage.prompt_tokens, r.usage.prompt_tokens);
      EXPECT_EQ(q.usage.completion_tokens, r.usage.completion_tokens);
      EXPECT_EQ(q.usage.total_tokens, r.usage.total_tokens);
      EXPECT_EQ(q.usage.reasoning_tokens, r.usage.reasoning_tokens);
      EXPECT_EQ(q.usage.prompt_cache_read_tokens, r.usage.prompt_cache_read_tokens);
      EXPECT_EQ(q.usage.prompt_cache_write_tokens, r.usage.prompt_cache_write_tokens);
      EXPECT_EQ(q.usage.prompt_cache_miss_tokens, r.usage.prompt_cache_miss_tokens);
      EXPECT_EQ(q.usage.accepted_prediction_tokens, r.usage.accepted_prediction_tokens);
      EXPECT_EQ(q.usage.rejected_prediction_tokens, r.usage.rejected_prediction_tokens);
      EXPECT_EQ(q.usage.tool_use_prompt_tokens, r.usage.tool_use_prompt_tokens);
      EXPECT_EQ(q.connection_reused, r.connection_reused);
      EXPECT_EQ(q.request_bytes, r.request_bytes);
      // Content chunks: exact times, kinds and tokens, in order.
      std::vector<record::Chunk> content;
      for (const auto& c : r.chunks) {
        if (metrics::is_content_chunk(c.kind)) content.push_back(c);
      }
      ASSERT_EQ(q.chunks.size(), content.size());
      for (size_t k = 0; k < content.size(); ++k) {
        EXPECT_EQ(q.chunks[k].recv_ns, kAnchor.to_wall_ns(content[k].recv_ns)) << k;
        EXPECT_EQ(q.chunks[k].kind, content[k].kind) << k;
        EXPECT_EQ(q.chunks[k].tokens, content[k].tokens) << k;
      }
    } else {
      EXPECT_TRUE(q.chunks.empty());
    }
  }
}

// The raw export's `usage` lists the normalised counts the server reported, and null without any.
TEST(RecordsJsonl, RawLineUsageHasEveryReportedCount) {
  auto records = servebench::testing::golden_records();
  RequestRecord r = records.front();
  r.usage = record::Usage{};
  r.usage.prompt_tokens = 41;
  r.usage.prompt_cache_read_tokens = 40;
  r.usage.prompt_cache_write_tokens = 0;
  r.usage.tool_use_prompt_tokens = 7;
  r.usage.prompt_audio_seconds = 2.5;
  std::string line;
  append_raw_line(r, kAnchor, {}, &line);
  const auto j = nlohmann::json::parse(line);
  const auto& u = j.at("usage");
  EXPECT_EQ(u.at("prompt_tokens"), 41);
  EXPECT_EQ(u.at("prompt_cache_read_tokens"), 40);
  EXPECT_EQ(u.at("prompt_cache_write_tokens"), 0) << "0 is a count, not absent";
  EXPECT_EQ(u.at("tool_use_prompt_tokens"), 7);
  EXPECT_DOUBLE_EQ(u.at("prompt_audio_seconds").get<double>(), 2.5);
  EXPECT_FALSE(u.contains("completion_tokens"));
  EXPECT_FALSE(u.contains("prompt_cache_miss_tokens"));
  r.usage = record::Usage{};
  line.clear();
  append_raw_line(r, kAnchor, {}, &line);
  EXPECT_TRUE(nlohmann::json::parse(line).at("usage").is_null());
}

TEST(RecordsReader, FileReadingAndErrors) {
  const auto records = varied_records();
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("sb_reader_test_" + std::to_string(::getpid()) + ".jsonl"))
                               .string();
  {
    std::string text;
    for (const auto& r : records) append_record_line(r, kAnchor, &text);
    std::ofstream(path, std::ios::binary) << text << "\n";  // a trailing blank line is fine
  }
  auto all = read_records(path);
  ASSERT_TRUE(all) << all.error().message;
  EXPECT_EQ(all->size(), records.size());
  {
    std::ofstream(path, std::ios::app) << "{\"metrics\": {}}\n";
  }
  auto bad = read_records(path);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find(":" + std::to_string(records.size() + 2) + ":"),
            std::string::npos)
      << bad.error().message;
  std::filesystem::remove(path);
  EXPECT_FALSE(read_records(path));
  EXPECT_FALSE(parse_record_line("not json"));
}

// Lines longer than the reader's 8 MiB buffer, a last line without its newline, CRLF endings:
// every record comes back whole and in order.
TEST(RecordsReader, LongLinesAndUnterminatedLastLine) {
  auto records = varied_records();
  ASSERT_GE(records.size(), 3u);
  std::string huge(9u << 20, 'x');
  for (auto& r : records) {
    if (!r.ok()) {
      r.error_message = huge;
      break;
    }
  }
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("sb_reader_long_" + std::to_string(::getpid()) + ".jsonl"))
                               .string();
  std::string text;
  for (size_t i = 0; i < records.size(); ++i) {
    append_record_line(records[i], kAnchor, &text);  // ends with "\n"
    if (i == 0) text.insert(text.size() - 1, "\r");
  }
  text.pop_back();  // no newline after the last line
  std::ofstream(path, std::ios::binary) << text;
  auto all = read_records(path);
  std::filesystem::remove(path);
  ASSERT_TRUE(all) << all.error().message.substr(0, 200);
  ASSERT_EQ(all->size(), records.size());
  for (size_t i = 0; i < records.size(); ++i) {
    EXPECT_EQ((*all)[i].x_request_id, records[i].x_request_id);
    EXPECT_EQ((*all)[i].error_message.size(), records[i].error_message.size());
  }
}

TEST(RecordsReader, AiperfLineWithoutOurKeys) {
  // A cancelled AIPerf line: counted as an error (code 499), as AIPerf counts it.
  auto r = parse_record_line(
      R"({"metadata":{"x_request_id":"a","request_start_ns":5,"request_end_ns":9,)"
      R"("benchmark_phase":"profiling","was_cancelled":true},"metrics":{},)"
      R"("error":{"code":499,"type":"cancelled","message":"c"}})");
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->cancelled());
  EXPECT_FALSE(r->dropped());
  EXPECT_EQ(r->request_start_ns, 5);
  EXPECT_EQ(r->input_tokens, -1);
}

}  // namespace
}  // namespace servebench::exporter
