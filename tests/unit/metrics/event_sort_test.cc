#include "metrics/event_sort.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <cstring>
#include <random>

namespace servebench::metrics {
namespace {

bool reference_less(const SweepEvent& a, const SweepEvent& b) {
  if (a.t != b.t) return a.t < b.t;
  if ((a.delta > 0) != (b.delta > 0)) return b.delta > 0;
  return a.delta < b.delta;
}

// Equal as the sweep reads them: same times (-0 == +0) and same deltas, in the same order.
void expect_same_order(const std::vector<SweepEvent>& got, const std::vector<SweepEvent>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_EQ(got[i].t, want[i].t) << "at " << i;
    ASSERT_EQ(got[i].delta, want[i].delta) << "at " << i;
  }
}

// sort_sweep_events gives what std::sort with the reference comparator gives.
void expect_sorts_like_std_sort(std::vector<SweepEvent> ev) {
  std::vector<SweepEvent> want = ev;
  std::sort(want.begin(), want.end(), reference_less);
  sort_sweep_events(&ev);
  expect_same_order(ev, want);
}

// The same, compared as bytes: every time and delta comes back bit for bit.
void expect_sorts_bit_for_bit(std::vector<SweepEvent> ev) {
  std::vector<SweepEvent> want = ev;
  std::sort(want.begin(), want.end(), reference_less);
  sort_sweep_events(&ev);
  ASSERT_EQ(ev.size(), want.size());
  EXPECT_EQ(std::memcmp(ev.data(), want.data(), ev.size() * sizeof(SweepEvent)), 0);
}

std::vector<SweepEvent> random_events(size_t n, uint32_t seed, double time_span) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> t(-time_span / 4, time_span);
  std::uniform_int_distribution<int> coarse(0, 200);  // many equal times, as integer ns give
  std::uniform_real_distribution<double> d(-5, 5);
  std::vector<SweepEvent> ev;
  for (size_t i = 0; i < n; ++i) {
    const double time = (i % 3 == 0) ? static_cast<double>(coarse(rng)) : std::round(t(rng));
    ev.push_back({time, (i % 7 == 0) ? 1.0 : d(rng)});
  }
  return ev;
}

TEST(SweepEventSort, MatchesComparisonSortOnLargeInputs) {
  for (uint32_t seed : {1u, 2u, 3u}) {
    for (double span : {1e3, 1e9, 1e13}) {
      std::vector<SweepEvent> ev = random_events(20000, seed, span);
      expect_sorts_like_std_sort(ev);
    }
  }
}

// The radix passes carry each time as its order key in the events' own storage: every finite
// time (denormals, huge, negative, one ulp apart) and every delta must come back bit for bit.
TEST(SweepEventSort, TimesAndDeltasComeBackBitForBit) {
  std::mt19937_64 rng(7);
  std::vector<SweepEvent> ev;
  for (size_t i = 0; i < 5000; ++i) {
    uint64_t bits = rng();
    double t;
    std::memcpy(&t, &bits, sizeof t);
    if (!std::isfinite(t) || t == 0) t = std::nextafter(static_cast<double>(i), 1e300);
    if (i % 5 == 0) t = std::numeric_limits<double>::denorm_min() * static_cast<double>(i % 11);
    if (t == 0) t = 0;  // +0 only: a -0 comes back as +0, which the sweep reads the same
    double delta;
    bits = rng();
    std::memcpy(&delta, &bits, sizeof delta);
    if (std::isnan(delta)) delta = -1;
    ev.push_back({t, delta});
  }
  expect_sorts_bit_for_bit(ev);
}

TEST(SweepEventSort, NegativeZeroAndFractionalTimesOrderAsDoubles) {
  std::vector<SweepEvent> ev = random_events(4000, 9, 1e6);
  ev.push_back({-0.0, 2});
  ev.push_back({0.0, -2});
  ev.push_back({std::nextafter(1000.0, 0.0), 1});
  ev.push_back({1000.0, -1});
  ev.push_back({-1e-300, 1});
  expect_sorts_like_std_sort(ev);
}

TEST(SweepEventSort, DecrementsComeFirstAtEqualTimes) {
  std::vector<SweepEvent> ev;
  for (int i = 0; i < 1000; ++i) {
    ev.push_back({5.0, 1});
    ev.push_back({5.0, -1});
  }
  sort_sweep_events(&ev);
  for (size_t i = 0; i < 1000; ++i) EXPECT_EQ(ev[i].delta, -1) << i;
  for (size_t i = 1000; i < 2000; ++i) EXPECT_EQ(ev[i].delta, 1) << i;
}

// Bucket widths follow the range of times: clusters crowd a few buckets (std::sort inside), far
// outliers stretch the range, and a range too small to divide falls back to one comparison sort.
TEST(SweepEventSort, ClusteredOutlyingAndTinyRanges) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<std::vector<SweepEvent>> cases(4);
  for (size_t i = 0; i < 6000; ++i) {
    const double delta = u(rng) < 0.5 ? -1.0 : std::round(u(rng) * 8);
    cases[0].push_back({std::round(u(rng) * 50), delta});                       // 51 distinct times
    cases[1].push_back({i % 100 == 0 ? 1e12 * u(rng) : 1e6 + u(rng), delta});  // a cluster, outliers
    cases[2].push_back({std::numeric_limits<double>::denorm_min() * static_cast<double>(i % 7), delta});
    cases[3].push_back({i < 3000 ? -3e9 : 3e9, delta});                         // two times
  }
  for (std::vector<SweepEvent>& ev : cases) {
    expect_sorts_like_std_sort(ev);
  }
}

// Events move whole: in the bucket path too, every bit of every time and delta comes back.
TEST(SweepEventSort, BucketPathKeepsEveryBit) {
  std::mt19937_64 rng(5);
  std::vector<SweepEvent> ev;
  for (size_t i = 0; i < 20000; ++i) {
    const double t = std::ldexp(static_cast<double>(rng() >> 11), -20);  // [0, 2^33), fractional
    uint64_t bits = rng();
    double delta;
    std::memcpy(&delta, &bits, sizeof delta);
    if (std::isnan(delta) || delta == 0) delta = 1;
    ev.push_back({i % 9 == 0 ? std::round(t / 1e6) * 1e6 : t, delta});
  }
  expect_sorts_bit_for_bit(ev);
}

TEST(SweepEventSort, SmallInputs) {
  std::vector<SweepEvent> ev = {{3, 1}, {1, -1}, {2, 1}, {1, 1}};
  sort_sweep_events(&ev);
  expect_same_order(ev, {{1, -1}, {1, 1}, {2, 1}, {3, 1}});
  std::vector<SweepEvent> none;
  sort_sweep_events(&none);
  EXPECT_TRUE(none.empty());
}

}  // namespace
}  // namespace servebench::metrics
