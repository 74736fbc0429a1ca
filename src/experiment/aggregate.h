// Repeated trials of one configuration → confidence statistics per metric (AIPerf's
// aggregate/profile_export_aiperf_aggregate.{json,csv}): mean, sample std, min, max, CV,
// standard error and a two-sided Student-t interval at the confidence level.
//
// A trial's numbers come from its profile_export_aiperf.json, flattened to "<tag>_<stat>"
// ("time_to_first_token_p99", "request_throughput_avg").
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/result.h"

namespace servebench::experiment {

struct TrialStats {
  int64_t n = 0;
  double mean = 0;
  double std = 0;  // sample standard deviation (n - 1); 0 when n < 2
  double min = 0;
  double max = 0;
  double cv = 0;   // std / |mean| (inf when mean is 0 and std is not)
  double se = 0;   // std / sqrt(n)
  double ci_low = 0;
  double ci_high = 0;
  double t_critical = 0;  // 0 when n < 2 (no interval: ci_low = ci_high = mean)
};

// REQUIRES: !values.empty(), 0 < confidence < 1.
TrialStats summarize_trials(const std::vector<double>& values, double confidence);

// One run's headline numbers.
struct RunMetrics {
  std::map<std::string, double> values;      // "<tag>_<stat>" → value
  std::map<std::string, std::string> units;  // same keys → unit ("ms")
};

// Every numeric stat of every metric object (one with a "unit") in a summary JSON text.
Result<RunMetrics> parse_run_metrics(const std::string& summary_json);
// The same, read from a file (kNotFound / kInvalidArgument name the path).
Result<RunMetrics> read_run_metrics(const std::string& path);

// One trial of a configuration, as the experiment ran it.
struct Trial {
  std::string label;   // "run_0001"
  bool ok = false;     // it ran and wrote a summary (exit 0 or 1)
  int exit_code = 0;
  std::string error;   // why not ok
  uint64_t seed = 0;
  std::string artifact_dir;
  std::string cli_command;  // the equivalent single run, secrets redacted (cell_command.h)
  RunMetrics metrics;
};

// Per metric over the ok trials (metrics every ok trial has).
std::map<std::string, TrialStats> aggregate_trials(const std::vector<Trial>& trials,
                                                   double confidence);

// The aggregate folder's profile_export_aiperf_aggregate JSON and CSV texts.
std::string aggregate_json(const std::vector<Trial>& trials, int64_t planned, double confidence);
std::string aggregate_csv(const std::vector<Trial>& trials, double confidence);

// Whether `metric` ("time_to_first_token_avg") has settled: its interval width over |mean|
// (mode "ci_width") or its CV (mode "cv") is at most `threshold`; needs 3 ok trials.
bool converged(const std::vector<Trial>& trials, const std::string& metric, const std::string& mode,
               double threshold, double confidence);

}  // namespace servebench::experiment
