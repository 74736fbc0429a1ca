// SLO capacity search: the highest load (concurrency or request rate) at which every SLO holds,
// assuming the response is monotone in the load. Bracketing (doubling from --min until an SLO
// fails or --max), then bisection between the last passing and the first failing load, until
// the bracket is narrower than the resolution or the probe budget is spent. Probes inside the
// bisection (near the boundary) run `boundary_trials` trials and judge the SLO on their mean.
//
// The planner is pure (a probe callback), so it is tested without a server; search_cmd.cc
// gives it probes that run benchmarks.
//
// Thread safety: pure functions; the planner is single-threaded.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"

namespace servebench::experiment {

// "time_to_first_token:p99<=500ms": the summary key time_to_first_token_p99 must be <= 500 (ms).
struct Slo {
  std::string key;       // "time_to_first_token_p99"
  bool at_most = true;   // <= (false: >=, e.g. a throughput floor)
  double threshold = 0;  // in the metric's unit (durations converted to ms)
  std::string text;      // as typed
};

// Space-separated SLOs. Durations: ms, s, us; bare numbers are in the metric's unit.
Result<std::vector<Slo>> parse_slos(const std::string& text);

struct ProbeResult {
  bool ok = false;  // the probe ran and produced metrics
  std::map<std::string, double> values;  // mean over its trials per metric key
  std::string error;
  bool interrupted = false;  // Ctrl-C: the search stops after recording this probe
};

struct SearchOptions {
  double min = 1;
  double max = 1024;
  double resolution = 1;   // stop when first_fail - last_pass <= resolution
  int64_t budget = 20;     // probes at most
  bool integer = true;     // concurrency: whole numbers
  int64_t boundary_trials = 1;
  bool bisect = true;      // false: bracketing only (the concurrency-ramp recipe)
};

struct SearchStep {
  int64_t index = 0;
  double load = 0;
  std::string phase;  // "bracket" or "bisect"
  int64_t trials = 1;
  bool pass = false;
  ProbeResult result;
  std::vector<std::string> violations;  // "time_to_first_token_p99 = 812 > 500"
  std::vector<double> point;            // every dimension's value (planner.h); load = point[0]
  std::optional<double> objective;      // the objective's value, when the plan has one
};

struct SearchOutcome {
  std::vector<SearchStep> steps;
  std::optional<double> answer;     // highest passing load (none: even --min fails)
  std::optional<double> first_fail;  // lowest failing load above it (none: --max passes)
  std::string stop_reason;          // "resolution", "budget", "max reached", "min fails", "interrupted"
  std::optional<int64_t> best;      // index of the best passing step (objective planners)
};

using Probe = std::function<ProbeResult(double load, int64_t trials, int64_t index)>;

SearchOutcome run_search(const std::vector<Slo>& slos, const SearchOptions& options,
                         const Probe& probe);

// Violations of the SLOs by one probe's values ("missing" when a key is absent).
std::vector<std::string> check_slos(const std::vector<Slo>& slos, const ProbeResult& r);

// search_history.json.
std::string search_history_json(const std::vector<Slo>& slos, const SearchOptions& options,
                                const std::string& over, const SearchOutcome& outcome);

}  // namespace servebench::experiment
