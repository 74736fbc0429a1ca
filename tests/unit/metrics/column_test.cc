// Column (column.h): whatever mode a column is in, it reads as the vector of every value added.
#include "metrics/column.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace servebench::metrics {
namespace {

uint64_t bits(double v) { return std::bit_cast<uint64_t>(v); }

void expect_same_stats(const Stats& a, const Stats& b) {
  EXPECT_EQ(a.count, b.count);
  EXPECT_EQ(bits(a.sum), bits(b.sum));
  EXPECT_EQ(bits(a.avg), bits(b.avg));
  EXPECT_EQ(bits(a.min), bits(b.min));
  EXPECT_EQ(bits(a.max), bits(b.max));
  EXPECT_EQ(a.has_std, b.has_std);
  if (a.has_std) {
    EXPECT_EQ(bits(a.std), bits(b.std));
  }
  for (size_t i = 0; i < a.p.size(); ++i) EXPECT_EQ(bits(a.p[i]), bits(b.p[i])) << i;
}

// The column's view against the plain vector of the same values.
void expect_reads_as(Column c, std::vector<double> values) {
  ASSERT_EQ(c.size(), values.size());
  EXPECT_EQ(c.copy_values(), values);
  double sum = 0;
  for (double v : values) sum += v;
  EXPECT_EQ(bits(c.sum()), bits(sum));
  size_t above = 0;
  for (double v : values) above += v > 0.5;
  EXPECT_EQ(c.count_above(0.5), above);
  if (values.empty()) return;
  // Both sides start from the add order (selection reorders; min and max of 0.0 and -0.0
  // depend on it).
  Column nearest = c;
  std::vector<double> again = values;
  expect_same_stats(c.stats(PercentileMethod::kLinear), compute_stats(values));
  expect_same_stats(nearest.stats(PercentileMethod::kNearest),
                    compute_stats(again, PercentileMethod::kNearest));
}

TEST(Column, RepeatedValuesAreHeldAsOneValueAndReadAsTheirVector) {
  // Values whose repeated sum rounds (0.1, 1/3) as well as exact ones, and counts past 2^16.
  for (double v : {0.1, 1.0 / 3, 2.0, 0.0, 4186.850776451476, 1e300}) {
    for (size_t n : {1u, 2u, 7u, 1000u, 70001u}) {
      Column c;
      for (size_t i = 0; i < n; ++i) c.push(v);
      EXPECT_TRUE(c.constant());
      EXPECT_EQ(c.memory_bytes(), 0u) << "a constant column holds no vector";
      expect_reads_as(c, std::vector<double>(n, v));
    }
  }
}

TEST(Column, TheFirstDifferentValueKeepsEveryEarlierOne) {
  Column c;
  c.reserve(100);
  EXPECT_EQ(c.memory_bytes(), 0u) << "reserve waits for the vector";
  std::vector<double> want;
  for (int i = 0; i < 50; ++i) {
    c.push(0.25);
    want.push_back(0.25);
  }
  c.push(-0.0);  // differs from 0.25, and 0.0 and -0.0 differ in their bits too
  want.push_back(-0.0);
  c.push(0.0);
  want.push_back(0.0);
  EXPECT_FALSE(c.constant());
  EXPECT_GE(c.memory_bytes(), 100 * sizeof(double)) << "the reservation is taken on expansion";
  // reserve(100) asked for room for 100 values from the empty column, not 100 past the 50 held.
  EXPECT_LT(c.memory_bytes(), 150 * sizeof(double));
  expect_reads_as(c, want);
}

TEST(Column, AppendKeepsOrderAcrossModes) {
  std::mt19937 rng(7);
  for (int round = 0; round < 200; ++round) {
    // Each side: a constant run of one of two values, sometimes broken by a random value.
    std::vector<double> want;
    Column sides[2];
    for (Column& side : sides) {
      const double v = (rng() % 2) ? 0.5 : 1.5;
      const size_t n = rng() % 5;
      for (size_t i = 0; i < n; ++i) {
        const double x = rng() % 4 == 0 ? std::ldexp(static_cast<double>(rng()), -20) : v;
        side.push(x);
        want.push_back(x);
      }
    }
    sides[0].append(std::move(sides[1]));
    EXPECT_TRUE(sides[1].empty());
    expect_reads_as(sides[0], want);
  }
}

}  // namespace
}  // namespace servebench::metrics
