// servebench compare: every headline metric of two or more runs side by side, each run against
// the first (the baseline): the difference, a 95 % bootstrap interval of the difference of each
// percentile (bootstrap.h; requests resampled from each run's profile_export.jsonl, seeded), and
// a verdict that knows which direction is better for each metric. Also: whether the runs are
// comparable at all (model, endpoint type, streaming, requested ISL/OSL, load mode), and the
// --fail-on-regression gates.
//
// Thread safety: pure functions of their inputs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compare/bootstrap.h"
#include "core/result.h"
#include "report_html/report_data.h"

namespace servebench::compare {

enum class Better : uint8_t { kLower, kHigher, kNeither };
enum class Verdict : uint8_t { kBetter, kWorse, kHigher, kLower, kNoDifference, kNotTested };
const char* verdict_name(Verdict v);  // "better", "worse", "higher", "lower",
                                      // "no significant difference", "not tested"

// One run against the baseline for one statistic.
struct Versus {
  size_t run = 0;          // index into the runs
  double diff = 0;         // run - baseline, display units
  double diff_pct = NAN;   // 100 * diff / |baseline|; NaN when the baseline is 0
  bool has_interval = false;
  double low = NAN, high = NAN;  // 95 % interval of diff
  Verdict verdict = Verdict::kNotTested;
};

struct Row {
  std::string tag, header, unit, stat;  // stat: "avg", "p50", ...
  Better better = Better::kLower;
  std::vector<double> values;  // per run (NaN when a run lacks it), from the summary JSON
  std::vector<Versus> versus;  // runs 1..n-1 against run 0
};

struct Comparison {
  std::vector<std::string> labels;
  std::vector<Row> rows;
  std::vector<std::string> warnings;  // comparability
  int resamples = kDefaultResamples;
  uint64_t seed = kDefaultSeed;
};

// --fail-on-regression METRIC[.STAT][:THRESHOLD%]
struct RegressionGate {
  std::string tag;
  std::string stat;           // "" = p50 for distributions, avg for run-level values
  double threshold_pct = 0;
  std::string text;           // as given
};
// Fails (kInvalidArgument) with a one-line message naming the value and the expected form.
Result<RegressionGate> parse_gate(const std::string& text);

struct CompareOptions {
  int resamples = kDefaultResamples;
  uint64_t seed = kDefaultSeed;
};

// Labels: the folder names, made unique.
std::vector<std::string> run_labels(const std::vector<std::string>& dirs);

// REQUIRES: runs.size() >= 2.
Comparison compare_runs(const std::vector<report_html::RunFiles>& runs,
                        const std::vector<std::string>& labels, const CompareOptions& options);

// Warnings when runs differ in model, endpoint type, streaming, requested ISL/OSL (or measured
// mean ISL/OSL by more than 10 %) or load mode.
std::vector<std::string> comparability_warnings(const std::vector<report_html::RunFiles>& runs,
                                                const std::vector<std::string>& labels);

// Messages of the gates that fail: a run significantly worse than the baseline by more than the
// threshold (the whole interval beyond it; run-level values without an interval: the
// difference). Fails (kInvalidArgument) when a gate names a metric or statistic not compared.
Result<std::vector<std::string>> failed_gates(const Comparison& c,
                                              const std::vector<RegressionGate>& gates);

// The console table.
std::string comparison_text(const Comparison& c);

// The compare page's data object (kind "compare"): the runs' report data and the comparison.
std::string compare_data_json(const std::vector<report_html::RunFiles>& runs,
                              const Comparison& c);

}  // namespace servebench::compare
