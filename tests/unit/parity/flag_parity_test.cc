// Flag parity with AIPerf: every `aiperf profile` flag in tests/data/aiperf_profile_flags.txt
// (generated from the real `aiperf profile --help`) is accepted by servebench's flag table, or
// deliberately refused with "not supported yet", or explicitly pending on another area's work.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "config/cli_options.h"
#include "config/flag_table.h"

namespace servebench::config {
namespace {

struct Row {
  std::vector<std::string> names;
  std::string status, sample, note;
  int line = 0;
};

std::vector<std::string> words(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

std::vector<Row> read_rows() {
  std::ifstream f(SB_FLAG_LIST);
  std::vector<Row> rows;
  std::string line;
  for (int n = 1; std::getline(f, line); ++n) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> cols;
    for (size_t at = 0;;) {
      size_t bar = line.find(" | ", at);
      cols.push_back(line.substr(at, bar == std::string::npos ? std::string::npos : bar - at));
      if (bar == std::string::npos) break;
      at = bar + 3;
    }
    EXPECT_EQ(cols.size(), 4u) << "line " << n << ": " << line;
    if (cols.size() != 4) continue;
    rows.push_back({words(cols[0]), cols[1], cols[2], cols[3], n});
  }
  return rows;
}

std::set<std::string> table_names() {
  std::set<std::string> out;
  for (const auto& f : profile_flags())
    for (const auto& n : flag_spellings(f)) out.insert(n);
  return out;
}

Result<ParsedArgs> parse(const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"profile", "-m", "m"};
  args.insert(args.end(), extra.begin(), extra.end());
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  return parse_profile_args(static_cast<int>(argv.size()), argv.data());
}

TEST(FlagParity, ListCoversAiperfProfile) {
  const auto rows = read_rows();
  EXPECT_GE(rows.size(), 250u) << "aiperf 0.13.0 has 264 profile flags";
}

TEST(FlagParity, EveryFlagIsAcceptedRefusedOrPending) {
  const auto names = table_names();
  int accepted = 0, refused = 0, pending = 0;
  for (const auto& r : read_rows()) {
    SCOPED_TRACE("line " + std::to_string(r.line) + ": " + r.names.front());
    if (r.status == "accepted" || r.status == "noop") {
      ++accepted;
      for (const auto& n : r.names) {
        // "-vv" is two -v (a counter flag), as CLI11 reads combined short flags.
        const bool combined = n.size() > 2 && n[1] != '-' && names.count(n.substr(0, 2));
        EXPECT_TRUE(names.count(n) || combined) << n << " is not in the flag table";
      }
      if (r.status == "noop") {
        EXPECT_FALSE(r.note.empty()) << "a noop flag needs its one-line note";
      }
      if (r.sample != "-") {
        auto p = parse(words(r.sample));
        EXPECT_TRUE(p) << r.sample << ": " << (p ? "" : p.error().message);
      }
    } else if (r.status == "refused") {
      ++refused;
      auto p = parse(r.sample == "-" ? std::vector<std::string>{r.names.front()} : words(r.sample));
      ASSERT_FALSE(p);
      EXPECT_NE(p.error().message.find("not supported yet"), std::string::npos) << p.error().message;
    } else if (r.status.rfind("pending:", 0) == 0 && r.status.size() > 8) {
      ++pending;
      EXPECT_FALSE(r.note.empty());
    } else {
      ADD_FAILURE() << "unknown status '" << r.status << "'";
    }
  }
  EXPECT_GT(accepted, 100);
  EXPECT_GE(refused, 7) << "the --accuracy-* flags";
  std::printf("flag parity: %d accepted, %d refused, %d pending\n", accepted, refused, pending);
}

TEST(FlagParity, ParityFlagsLandInTheConfig) {
  auto p = parse({"--warmup-request-count", "3", "--warmup-concurrency", "2", "--warmup-grace-period",
                  "inf", "--model-selection-strategy", "round-robin", "--wait-for-model-timeout", "5",
                  "--wait-for-model-mode", "both", "--server-profiler-stop-path", "/stop",
                  "--failed-request-threshold", "0.5", "--log-level", "debug", "--stats-interval", "0",
                  "--zmq-host", "127.0.0.1"});
  ASSERT_TRUE(p) << p.error().message;
  const auto& c = p->config.parity;
  EXPECT_EQ(c.warmup.concurrency, 2);
  EXPECT_EQ(c.model_selection, ModelSelection::kRoundRobin);
  EXPECT_EQ(c.wait_for_model_timeout_ns, 5'000'000'000);
  EXPECT_EQ(c.wait_for_model_mode, WaitMode::kBoth);
  EXPECT_TRUE(c.server_profiler) << "a profiler path implies --server-profiler";
  EXPECT_EQ(c.server_profiler_stop_path, "/stop");
  EXPECT_EQ(c.failed_request_threshold, 0.5);
  EXPECT_EQ(p->config.verbosity, 2);
  EXPECT_EQ(c.stats_interval_ns, 0);
  ASSERT_EQ(c.internal_flags_given.size(), 1u);
}

TEST(FlagParity, BadCombinationsAreOneLineErrors) {
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"--warmup-concurrency", "2"},
           {"--model-selection-strategy", "weighted"},
           {"--model-weights", "1"},
           {"--failed-request-threshold", "1.5"},
           {"--request-content-type", "multipart/form-data"},
           {"--url-strategy", "least_loaded"},
           {"--server-profiler-start-path", "start"},
           {"--request-rate-series", "/nonexistent/series.json"}}) {
    auto p = parse(args);
    ASSERT_FALSE(p) << args.front();
    EXPECT_EQ(p.error().message.find('\n'), std::string::npos);
    EXPECT_NE(p.error().message.find(args.front().substr(0, 9)), std::string::npos) << p.error().message;
  }
}

TEST(FlagParity, RateSeriesJson) {
  auto ok = parse_rate_series(R"({"points":[{"time_s":0,"qps":5},{"time_s":2.5,"qps":20}]})", "s");
  ASSERT_TRUE(ok) << ok.error().message;
  ASSERT_EQ(ok->size(), 2u);
  EXPECT_EQ((*ok)[1].time_ns, 2'500'000'000);
  EXPECT_TRUE(parse_rate_series(R"([{"time_s":0,"qps":5},{"time_s":1,"qps":6}])", "s")) << "bare array";
  EXPECT_FALSE(parse_rate_series(R"({"points":[{"time_s":0,"qps":5}]})", "s")) << "one point";
  EXPECT_FALSE(parse_rate_series(R"({"points":[{"time_s":1,"qps":5},{"time_s":1,"qps":6}]})", "s"));
  EXPECT_FALSE(parse_rate_series(R"({"points":[{"time_s":0,"qps":0},{"time_s":1,"qps":6}]})", "s"));
  EXPECT_FALSE(parse_rate_series(R"({"points":[],"x":1})", "s"));
  EXPECT_FALSE(parse_rate_series("nope", "s"));
}

}  // namespace
}  // namespace servebench::config
