// Shared endpoint behaviour end to end against servebench-mock: tool calls counted as output
// text, the server's usage (prefix-cache hits included) exported as usage_* metrics and read
// back by `servebench report`, URL path prefixes and --endpoint, and the option-combination
// matrix through the CLI (every registered type; a refused combination exits 2 with one line).
#include <algorithm>
#include <fstream>
#include <functional>

#include "config/cli_options.h"
#include "endpoints/registry.h"
#include "integration/mock/mock_harness.h"
#include "integration/profile/harness.h"

namespace servebench::itest {
namespace {

const std::vector<std::string> kChat = {"-m", "mock-model", "--tokenizer", "simple", "--isl", "16",
                                        "--osl", "8", "--random-seed", "3"};

std::vector<std::string> chat(std::vector<std::string> extra) {
  std::vector<std::string> a = kChat;
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

int run_report(const std::string& artifact_dir) {
  const std::vector<std::string> argv = {bin_dir() + "/servebench", "report", artifact_dir, "-q"};
  pid_t pid = spawn(argv, -1, -1);
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

void expect_tool_call_run(bool streaming) {
  const std::string dir = make_temp_dir(streaming ? "toolcalls-s" : "toolcalls");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--tool-calls", "--cached-tokens", "4"}));
  std::vector<std::string> extra = {"-u", mock.url(), "--request-count", "6", "--concurrency", "2"};
  // A streamed answer carries usage only when asked (stream_options.include_usage, which every
  // streamed run sends, as AIPerf 0.13 does); the server's counts are the ISL/OSL here.
  if (streaming) extra.insert(extra.end(), {"--streaming", "--use-server-token-count"});
  auto r = run_profile(dir, chat(extra));
  mock.stop();
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const auto records = r.records();
  ASSERT_EQ(records.size(), 6u);
  double prompt_sum = 0, cached_sum = 0;
  for (const auto& rec : records) {
    ASSERT_TRUE(rec["error"].is_null()) << rec.dump();
    const auto& m = rec["metrics"];
    // The call's name and arguments are the output: counted by the client tokenizer.
    ASSERT_TRUE(m.contains("output_token_count")) << rec.dump();
    EXPECT_GT(m["output_token_count"]["value"].get<double>(), 0);
    const std::string kinds = rec["servebench"].value("chunk_kinds", std::string());
    EXPECT_NE(kinds.find('t'), std::string::npos) << kinds;
    EXPECT_EQ(kinds.find('c'), std::string::npos) << "no content chunks: " << kinds;
    // The mock's usage, with its prefix-cache hits.
    ASSERT_TRUE(m.contains("usage_prompt_cache_read_tokens")) << rec.dump();
    EXPECT_EQ(m["usage_prompt_cache_read_tokens"]["value"].get<double>(), 4);
    prompt_sum += m["usage_prompt_tokens"]["value"].get<double>();
    cached_sum += m["usage_prompt_cache_read_tokens"]["value"].get<double>();
    if (streaming) {
      EXPECT_TRUE(m.contains("time_to_first_token"));
    }
  }
  const auto summary = r.summary();
  EXPECT_EQ(metric_avg(summary, "total_usage_prompt_tokens"), prompt_sum);
  EXPECT_EQ(metric_avg(summary, "total_usage_prompt_cache_read_tokens"), cached_sum);
  EXPECT_NEAR(metric_avg(summary, "overall_usage_prompt_cache_read_pct"),
              100.0 * cached_sum / prompt_sum, 1e-9);
  EXPECT_FALSE(summary.contains("usage_prompt_cache_write_tokens")) << "not reported by the mock";
  const std::string console = read_file(r.artifact_dir + "/profile_export_console.txt");
  EXPECT_NE(console.find("Metrics: Usage"), std::string::npos) << console;
  EXPECT_NE(console.find("Overall Usage Prompt Cache Read %"), std::string::npos) << console;
  EXPECT_EQ(console.find("enable-prompt-tokens-details"), std::string::npos)
      << "cached tokens were reported: no hint";
  const std::string csv = read_file(r.artifact_dir + "/profile_export_aiperf.csv");
  EXPECT_NE(csv.find("Usage Prompt Cache Read Tokens"), std::string::npos) << csv;

  // `servebench report` recomputes the same usage numbers from the JSONL.
  ASSERT_EQ(run_report(r.artifact_dir), 0);
  const auto again = r.summary();
  for (const char* tag : {"usage_prompt_tokens", "usage_prompt_cache_read_tokens",
                          "usage_completion_tokens", "total_usage_prompt_cache_read_tokens",
                          "overall_usage_prompt_cache_read_pct", "output_token_count"}) {
    if (!summary.contains(tag)) continue;
    EXPECT_EQ(again.at(tag), summary.at(tag)) << tag;
  }
}

TEST(ToolCalls, StreamedFunctionCallsAreOutputWithCacheUsage) { expect_tool_call_run(true); }
TEST(ToolCalls, WholeBodyFunctionCallsAreOutputWithCacheUsage) { expect_tool_call_run(false); }

TEST(UsageConsole, HintsWhenUsageComesWithoutCacheReads) {
  const std::string dir = make_temp_dir("usage-hint");
  Server mock;
  ASSERT_TRUE(mock.start_mock({}));
  auto r = run_profile(dir, chat({"-u", mock.url(), "--request-count", "2"}));
  mock.stop();
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const auto summary = r.summary();
  EXPECT_TRUE(summary.contains("usage_prompt_tokens"));
  EXPECT_FALSE(summary.contains("overall_usage_prompt_cache_read_pct"));
  const std::string console = read_file(r.artifact_dir + "/profile_export_console.txt");
  EXPECT_NE(console.find("enable-prompt-tokens-details"), std::string::npos) << console;
}

// A proxy mount point in --url, and --endpoint overriding the type's path.
TEST(Paths, UrlPathPrefixAndCustomEndpoint) {
  const std::string dir = make_temp_dir("paths");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--path-prefix", "/proxy", "--record-requests", dir + "/rec.jsonl"}));
  // 1. The prefix in the URL, with and without the SDK-style /v1 (not doubled).
  for (const std::string base : {"/proxy", "/proxy/v1", "/proxy/v1/chat/completions"}) {
    auto r = run_profile(dir, chat({"-u", mock.url() + base, "--request-count", "2"}));
    ASSERT_EQ(r.exit_code, 0) << base << ": " << r.stderr_text;
    EXPECT_EQ(metric_avg(r.summary(), "request_count"), 2) << base;
    fs::remove_all(r.artifact_root);
  }
  // 2. --endpoint (and its alias) replace the default path.
  for (const std::string flag : {"--endpoint", "--custom-endpoint"}) {
    auto r = run_profile(dir, chat({"-u", mock.url(), flag, "/proxy/v1/chat/completions",
                                    "--request-count", "2"}));
    ASSERT_EQ(r.exit_code, 0) << flag << ": " << r.stderr_text;
    EXPECT_EQ(metric_avg(r.summary(), "request_count"), 2) << flag;
    fs::remove_all(r.artifact_root);
  }
  // 3. A path outside the prefix: every request is a recorded 404, not a crash.
  auto bad = run_profile(dir, chat({"-u", mock.url(), "--request-count", "2"}));
  EXPECT_EQ(bad.exit_code, 3) << bad.stderr_text;
  mock.stop();
  const auto sent = read_jsonl(dir + "/rec.jsonl");
  size_t under_prefix = 0;
  for (const auto& s : sent) {
    if (s.value("path", std::string()) == "/proxy/v1/chat/completions") ++under_prefix;
  }
  EXPECT_EQ(under_prefix, 10u) << "3 URL forms and 2 flags, 2 requests each";
}

// The option matrix through the CLI: each refused combination exits 2 with one stderr line
// naming the flag; each accepted one passes the same config checks the CLI runs.
TEST(OptionMatrixCli, EveryRegisteredTypeEveryOption) {
  const std::string dir = make_temp_dir("option-matrix");
  {
    std::ofstream trace(dir + "/trace.jsonl");
    trace << R"({"timestamp": 0, "input_length": 8, "output_length": 4})" << "\n"
          << R"({"timestamp": 10, "input_length": 8, "output_length": 4})" << "\n";
  }
  struct Case {
    std::string flag;
    std::vector<std::string> args;
    std::function<void(endpoints::OptionFacts*)> set;
  };
  const std::vector<Case> cases = {
      {"--streaming", {"--streaming"}, [](auto* f) { f->streaming = true; }},
      {"--cache-bust", {"--cache-bust", "first_turn_prefix"}, [](auto* f) { f->cache_bust = true; }},
      {"--session-turns-mean", {"--session-turns-mean", "3"}, [](auto* f) { f->multi_turn = true; }},
      {"--warmup", {"--warmup-request-count", "2"}, [](auto* f) { f->warmup = true; }},
      {"--fixed-schedule",
       {"--input-file", dir + "/trace.jsonl", "--custom-dataset-type", "mooncake_trace",
        "--fixed-schedule"},
       [](auto* f) {
         f->fixed_schedule = true;
         f->input_file = true;
       }},
      {"--batch-size", {"--batch-size", "4"}, [](auto* f) { f->batch_size = 4; }},
  };
  int refused = 0;
  for (const endpoints::EndpointSpec* spec : endpoints::registered_specs()) {
    // A type that needs an --input-file of its own kind even without options (`raw`) is covered
    // by the unit matrix, which gives every type a file.
    if (!endpoints::check_options(*spec, endpoints::OptionFacts{}).has_value()) continue;
    for (const Case& c : cases) {
      endpoints::OptionFacts facts;
      c.set(&facts);
      const bool accepted = endpoints::check_options(*spec, facts).has_value();
      std::vector<std::string> args = {"-m", "m", "-u", "http://127.0.0.1:9", "--endpoint-type",
                                       std::string(spec->name)};
      args.insert(args.end(), c.args.begin(), c.args.end());
      const std::string where = std::string(spec->name) + " " + c.flag;
      if (accepted) {
        std::vector<std::string> full = {"profile"};
        full.insert(full.end(), args.begin(), args.end());
        std::vector<const char*> argv;
        for (const auto& a : full) argv.push_back(a.c_str());
        auto parsed = config::parse_profile_args(static_cast<int>(argv.size()), argv.data());
        EXPECT_TRUE(parsed.has_value()) << where << ": " << (parsed ? "" : parsed.error().message);
        continue;
      }
      ++refused;
      auto r = run_profile(dir, args, 10);
      EXPECT_EQ(r.exit_code, 2) << where << ": " << r.stderr_text;
      EXPECT_EQ(std::count(r.stderr_text.begin(), r.stderr_text.end(), '\n'), 1)
          << where << ": " << r.stderr_text;
      EXPECT_NE(r.stderr_text.find(c.flag), std::string::npos) << where << ": " << r.stderr_text;
      EXPECT_LT(r.wall_s, 3.0) << where;
    }
  }
  EXPECT_GT(refused, 0);
}

}  // namespace
}  // namespace servebench::itest
