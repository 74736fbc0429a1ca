// From the search's command line to a plan: AIPerf's search flags (recipes and their knobs,
// --search-space/-metric/-stat/-direction, --search-planner/-style, SLA flags and tiers) are
// read into PlanArgs, and expand_plan turns them into the planner name, its PlanSpec, the SLOs,
// the per-request goodput SLOs the runs need and the recipe's post-processing. Pure: no runs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/result.h"
#include "experiment/planner.h"
#include "experiment/recipe_post.h"

namespace servebench::experiment {

struct PlanArgs {
  std::string slo, over, recipe, style, planner;
  std::string ttft_ms, itl_ms, e2e_ms, error_rate, attainment;
  std::string search_sla;               // --search-sla filters as SLO text
  std::vector<std::string> space;       // --search-space
  std::string metric, stat, direction;  // --search-metric/-stat/-direction
  std::optional<int64_t> initial_points;
  std::optional<uint64_t> seed;
  std::string pooling = "mean";
  std::vector<std::string> tiers;  // --search-sla-tier
  std::optional<double> degradation;
  std::string degradation_metric, degradation_stat;
  std::optional<int64_t> isl_min, isl_max, isl_steps, osl_min, osl_max, osl_steps, conc_steps;
  std::string isl_osl_pairs;
  std::vector<double> concurrency_list;  // pareto-sweep's --concurrency list
  bool min_given = false, max_given = false;
  std::vector<std::string> notes;  // accepted-but-ignored flags, said once at the start
  SearchOptions options;
};

// The flags PlanArgs reads (each takes a value), `servebench search`'s own first.
const std::vector<std::string>& plan_flag_names();
// The number of leading names in plan_flag_names() that only `servebench search` spells.
size_t plan_own_flag_count();
// Reads one flag; an error names the flag and the expected value.
Status take_plan_flag(const std::string& name, const std::string& value, PlanArgs* a);

struct Plan {
  std::string planner;   // planner.h name
  std::string over;      // the first dimension's axis
  std::string slo_text;  // every SLO, as printed
  PlanSpec spec;
  std::string goodput;  // per-request SLOs for the runs' --goodput ("" = unchanged)
  std::string post;     // degradation_knee, prefill_curve, decode_itl_surface, pareto_sweep,
                        // sla_breach or ""
  KneeOptions knee;
  std::vector<std::pair<std::string, std::vector<Slo>>> tiers;  // label, tier SLOs (+ common)
  std::vector<std::string> pooled_keys;  // --search-percentile-pooling pooled: percentile keys
};

Result<Plan> expand_plan(PlanArgs a);

// AIPerf's 'METRIC:STAT:OP:THRESHOLD' as an SLO ("time_to_first_token:p95<=200").
Result<std::string> aiperf_sla(const std::string& flag, const std::string& v);

}  // namespace servebench::experiment
