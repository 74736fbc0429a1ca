// Independent recomputation: write artifacts for a few hundred varied records, read back
// profile_export.jsonl, recompute every distribution with separate, deliberately simple code
// (full sort, textbook type-7 interpolation, two-pass population std) and compare with
// profile_export_aiperf.json. Also checks counts, benchmark_duration and request_throughput.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "export/artifacts.h"
#include "unit/metrics/record_fixtures.h"

namespace servebench::exporter {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

struct Ref {
  double avg, min, max, sum, std;
  std::map<std::string, double> p;
  size_t count;
};

Ref reference_stats(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  Ref r{};
  r.count = v.size();
  r.min = v.front();
  r.max = v.back();
  for (double x : v) r.sum += x;
  r.avg = r.sum / v.size();
  double var = 0;
  for (double x : v) var += (x - r.avg) * (x - r.avg);
  r.std = std::sqrt(var / v.size());
  for (int q : {1, 5, 10, 25, 50, 75, 90, 95, 99}) {
    double pos = (v.size() - 1) * (q / 100.0);
    size_t i = static_cast<size_t>(pos);
    double f = pos - i;
    r.p["p" + std::to_string(q)] = i + 1 < v.size() ? v[i] * (1 - f) + v[i + 1] * f : v[i];
  }
  return r;
}

void expect_close(double a, double b, const std::string& what) {
  EXPECT_NEAR(a, b, std::abs(b) * 1e-9 + 1e-9) << what;
}

fs::path temp_dir(const std::string& name) {
  fs::path p = fs::temp_directory_path() / ("sb_export_test_" + name + "_" +
                                            std::to_string(::getpid()));
  fs::remove_all(p);
  return p;
}

TEST(RecomputeTest, JsonlAgreesWithSummaryJson) {
  using servebench::testing::StreamSpec;
  std::mt19937_64 rng(7);
  std::vector<record::RequestRecord> recs;
  const int64_t ms = 1'000'000;
  for (int i = 0; i < 300; ++i) {
    if (i % 37 == 5) {
      recs.push_back(servebench::testing::make_error_record(
          recs.size(), 1000 * ms + i * 3 * ms, record::ErrorKind::kHttpStatus, 500, "x"));
      continue;
    }
    StreamSpec s;
    s.start_ns = 1000 * ms + i * 3 * ms + static_cast<int64_t>(rng() % 1000);
    s.intended_ns = s.start_ns - static_cast<int64_t>(rng() % 500000);
    s.ttft_ns = static_cast<int64_t>(rng() % 200'000'000) + 1;
    const int chunks = static_cast<int>(rng() % 12);
    for (int c = 0; c < chunks; ++c) s.gaps_ns.push_back(static_cast<int64_t>(rng() % 30'000'000));
    for (int c = 0; c <= chunks; ++c) s.chunk_tokens.push_back(static_cast<int32_t>(rng() % 4 + 1));
    s.input_tokens = static_cast<int64_t>(rng() % 4000 + 1);
    s.reasoning_chunks = i % 5 == 0 ? 1 : 0;
    s.requested_output_tokens = 10;
    recs.push_back(servebench::testing::make_stream_record(recs.size(), s));
  }
  RunContext ctx;
  ctx.anchor = {0, 1'700'000'000'000'000'000};
  ExportOptions opt;
  opt.artifact_dir = temp_dir("recompute").string();
  opt.print_console = false;
  auto out = write_artifacts(recs, ctx, opt);
  ASSERT_TRUE(out) << out.error().message;

  std::ifstream jf(fs::path(opt.artifact_dir) / "profile_export_aiperf.json");
  json summary = json::parse(jf);
  std::ifstream lf(fs::path(opt.artifact_dir) / "profile_export.jsonl");
  std::map<std::string, std::vector<double>> values;
  std::string line;
  size_t ok = 0, errors = 0;
  int64_t min_start = INT64_MAX;
  double max_end = 0;
  while (std::getline(lf, line)) {
    json j = json::parse(line);
    if (j["metadata"]["benchmark_phase"] != "profiling" || j["metadata"]["was_cancelled"]) continue;
    if (!j["error"].is_null()) {
      ++errors;
    } else {
      ++ok;
      const int64_t start = j["metadata"]["request_start_ns"].get<int64_t>();
      min_start = std::min(min_start, start);
      max_end = std::max(max_end, start + j["metrics"]["request_latency"]["value"].get<double>() * 1e6);
    }
    for (auto& [tag, mv] : j["metrics"].items()) {
      if (mv["value"].is_array()) {
        for (auto& x : mv["value"]) values[tag].push_back(x.get<double>());
      } else {
        values[tag].push_back(mv["value"].get<double>());
      }
    }
  }
  EXPECT_EQ(summary["request_count"]["avg"].get<double>(), static_cast<double>(ok));
  EXPECT_EQ(summary["error_request_count"]["avg"].get<double>(), static_cast<double>(errors));
  const double duration_s = (max_end - static_cast<double>(min_start)) / 1e9;
  EXPECT_NEAR(summary["benchmark_duration"]["avg"].get<double>(), duration_s, 1e-6);
  EXPECT_NEAR(summary["request_throughput"]["avg"].get<double>(), ok / duration_s,
              ok / duration_s * 1e-6);

  ASSERT_GT(values.size(), 15u);
  for (auto& [tag, v] : values) {
    SCOPED_TRACE(tag);
    ASSERT_TRUE(summary.contains(tag));
    const json& m = summary[tag];
    Ref r = reference_stats(v);
    EXPECT_EQ(m["count"].get<size_t>(), r.count);
    expect_close(m["avg"].get<double>(), r.avg, "avg");
    expect_close(m["min"].get<double>(), r.min, "min");
    expect_close(m["max"].get<double>(), r.max, "max");
    expect_close(m["sum"].get<double>(), r.sum, "sum");
    expect_close(m["std"].get<double>(), r.std, "std");
    for (auto& [name, pv] : r.p) expect_close(m[name].get<double>(), pv, name);
  }
  // ICL came back as lists and was recomputed too.
  EXPECT_TRUE(values.count("inter_chunk_latency"));
  fs::remove_all(opt.artifact_dir);
}

}  // namespace
}  // namespace servebench::exporter
