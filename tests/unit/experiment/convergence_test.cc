// --convergence-mode distribution (experiment/convergence.h): the KS statistic, the Kolmogorov
// p-value against series values, its false-alarm rate and power on seeded samples, and the
// records reader (profiling phase, no errors).
#include "experiment/convergence.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace servebench::experiment {
namespace {

namespace fs = std::filesystem;

// Deterministic normal samples (splitmix64 + Box-Muller).
class Normal {
 public:
  explicit Normal(uint64_t seed) : s_(seed) {}
  double operator()(double mean, double sd) {
    const double u1 = (static_cast<double>(next() >> 11) + 0.5) / 9007199254740992.0;
    const double u2 = (static_cast<double>(next() >> 11) + 0.5) / 9007199254740992.0;
    return mean + sd * std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }
  std::vector<double> sample(size_t n, double mean, double sd) {
    std::vector<double> v(n);
    for (auto& x : v) x = (*this)(mean, sd);
    return v;
  }

 private:
  uint64_t next() {
    uint64_t z = (s_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  uint64_t s_;
};

TEST(Convergence, KolmogorovSurvivalMatchesTheSeries) {
  // Values of 2 sum (-1)^(k-1) exp(-2 k^2 l^2), summed to 200 terms.
  const std::pair<double, double> table[] = {
      {0.5, 0.9639452436648751},  {0.8, 0.5441424115741981},   {1.0, 0.26999967167735456},
      {1.2, 0.11224966667072496}, {1.36, 0.049485876755377876}, {1.63, 0.009846364888486529},
      {2.0, 0.0006709252557796953}};
  for (const auto& [l, q] : table) EXPECT_NEAR(kolmogorov_survival(l), q, 1e-12) << l;
  EXPECT_EQ(kolmogorov_survival(0), 1.0);
  EXPECT_NEAR(kolmogorov_survival(0.1), 1.0, 1e-12);
  // Both forms (theta series below 1.18, alternating series above) match the series there,
  // and the small-lambda form where the alternating series converges slowly.
  EXPECT_NEAR(kolmogorov_survival(1.17999), 0.12345963244665298, 1e-12);
  EXPECT_NEAR(kolmogorov_survival(1.18001), 0.12344798663759575, 1e-12);
  EXPECT_NEAR(kolmogorov_survival(0.3), 0.9999906941986655, 1e-12);
}

TEST(Convergence, KsStatistic) {
  EXPECT_DOUBLE_EQ(ks_statistic({1, 2, 3}, {4, 5, 6}), 1.0);
  EXPECT_DOUBLE_EQ(ks_statistic({1, 2, 3}, {3, 2, 1}), 0.0);
  EXPECT_DOUBLE_EQ(ks_statistic({1, 2, 3, 4}, {3, 4, 5, 6}), 0.5);
  // Ties across the samples count together: after 2, F_a = 1 and F_b = 1/2 (before it, 1/3 and 0).
  EXPECT_NEAR(ks_statistic({1, 2, 2}, {2, 3}), 0.5, 1e-12);
  EXPECT_NEAR(ks_statistic({1, 1, 3}, {1, 2, 3, 4}), 2.0 / 3.0 - 0.25, 1e-12);
  EXPECT_DOUBLE_EQ(ks_p_value(0, 50, 50), 1.0);
  // n = m = 100, D = 0.2: ne = 50, lambda = (sqrt(50) + 0.12 + 0.11/sqrt(50)) * 0.2.
  const double lambda = (std::sqrt(50.0) + 0.12 + 0.11 / std::sqrt(50.0)) * 0.2;
  EXPECT_NEAR(ks_p_value(0.2, 100, 100), kolmogorov_survival(lambda), 1e-15);
  EXPECT_NEAR(ks_p_value(0.2, 100, 100), 0.0314, 2e-4);
}

// Same distribution: p <= 0.05 in about 5% of seeded repetitions; a shift of half a standard
// deviation is found almost always.
TEST(Convergence, FalseAlarmRateAndPower) {
  Normal rng(2026);
  int alarms = 0, found = 0;
  const int reps = 1000;
  for (int r = 0; r < reps; ++r) {
    const auto a = rng.sample(200, 100, 5);
    const auto b = rng.sample(150, 100, 5);
    alarms += ks_p_value(ks_statistic(a, b), a.size(), b.size()) <= 0.05 ? 1 : 0;
    const auto c = rng.sample(150, 102.5, 5);
    found += ks_p_value(ks_statistic(a, c), a.size(), c.size()) <= 0.05 ? 1 : 0;
  }
  const double rate = static_cast<double>(alarms) / reps;
  std::printf("KS p <= 0.05: %d of %d same-distribution pairs, %d of %d shifted pairs\n", alarms,
              reps, found, reps);
  EXPECT_GT(rate, 0.025) << rate;
  EXPECT_LT(rate, 0.07) << rate;
  EXPECT_GT(static_cast<double>(found) / reps, 0.9) << found;
}

std::string record(const char* phase, bool error, double ttft) {
  return std::string(R"({"metadata":{"benchmark_phase":")") + phase + R"("},"metrics":{)" +
         R"("time_to_first_token":{"value":)" + std::to_string(ttft) + R"(,"unit":"ms"}},)" +
         (error ? R"("error":{"code":500,"type":"http","message":"x"}})" : R"("error":null})");
}

Trial write_trial(const fs::path& dir, const std::vector<double>& values) {
  fs::create_directories(dir);
  std::ofstream out(dir / "profile_export.jsonl");
  out << record("warmup", false, 1e6) << "\n";
  out << record("profiling", true, 1e6) << "\n";
  for (double v : values) out << record("profiling", false, v) << "\n";
  Trial t;
  t.ok = true;
  t.artifact_dir = dir.string();
  return t;
}

TEST(Convergence, ReadsProfilingRecordsWithoutErrors) {
  const fs::path dir = fs::path(testing::TempDir()) / "conv_reader";
  const Trial t = write_trial(dir, {10, 11, 12});
  const auto v = read_record_values((dir / "profile_export.jsonl").string(), "time_to_first_token");
  EXPECT_EQ(v, (std::vector<double>{10, 11, 12}));
  EXPECT_TRUE(read_record_values((dir / "profile_export.jsonl").string(), "inter_token_latency")
                  .empty());
  EXPECT_TRUE(read_record_values((dir / "missing.jsonl").string(), "time_to_first_token").empty());
}

TEST(Convergence, LatestTrialAgainstTheEarlierOnes) {
  const fs::path root = fs::path(testing::TempDir()) / "conv_trials";
  Normal rng(7);
  std::vector<Trial> same = {write_trial(root / "a1", rng.sample(200, 100, 5)),
                             write_trial(root / "a2", rng.sample(200, 100, 5))};
  EXPECT_FALSE(distribution_converged(same, "time_to_first_token", 0.05, "profile_export.jsonl"))
      << "needs 3 trials";
  same.push_back(write_trial(root / "a3", rng.sample(200, 100, 5)));
  EXPECT_TRUE(distribution_converged(same, "time_to_first_token", 0.05, "profile_export.jsonl"));
  std::vector<Trial> shifted = same;
  shifted.back() = write_trial(root / "b3", rng.sample(200, 110, 5));
  EXPECT_FALSE(distribution_converged(shifted, "time_to_first_token", 0.05, "profile_export.jsonl"));
  // A failed trial does not count.
  std::vector<Trial> failed = {same[0], same[1], Trial{}};
  EXPECT_FALSE(distribution_converged(failed, "time_to_first_token", 0.05, "profile_export.jsonl"));
}

}  // namespace
}  // namespace servebench::experiment
