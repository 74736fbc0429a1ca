// Experiment flags (config/flag_table.h): AIPerf's "Multi-Run" group (repeated trials with
// confidence intervals, sweep order and cooldowns) plus --sweep-scenarios. They shape a loop of
// runs (src/experiment/), not one run, so none is exported to a run's input_config.
#include <nlohmann/json.hpp>

#include "config/flag_kinds.h"

namespace servebench::config {
namespace {

using namespace flags;  // NOLINT: the builders read as a table
using X = ExperimentOptions;

FlagSpec value(std::string names, std::string help,
               std::function<Status(const std::string&, X*)> set) {
  FlagSpec s = base(std::move(names), std::move(help), "");
  s.apply = [set](const FlagInput& in, C* c) -> Status {
    if (in.text.empty()) return {};
    return set(in.text, &c->experiment);
  };
  return s;
}

// A boolean; its --no- form comes from the flag table (FlagSpec::negatable).
FlagSpec toggle(const std::string& name, std::string help, bool X::*f) {
  FlagSpec s = base(name, std::move(help), "");
  s.arity = FlagArity::kSwitch;
  s.apply = [f](const FlagInput& in, C* c) -> Status {
    c->experiment.*f = in.on;
    return {};
  };
  return s;
}

std::function<Status(const std::string&, X*)> seconds_into(std::string flag, int64_t X::*f) {
  return [flag, f](const std::string& t, X* x) -> Status {
    auto v = to_seconds(flag, t, false);
    if (!v) return tl::unexpected(v.error());
    x->*f = *v;
    return {};
  };
}

void add_trial_flags(std::vector<FlagSpec>* out) {
  out->push_back(value("--num-profile-runs", "Trials per configuration (1-10); with 2 or more, "
                       "aggregate/ holds mean, std, CV and a Student-t interval per metric",
                       [](const std::string& t, X* x) -> Status {
                         auto v = to_count("--num-profile-runs", t, 1);
                         if (!v) return tl::unexpected(v.error());
                         if (*v > 10)
                           return usage("--num-profile-runs '" + t +
                                        "' is invalid; expected 1 to 10 trials");
                         x->num_profile_runs = *v;
                         return {};
                       }));
  out->push_back(value("--profile-run-cooldown-seconds", "Pause between trials (seconds)",
                       seconds_into("--profile-run-cooldown-seconds", &X::profile_run_cooldown_ns)));
  out->push_back(value("--confidence-level", "Confidence level of the trial intervals (default 0.95)",
                       [](const std::string& t, X* x) -> Status {
                         auto v = to_double("--confidence-level", t, "a level between 0 and 1");
                         if (!v) return tl::unexpected(v.error());
                         if (!(*v > 0 && *v < 1))
                           return usage("--confidence-level '" + t +
                                        "' is invalid; expected a level between 0 and 1 "
                                        "such as 0.95");
                         x->confidence_level = *v;
                         return {};
                       }));
  out->push_back(toggle("--profile-run-disable-warmup-after-first",
                        "Warm up before the first trial only (default on)",
                        &X::disable_warmup_after_first));
  out->push_back(toggle("--set-consistent-seed",
                        "Use --random-seed 42 when no seed is given, so every trial sends the "
                        "same workload (default on)",
                        &X::set_consistent_seed));
  out->push_back(toggle("--vary-seed-per-trial", "Trial k uses seed + k - 1 (a new workload each)",
                        &X::vary_seed_per_trial));
}

void add_convergence_flags(std::vector<FlagSpec>* out) {
  out->push_back(value("--convergence-metric",
                       "Stop trials early once this metric's estimate is stable "
                       "(e.g. time_to_first_token)",
                       [](const std::string& t, X* x) -> Status {
                         x->convergence_metric = t;
                         return {};
                       }));
  out->push_back(value("--convergence-stat", "Statistic of --convergence-metric (avg, p50, p99...)",
                       [](const std::string& t, X* x) -> Status {
                         x->convergence_stat = t;
                         return {};
                       }));
  out->push_back(value("--convergence-threshold",
                       "Relative width (ci_width: interval width / mean), CV (cv) or KS-test "
                       "p-value to exceed (distribution) that counts as converged (default 0.05)",
                       [](const std::string& t, X* x) -> Status {
                         auto v = to_double("--convergence-threshold", t, "a ratio > 0");
                         if (!v) return tl::unexpected(v.error());
                         if (!(*v > 0))
                           return usage("--convergence-threshold '" + t + "' must be > 0");
                         x->convergence_threshold = *v;
                         return {};
                       }));
  out->push_back(value("--convergence-mode",
                       "ci_width, cv or distribution (the latest trial's per-request values "
                       "against the earlier trials', two-sample KS test)",
                       [](const std::string& t, X* x) -> Status {
                         if (t == "ci_width")
                           x->convergence_mode = ConvergenceMode::kCiWidth;
                         else if (t == "cv")
                           x->convergence_mode = ConvergenceMode::kCv;
                         else if (t == "distribution")
                           x->convergence_mode = ConvergenceMode::kDistribution;
                         else
                           return usage("--convergence-mode '" + t +
                                        "' is invalid; expected ci_width, cv or distribution");
                         return {};
                       }));
}

Status check_scenarios(const std::string& t) {
  const auto j = nlohmann::json::parse(t, nullptr, false);
  bool ok = !j.is_discarded() && j.is_array() && !j.empty();
  if (ok)
    for (const auto& e : j) ok = ok && e.is_object() && !e.empty();
  if (!ok)
    return usage(
        "--sweep-scenarios is invalid; expected a JSON array of objects such as "
        "'[{\"name\":\"small\",\"concurrency\":2,\"isl\":64},{\"concurrency\":8}]'");
  return {};
}

void add_sweep_flags(std::vector<FlagSpec>* out) {
  out->push_back(value("--parameter-sweep-cooldown-seconds", "Pause between sweep cells (seconds)",
                       seconds_into("--parameter-sweep-cooldown-seconds", &X::sweep_cooldown_ns)));
  out->push_back(toggle("--parameter-sweep-same-seed",
                        "Every sweep cell uses the same seed (default: cell i uses seed + i)",
                        &X::sweep_same_seed));
  out->push_back(value("--parameter-sweep-mode",
                       "repeated (the whole sweep once per trial) or independent (all trials of "
                       "a cell, then the next cell)",
                       [](const std::string& t, X* x) -> Status {
                         if (t == "repeated")
                           x->sweep_order = SweepOrder::kRepeated;
                         else if (t == "independent")
                           x->sweep_order = SweepOrder::kIndependent;
                         else
                           return usage("--parameter-sweep-mode '" + t +
                                        "' is invalid; expected repeated or independent");
                         return {};
                       }));
  out->push_back(value("--sweep-type",
                       "How value lists combine: grid (every combination), zip (i-th with i-th) "
                       "or scenarios (--sweep-scenarios)",
                       [](const std::string& t, X* x) -> Status {
                         if (t == "grid")
                           x->sweep_type = SweepType::kGrid;
                         else if (t == "zip")
                           x->sweep_type = SweepType::kZip;
                         else if (t == "scenarios")
                           x->sweep_type = SweepType::kScenarios;
                         else
                           return usage("--sweep-type '" + t +
                                        "' is invalid; expected grid, zip or scenarios");
                         x->sweep_type_given = true;
                         return {};
                       }));
  {
    FlagSpec s = base("--no-sweep-table", "Do not print the sweep table between cells", "");
    s.arity = FlagArity::kSwitch;
    s.apply = [](const FlagInput& in, C* c) -> Status {
      c->experiment.no_sweep_table = in.on;
      return {};
    };
    out->push_back(std::move(s));
  }
  out->push_back(value("--sweep-scenarios",
                       "Named cells: a JSON array of objects mapping flag names to values "
                       "('[{\"name\":\"a\",\"concurrency\":2},{\"concurrency\":8}]')",
                       [](const std::string& t, X* x) -> Status {
                         if (auto st = check_scenarios(t); !st) return st;
                         x->sweep_scenarios_json = t;
                         return {};
                       }));
}

}  // namespace

void add_experiment_flags(std::vector<FlagSpec>* out) {
  const size_t first = out->size();
  add_trial_flags(out);
  add_convergence_flags(out);
  add_sweep_flags(out);
  add_search_flags(out);
  add_variant_flag(out);
  for (size_t i = first; i < out->size(); ++i) (*out)[i].experiment_loop = true;
}

}  // namespace servebench::config
