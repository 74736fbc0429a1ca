// Search planners behind one interface: each proposes the next point from the history of
// probes, given the SLOs, an optional objective and the search space. AIPerf's planner names:
//   monotonic_sla    bracketing + bisection on one axis (search.h)
//   smooth_isotonic  bracketing, then root-finding on a monotone (PAVA) fit of the SLO margins
//                    interpolated by PCHIP (isotonic.h)
//   bayesian         a Gaussian process with expected improvement, constrained by the
//                    probability that every SLO holds (gp.h); `optuna` is accepted as a name for it
//   grid             a fixed list of points (the recipes' log-spaced grids)
// Planners are pure (a probe callback); search_cmd.cc gives them probes that run benchmarks.
//
// Thread safety: pure functions; one planner run is single-threaded.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "experiment/search.h"

namespace servebench::experiment {

// One axis of the search space: a load or workload setting and its inclusive bounds.
struct Dimension {
  std::string path;  // as typed: "concurrency", "phases.profiling.concurrency"
  std::string axis;  // concurrency, request-rate, isl or osl
  double lo = 1;
  double hi = 1024;
  bool integer = true;
};

// AIPerf's --search-space PATH:LO,HI[:int|real] (KIND defaults to real, as in AIPerf).
Result<Dimension> parse_dimension(const std::string& text);

// The quantity to optimize: a summary key such as output_token_throughput_avg.
struct Objective {
  std::string key;
  bool maximize = true;
};

using Point = std::vector<double>;  // one value per Dimension
using PointProbe = std::function<ProbeResult(const Point& point, int64_t trials, int64_t index)>;

struct PlanSpec {
  std::vector<Slo> slos;
  SearchOptions options;        // budget, resolution, boundary_trials; min/max mirror dims[0]
  std::vector<Dimension> dims;  // at least one
  std::optional<Objective> objective;
  int64_t initial_points = 5;    // bayesian: space-filling points before the GP
  std::optional<uint64_t> seed;  // bayesian: none = a random seed
  int64_t patience = 10;         // bayesian: stop after this many probes without improvement
  std::vector<Point> grid;       // grid: the points, in order
};

class SearchPlanner {
 public:
  virtual ~SearchPlanner() = default;
  // Empty when the spec suits the planner, else the reason ("needs one dimension").
  virtual std::string check(const PlanSpec& spec) const = 0;
  virtual SearchOutcome run(const PlanSpec& spec, const PointProbe& probe) const = 0;
};

// monotonic_sla, smooth_isotonic, bayesian, optuna, grid.
const std::vector<std::string>& planner_names();
// nullptr for an unknown name.
std::unique_ptr<SearchPlanner> make_planner(const std::string& name);

// The planners that walk one load axis against SLOs: empty when the spec has one dimension and
// at least one SLO, else the reason.
std::string check_one_dimension_slos(const PlanSpec& spec);

// Shared by the planners: runs one probe and judges it (SLO violations, objective value).
SearchStep probe_point(const PlanSpec& spec, const PointProbe& probe, const Point& point,
                       const char* phase, int64_t trials, int64_t index);

// The smallest SLO margin of a probe, relative to each threshold: >= 0 when every SLO holds
// ((threshold - value) / |threshold| for an upper bound); -1 for a failed or incomplete probe.
double binding_margin(const std::vector<Slo>& slos, const ProbeResult& r);

// Fills answer/first_fail/best from the steps: the best passing step by the objective (else
// the highest passing load on dims[0]), and the lowest failing load above the answer.
void summarize_outcome(const PlanSpec& spec, SearchOutcome* out);

// `steps` log-spaced values from lo to hi inclusive (whole numbers when integer, deduplicated).
std::vector<double> log_grid(double lo, double hi, int64_t steps, bool integer);

}  // namespace servebench::experiment
