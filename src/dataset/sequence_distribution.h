// SequenceDistribution: AIPerf's --sequence-distribution / --seq-dist, a mix of (ISL, OSL) bins
// with probabilities in percent, drawn jointly per request.
//
// Accepted forms (AIPerf's DistributionParser; probabilities are percentages that must sum to
// 100 within 1e-6 absolute + 1e-6 relative, as numpy.isclose does there):
//   semicolon  "256,128:40;512,256:60"              with stddevs "256|10,128|5:40;512|20,256|10:60"
//   bracket    "[(256,128):40,(512,256):60]"        with stddevs "[(256|10,128|5):40,(512,256):60]"
//   JSON       '{"pairs": [{"isl": 256, "isl_stddev": 10, "osl": 128, "osl_stddev": 5,
//                           "prob": 40}, ...]}'     (isl_stddev / osl_stddev optional)
// ISL and OSL are positive integers (JSON numbers are truncated as Python's int() does), stddevs
// >= 0, each probability in [0, 100]. Whitespace is allowed between tokens. Where AIPerf's
// bracket regex silently skips text between items, we reject it; items may be separated by ','
// or ';'.
//
// Drawing (AIPerf's SequenceLengthDistribution.sample): u = next_double(); the bin is the first
// whose cumulative probability exceeds u (zero-probability bins are never drawn); then ISL and
// OSL each by the positive-normal-integer rule: the mean when its stddev is 0, else
// max(1, ceil(normal(mean, stddev))). Three draws on the caller's Rng at most, in that order.
//
// Thread safety: immutable after parse(); draw() uses only the caller's Rng.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "core/rng.h"

namespace servebench::dataset {

struct SequenceBin {
  double isl_mean = 0;  // tokens, a positive integer
  double isl_stddev = 0;
  double osl_mean = 0;  // tokens, a positive integer
  double osl_stddev = 0;
  double prob_pct = 0;  // [0, 100]
};

class SequenceDistribution {
 public:
  // Errors (kInvalidArgument) are one line naming --sequence-distribution and the expected form.
  static Result<SequenceDistribution> parse(std::string_view spec);

  struct Draw {
    int64_t isl = 0;  // >= 1
    int64_t osl = 0;  // >= 1
  };
  Draw draw(core::Rng& rng) const;

  const std::vector<SequenceBin>& bins() const { return bins_; }
  // Canonical semicolon form, e.g. "256,128:40;512|20,256:60" (for logs and config echo).
  std::string to_string() const;

 private:
  explicit SequenceDistribution(std::vector<SequenceBin> bins);

  std::vector<SequenceBin> bins_;
  std::vector<double> cumulative_;  // normalized, last == 1
};

}  // namespace servebench::dataset
