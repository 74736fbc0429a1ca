// The request-level sweep curves merged from the shared time orders (sweep_merge.cc) against the
// reference that collects and sorts every event (build_curve_sorted): the same steps, bit for
// bit, on random records with many equal times, records without a first token, first tokens
// before the start or after the end, unknown or tiny lengths, and any origin.
#include <bit>
#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "metrics/sweep_curves.h"

namespace servebench::metrics::sweep {
namespace {

SweepData random_data(uint64_t seed, size_t n, int64_t spread) {
  std::mt19937_64 rng(seed);
  const auto pick = [&](int64_t range) { return static_cast<int64_t>(rng() % static_cast<uint64_t>(range)); };
  SweepData d;
  d.per_chunk = false;
  for (size_t i = 0; i < n; ++i) {
    SweepRecord r;
    r.start_ns = 1'000'000 + pick(spread);  // a small spread: many equal times
    r.end_ns = r.start_ns + pick(spread / 2 + 1);
    switch (rng() % 6) {
      case 0: r.first_ns = 0; break;                                  // no first token
      case 1: r.first_ns = r.start_ns - pick(5) - 1; break;           // before the start
      case 2: r.first_ns = r.end_ns + pick(5); break;                 // at or after the end
      default: r.first_ns = r.start_ns + pick(r.end_ns - r.start_ns + 1); break;
    }
    r.isl = rng() % 7 == 0 ? NAN : double(pick(2000));
    r.osl = rng() % 7 == 0 ? NAN : rng() % 5 == 0 ? 0.5 : double(pick(500));
    d.records.push_back(r);
  }
  return d;
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::bit_cast<uint64_t>(a[i]) != std::bit_cast<uint64_t>(b[i])) return false;
  }
  return true;
}

TEST(SweepMerge, MergedCurvesEqualTheSortedReferenceBitForBit) {
  const Curve kMerged[] = {Curve::kConc,    Curve::kDecodeConc, Curve::kPrefillConc, Curve::kDecode,
                           Curve::kPrefill, Curve::kTotal,      Curve::kTokens};
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    const SweepData d = random_data(seed, 200 + seed * 300, seed % 3 == 0 ? 50 : 100'000);
    const int64_t origin = seed % 2 == 0 ? 0 : 999'999;
    EventScratch merged_scratch, sorted_scratch;
    for (Curve c : kMerged) {
      const Step m = build_curve_merged(d, origin, c, &merged_scratch);
      const Step s = build_curve_sorted(d, origin, c, &sorted_scratch);
      ASSERT_FALSE(s.ts.empty());
      EXPECT_TRUE(same_bits(m.ts, s.ts)) << "seed " << seed << " curve " << int(c);
      EXPECT_TRUE(same_bits(m.vals, s.vals)) << "seed " << seed << " curve " << int(c);
      EXPECT_TRUE(same_bits(build_curve(d, origin, c, &merged_scratch).vals, s.vals));
    }
  }
}

}  // namespace
}  // namespace servebench::metrics::sweep
