// write_artifacts(): file set per export level and prefix, validity (no NaN/Infinity), gates,
// secrets, bad options, folder naming.
#include "export/artifacts.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include "core/secrets.h"
#include "unit/metrics/record_fixtures.h"

namespace servebench::exporter {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

fs::path temp_dir(const std::string& name) {
  fs::path p = fs::temp_directory_path() /
               ("sb_artifacts_test_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(p);
  return p;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

RunContext context() {
  // As a run does at start-up (config/redaction.h): the key, the -H Authorization value and the
  // credential a failing record's error message echoes are registered secrets.
  core::secrets::add("sk-supersecretvalue0123456789");
  core::secrets::add("Bearer hunter2hunter2");
  core::secrets::add("sk-abcdefghijklmnopqrstuv");
  RunContext c;
  c.model = "org/model";
  c.endpoint_type = "chat";
  c.anchor = {0, 1'700'000'000'000'000'000};
  c.cli_command = "servebench profile --api-key sk-supersecretvalue0123456789 -H 'Authorization: Bearer hunter2hunter2'";
  c.input_config_json = R"({"api_key":"sk-supersecretvalue0123456789","headers":{"Authorization":"Bearer hunter2hunter2"}})";
  c.warnings = {"engine said Authorization: Bearer hunter2hunter2"};
  return c;
}

TEST(ArtifactsTest, DefaultNamesAndValidJson) {
  auto recs = servebench::testing::golden_records();
  ExportOptions o;
  o.artifact_dir = temp_dir("default").string();
  o.print_console = false;
  o.slice_duration_ns = 200'000'000;
  o.level = ExportLevel::kRaw;
  auto out = write_artifacts(recs, context(), o);
  ASSERT_TRUE(out) << out.error().message;
  EXPECT_EQ(out->request_count, 6);
  EXPECT_EQ(out->error_request_count, 2);
  EXPECT_FALSE(out->gate_failed);
  for (const char* name :
       {"profile_export_aiperf.json", "profile_export_aiperf.csv", "profile_export.jsonl",
        "profile_export_raw.jsonl", "profile_export_aiperf_timeslices.json",
        "profile_export_aiperf_timeslices.csv", "profile_export_console.txt"}) {
    const fs::path p = fs::path(o.artifact_dir) / name;
    ASSERT_TRUE(fs::exists(p)) << name;
    const std::string text = slurp(p);
    // No NaN/Infinity literals anywhere, and no secrets.
    EXPECT_EQ(text.find("NaN"), std::string::npos) << name;
    EXPECT_EQ(text.find("Infinity"), std::string::npos) << name;
    EXPECT_EQ(text.find("supersecret"), std::string::npos) << name;
    EXPECT_EQ(text.find("hunter2"), std::string::npos) << name;
    EXPECT_EQ(text.find("sk-abcdefghijklmnop"), std::string::npos) << name;
    if (std::string(name).find(".json") != std::string::npos) {
      std::istringstream lines(text);
      std::string line;
      if (std::string(name).find(".jsonl") != std::string::npos) {
        size_t n = 0;
        while (std::getline(lines, line)) {
          EXPECT_NO_THROW({ auto j = json::parse(line); (void)j; }) << name;
          ++n;
        }
        EXPECT_EQ(n, recs.size()) << name;  // cancelled and warm-up records are kept
      } else {
        EXPECT_NO_THROW({ auto j = json::parse(text); (void)j; }) << name;
      }
    }
  }
  json j = json::parse(slurp(fs::path(o.artifact_dir) / "profile_export_aiperf.json"));
  // adj_* with failures: avg is infinite and written as null; std omitted.
  EXPECT_TRUE(j["adj_request_latency"]["avg"].is_null());
  EXPECT_FALSE(j["adj_request_latency"].contains("std"));
  EXPECT_EQ(j["adj_request_latency"]["count"], 8);
  EXPECT_EQ(j["schema_version"], "1.4");
  EXPECT_TRUE(j.contains("warmup_metrics"));
  EXPECT_EQ(j["warmup_metrics"]["request_count"]["avg"], 1);
  EXPECT_EQ(j["servebench"]["cancelled_request_count"], 1);
  EXPECT_EQ(j["input_config"]["api_key"], "<redacted>");
  EXPECT_EQ(j["request_count"]["unit"], "requests");
  EXPECT_FALSE(j["request_count"].contains("count"));  // scalar metrics: unit + avg only
  // Cancelled record is in the JSONL, marked.
  const std::string jsonl = slurp(fs::path(o.artifact_dir) / "profile_export.jsonl");
  EXPECT_NE(jsonl.find("\"was_cancelled\":true"), std::string::npos);
  fs::remove_all(o.artifact_dir);
}

TEST(ArtifactsTest, PrefixAndSummaryLevel) {
  auto recs = servebench::testing::golden_records();
  ExportOptions o;
  o.artifact_dir = temp_dir("prefix").string();
  o.profile_export_prefix = "myrun";
  o.level = ExportLevel::kSummary;
  o.print_console = false;
  ASSERT_TRUE(write_artifacts(recs, context(), o));
  EXPECT_TRUE(fs::exists(fs::path(o.artifact_dir) / "myrun.json"));
  EXPECT_TRUE(fs::exists(fs::path(o.artifact_dir) / "myrun.csv"));
  EXPECT_TRUE(fs::exists(fs::path(o.artifact_dir) / "myrun_console.txt"));
  EXPECT_FALSE(fs::exists(fs::path(o.artifact_dir) / "myrun.jsonl"));  // summary level
  EXPECT_FALSE(fs::exists(fs::path(o.artifact_dir) / "profile_export_aiperf.json"));
  fs::remove_all(o.artifact_dir);
}

TEST(ArtifactsTest, FailOnGate) {
  auto recs = servebench::testing::golden_records();
  ExportOptions o;
  o.artifact_dir = temp_dir("gate").string();
  o.print_console = false;
  o.fail_on = "request_error_rate>1 time_to_first_token.p99>500";
  auto out = write_artifacts(recs, context(), o);
  ASSERT_TRUE(out);
  EXPECT_TRUE(out->gate_failed);  // 25 % errors
  ASSERT_EQ(out->gate_messages.size(), 2u);
  EXPECT_NE(out->gate_messages[0].find("FAILED"), std::string::npos);
  EXPECT_NE(out->gate_messages[1].find("passed"), std::string::npos);
  EXPECT_TRUE(fs::exists(fs::path(o.artifact_dir) / "profile_export_aiperf.json"));  // written anyway
  o.fail_on = "time_to_first_token.p99>79";  // p99 = 79.1 ms in display units
  EXPECT_TRUE(write_artifacts(recs, context(), o)->gate_failed);
  o.fail_on = "time_to_first_token.p99>80";
  EXPECT_FALSE(write_artifacts(recs, context(), o)->gate_failed);
  fs::remove_all(o.artifact_dir);
}

TEST(ArtifactsTest, BadOptionsAreUsageErrors) {
  auto recs = servebench::testing::golden_records();
  ExportOptions o;
  o.artifact_dir = temp_dir("bad").string();
  o.print_console = false;
  o.goodput = "ttft:5";
  auto out = write_artifacts(recs, context(), o);
  ASSERT_FALSE(out);
  EXPECT_TRUE(out.error().is_usage());
  o.goodput = "";
  o.fail_on = "p99>5";
  EXPECT_FALSE(write_artifacts(recs, context(), o));
}

TEST(ArtifactsTest, EmptyRunStillWritesFiles) {
  ExportOptions o;
  o.artifact_dir = temp_dir("empty").string();
  o.print_console = false;
  auto out = write_artifacts({}, context(), o);
  ASSERT_TRUE(out);
  json j = json::parse(slurp(fs::path(o.artifact_dir) / "profile_export_aiperf.json"));
  EXPECT_EQ(j["request_count"]["avg"], 0);
  fs::remove_all(o.artifact_dir);
}

TEST(ArtifactsTest, InputsJson) {
  auto recs = servebench::testing::golden_records();
  RunContext c = context();
  c.inputs = {{"s0", {R"({"model":"m","messages":[{"role":"user","content":"hi"}],"max_tokens":5})",
                      R"({"model":"m","api_key":"sk-supersecretvalue0123456789"})"}},
              {"s1", {"not json"}}};
  ExportOptions o;
  o.artifact_dir = temp_dir("inputs").string();
  o.print_console = false;
  ASSERT_TRUE(write_artifacts(recs, c, o));
  const std::string text = slurp(fs::path(o.artifact_dir) / "inputs.json");
  EXPECT_EQ(text.find("supersecret"), std::string::npos);
  // Payloads are embedded as sent, byte for byte (only the registered secret is replaced).
  EXPECT_NE(text.find(c.inputs[0].payloads_json[0]), std::string::npos) << text;
  json j = json::parse(text);
  ASSERT_EQ(j["data"].size(), 2u);
  EXPECT_EQ(j["data"][0]["session_id"], "s0");
  EXPECT_EQ(j["data"][0]["payloads"][0]["max_tokens"], 5);
  EXPECT_EQ(j["data"][0]["payloads"][1]["api_key"], "<redacted>");
  EXPECT_EQ(j["data"][1]["payloads"][0], "not json");
  // Without inputs, no inputs.json.
  fs::remove_all(o.artifact_dir);
  ASSERT_TRUE(write_artifacts(recs, context(), o));
  EXPECT_FALSE(fs::exists(fs::path(o.artifact_dir) / "inputs.json"));
  fs::remove_all(o.artifact_dir);
}

TEST(ArtifactsTest, DirName) {
  EXPECT_EQ(artifact_dir_name("Qwen/Qwen3-0.6B", "openai-chat", true, "concurrency2"),
            "Qwen_Qwen3-0.6B-openai-chat-concurrency2");
  EXPECT_EQ(artifact_dir_name("m", "openai-completions", false, "request_rate10.0"),
            "m-openai-completions-request_rate10.0");
}

}  // namespace
}  // namespace servebench::exporter
