// Golden files for the console, JSON and CSV writers, from the fixed records of
// record_fixtures.h. Regenerate after an intended change with
//   SERVEBENCH_UPDATE_GOLDEN=1 build/bin/export_test --gtest_filter='Golden*'
// and review the diff of tests/data/golden/.
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "core/secrets.h"

#include "export/artifacts.h"
#include "export/console.h"
#include "export/csv_export.h"
#include "export/records_jsonl.h"
#include "export/summary_json.h"
#include "metrics/summary.h"
#include "unit/metrics/record_fixtures.h"

namespace servebench::exporter {
namespace {

std::string golden_path(const std::string& name) {
  const char* src = std::getenv("SERVEBENCH_SOURCE_DIR");
  std::string root = src ? src : SERVEBENCH_TEST_SOURCE_DIR;
  return root + "/tests/data/golden/" + name;
}

void check_golden(const std::string& name, const std::string& actual) {
  const std::string path = golden_path(name);
  const char* update = std::getenv("SERVEBENCH_UPDATE_GOLDEN");
  if (update != nullptr && std::string(update) == "1") {
    std::ofstream(path, std::ios::binary) << actual;
    GTEST_SKIP() << "updated " << path;
  }
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in) << "missing golden file " << path
                  << " (run with SERVEBENCH_UPDATE_GOLDEN=1 to create it)";
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_EQ(actual, ss.str()) << "golden mismatch for " << name
                              << "; if intended, regenerate with SERVEBENCH_UPDATE_GOLDEN=1";
}

struct Fixture {
  std::vector<record::RequestRecord> records = servebench::testing::golden_records();
  RunContext ctx;
  metrics::Summary profiling, warmup;

  Fixture() {
    // As a run does at start-up (config/redaction.h): the key and the credential a failing
    // record's error message echoes are registered secrets.
    core::secrets::add("sk-verysecretkey1234567890");
    core::secrets::add("sk-abcdefghijklmnopqrstuv");
    ctx.model = "test-model";
    ctx.endpoint_type = "chat";
    ctx.streaming = true;
    ctx.benchmark_id = "golden-0001";
    ctx.anchor = {0, 1'700'000'000'000'000'000};
    ctx.start_wall_ns = 1'700'000'009'000'000'000;
    ctx.end_wall_ns = 1'700'000'011'000'000'000;
    ctx.random_seed = 42;
    ctx.has_random_seed = true;
    ctx.cli_command = "servebench profile -m test-model --url http://127.0.0.1:1 --api-key sk-verysecretkey1234567890 --streaming";
    ctx.input_config_json =
        R"({"model":"test-model","api_key":"sk-verysecretkey1234567890","concurrency":2})";
    metrics::SummaryOptions o;
    o.anchor = ctx.anchor;
    o.slos = *metrics::parse_goodput("time_to_first_token:50 inter_token_latency:12");
    profiling = metrics::summarize_phase(records, record::Phase::kProfiling, o);
    warmup = metrics::summarize_phase(records, record::Phase::kWarmup, o);
  }
};

TEST(GoldenTest, Console) {
  Fixture f;
  ConsoleInput in;
  in.title = "servebench | LLM Metrics";
  in.summary = &f.profiling;
  in.cli_command = f.ctx.cli_command;
  in.engine_warnings = {"tokenizer fallback: using builtin"};
  in.artifact_paths = {{"CSV Export", "artifacts/run/profile_export_aiperf.csv"},
                       {"JSON Export", "artifacts/run/profile_export_aiperf.json"}};
  in.gate_messages = {"fail-on request_error_rate>1: FAILED (request_error_rate.avg = 25)"};
  const std::string text = render_console(in);
  EXPECT_EQ(text.find("sk-verysecret"), std::string::npos);
  check_golden("console.txt", text);
}

TEST(GoldenTest, Json) {
  Fixture f;
  JsonInput in;
  in.context = &f.ctx;
  in.profiling = &f.profiling;
  in.warmup = &f.warmup;
  in.fail_on = {"request_error_rate>1"};
  in.gate_failed = true;
  in.gate_messages = {"fail-on request_error_rate>1: FAILED (request_error_rate.avg = 25)"};
  in.goodput = {"time_to_first_token:50", "inter_token_latency:12"};
  const std::string text = render_summary_json(in);
  EXPECT_EQ(text.find("sk-verysecret"), std::string::npos);
  check_golden("profile_export_aiperf.json", text);
}

TEST(GoldenTest, Csv) {
  Fixture f;
  check_golden("profile_export_aiperf.csv", render_summary_csv(f.profiling));
}

TEST(GoldenTest, RecordsJsonl) {
  Fixture f;
  std::string out;
  for (const auto& r : f.records) append_record_line(r, f.ctx.anchor, &out);
  EXPECT_EQ(out.find("sk-abcdefghijklmnop"), std::string::npos);
  check_golden("profile_export.jsonl", out);
}

TEST(GoldenTest, Timeslices) {
  Fixture f;
  std::vector<const record::RequestRecord*> prof;
  for (const auto& r : f.records) {
    if (r.phase == record::Phase::kProfiling) prof.push_back(&r);
  }
  metrics::SummaryOptions o;
  o.anchor = f.ctx.anchor;
  auto slices = metrics::summarize_slices(prof, 250'000'000, o);
  check_golden("profile_export_aiperf_timeslices.csv", render_timeslices_csv(slices, f.ctx.anchor));
}

}  // namespace
}  // namespace servebench::exporter
