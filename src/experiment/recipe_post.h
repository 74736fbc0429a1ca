// The grid recipes' post-processing: each reads the probes of a finished grid search and
// returns the recipe's JSON artifact (AIPerf's file names and keys).
//   concurrency-ramp     degradation_knee.json: the first concurrency whose metric exceeds the
//                        lowest concurrency's value by more than the threshold
//   prefill-ttft-curve   prefill_curve.json: TTFT = a*ISL + b by least squares, a quadratic
//                        when the line's r^2 < 0.85
//   decode-itl-curve     decode_itl_surface.json: ITL over the concurrency x OSL grid
//   pareto-sweep         pareto_sweep.json: TTFT p95 vs output throughput, non-dominated cells
//   grid style           sla_breach.json: highest passing and lowest failing load
#pragma once

#include <string>
#include <vector>

#include "experiment/planner.h"

namespace servebench::experiment {

struct KneeOptions {
  std::string metric = "request_latency";
  std::string stat = "p99";
  double threshold = 0.2;
};

std::string degradation_knee_json(const SearchOutcome& r, const KneeOptions& o);

// Least-squares polynomial of degree 1 or 2: coefficients highest power first, and r^2.
struct CurveFit {
  std::vector<double> coefficients;
  double r_squared = 0;
};
CurveFit fit_polynomial(const std::vector<double>& xs, const std::vector<double>& ys, int degree);

std::string prefill_curve_json(const SearchOutcome& r, size_t isl_dim);
std::string decode_itl_surface_json(const SearchOutcome& r, size_t conc_dim, size_t osl_dim);
std::string pareto_sweep_json(const SearchOutcome& r, size_t isl_dim, size_t osl_dim,
                              size_t conc_dim);
std::string sla_breach_json(const std::vector<Slo>& slos, const SearchOutcome& r,
                            const std::string& axis);

}  // namespace servebench::experiment
