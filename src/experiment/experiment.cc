#include "experiment/experiment.h"

#include <fmt/format.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <thread>

#include "core/interrupt.h"
#include "endpoints/registry.h"
#include "export/artifacts.h"
#include "experiment/cell_command.h"
#include "experiment/convergence.h"
#include "experiment/sweep_export.h"

namespace servebench::experiment {
namespace {

namespace fs = std::filesystem;

std::string experiment_root(const config::BenchmarkConfig& base, bool is_sweep) {
  auto spec = endpoints::find_spec(base.endpoint_type);
  const std::string part = spec ? std::string((*spec)->artifact_name) : base.endpoint_type;
  const std::string name = exporter::artifact_dir_name(base.model(), part, base.streaming,
                                                       is_sweep ? "sweep" : base.load_label());
  return (fs::path(base.artifact_dir) / name).string();
}

bool write_text(const std::string& path, const std::string& text) {
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  return static_cast<bool>(out);
}

std::string cell_dir(const ExperimentPlan& plan, const CellPlan& cp) {
  return plan.is_sweep ? (fs::path(plan.root) / variation_dir(cp.cell)).string() : plan.root;
}

std::string trial_dir(const ExperimentPlan& plan, const CellPlan& cp, int64_t trial) {
  if (plan.trials == 1) return cell_dir(plan, cp);
  return (fs::path(cell_dir(plan, cp)) / "profile_runs" / fmt::format("run_{:04d}", trial))
      .string();
}

Trial record_trial(const config::BenchmarkConfig& cfg, const app::RunResult& r, int64_t trial) {
  Trial t;
  t.label = fmt::format("run_{:04d}", trial);
  t.cli_command = cfg.cli_command;
  t.exit_code = r.exit_code;
  t.seed = cfg.random_seed.value_or(0);
  t.artifact_dir = r.artifact_dir.empty() ? cfg.artifact_dir : r.artifact_dir;
  t.error = r.error.empty() ? r.failure_reason : r.error;
  if (!r.error.empty() || r.interrupted || (r.exit_code != 0 && r.exit_code != 1)) {
    if (t.error.empty()) t.error = fmt::format("exit {}", r.exit_code);
    return t;
  }
  const auto names = exporter::artifact_names(cfg.profile_export_prefix);
  auto m = read_run_metrics((fs::path(t.artifact_dir) / names.json).string());
  if (!m) {
    t.error = m.error().message;
    return t;
  }
  t.metrics = std::move(*m);
  t.ok = true;
  return t;
}

struct Loop {
  const ExperimentPlan& plan;
  const ExperimentCallbacks& cb;
  ExperimentResult out;
  bool any_gate = false;
  bool any_failed = false;
  bool sent_before = false;

  void say(const std::string& line) const {
    if (cb.print) cb.print(line);
  }

  bool done(const CellResult& c) const {
    return c.converged || static_cast<int64_t>(c.trials.size()) >= plan.trials;
  }

  // Whether --convergence-* stops the cell's trials now.
  bool settled(const std::vector<Trial>& trials, const config::BenchmarkConfig& cfg) const {
    const auto& x = plan.base.experiment;
    if (x.convergence_metric.empty()) return false;
    if (x.convergence_mode == config::ConvergenceMode::kDistribution)
      return distribution_converged(trials, x.convergence_metric, x.convergence_threshold,
                                    exporter::artifact_names(cfg.profile_export_prefix).jsonl);
    return converged(trials, x.convergence_metric + "_" + x.convergence_stat,
                     x.convergence_mode == config::ConvergenceMode::kCv ? "cv" : "ci_width",
                     x.convergence_threshold, x.confidence_level);
  }

  // Runs one trial of cell i; false when the experiment must stop (interrupt).
  bool run_one(size_t i) {
    const CellPlan& cp = plan.cells[i];
    CellResult& cr = out.cells[i];
    const int64_t trial = static_cast<int64_t>(cr.trials.size()) + 1;
    if (sent_before) {
      const int64_t pause = trial > 1 && plan.base.experiment.sweep_order ==
                                             config::SweepOrder::kIndependent
                                ? plan.base.experiment.profile_run_cooldown_ns
                                : std::max(plan.base.experiment.sweep_cooldown_ns,
                                           plan.base.experiment.profile_run_cooldown_ns);
      if (!cooldown(pause)) return false;
    }
    const config::BenchmarkConfig cfg = trial_config(plan, cp, trial_dir(plan, cp, trial), trial);
    say(fmt::format("{}{}: trial {}/{} → {}", cr.cell.label.empty() ? "run" : cr.cell.label,
                    plan.is_sweep ? fmt::format(" ({}/{})", i + 1, plan.cells.size()) : "", trial,
                    plan.trials, cfg.artifact_dir));
    const app::RunHooks hooks = cb.hooks_for ? cb.hooks_for(cfg) : app::RunHooks{};
    const app::RunResult r = cb.run ? cb.run(cfg, hooks) : app::run_benchmark(cfg, hooks);
    sent_before = true;
    Trial t = record_trial(cfg, r, trial);
    if (!t.ok) {
      any_failed = true;
      say(fmt::format("{}: run failed (exit {}): {}", cr.cell.label.empty() ? "run" : cr.cell.label,
                      r.exit_code, t.error));
    }
    if (r.exit_code == 1) any_gate = true;
    cr.trials.push_back(std::move(t));
    if (settled(cr.trials, cfg)) cr.converged = true;
    if (r.interrupted) {
      out.interrupted = true;
      out.exit_code = 128 + (r.signal_number ? r.signal_number : SIGINT);
      return false;
    }
    return true;
  }

  void cell_finished(size_t i) {
    const CellResult& cr = out.cells[i];
    if (plan.trials > 1) {
      const fs::path agg = fs::path(cr.dir) / "aggregate";
      write_text((agg / "profile_export_aiperf_aggregate.json").string(),
                 aggregate_json(cr.trials, plan.trials, plan.base.experiment.confidence_level));
      write_text((agg / "profile_export_aiperf_aggregate.csv").string(),
                 aggregate_csv(cr.trials, plan.base.experiment.confidence_level));
    }
    if (plan.is_sweep && !plan.base.experiment.no_sweep_table)
      say(sweep_table_row(cr, plan.base.experiment.confidence_level));
  }

  void write_sweep() const {
    if (!plan.is_sweep) return;
    std::vector<CellResult> ran;
    for (const auto& c : out.cells)
      if (!c.trials.empty()) ran.push_back(c);
    write_text((fs::path(plan.root) / "profile_export_aiperf_sweep.json").string(),
               sweep_json(plan, ran));
    write_text((fs::path(plan.root) / "profile_export_aiperf_sweep.csv").string(),
               sweep_csv(plan, ran));
  }
};

}  // namespace

config::BenchmarkConfig trial_config(const ExperimentPlan& plan, const CellPlan& cp,
                                     const std::string& dir, int64_t trial) {
  config::BenchmarkConfig c = cp.config;
  c.random_seed = trial_seed(plan.base, cp.cell, trial, plan.is_sweep);
  c.artifact_dir = dir;
  c.experiment.artifact_dir_is_final = true;
  const bool skip_warmup = trial > 1 && c.experiment.disable_warmup_after_first;
  if (skip_warmup) {
    c.warmup_request_count.reset();
    c.warmup_duration_ns.reset();
    c.num_warmup_sessions.reset();
  }
  if (!plan.argv.empty())
    c.cli_command = trial_command(plan.argv, cp.cell, c.random_seed, skip_warmup);
  return c;
}

bool is_experiment(const config::ParsedArgs& parsed) {
  const auto& x = parsed.config.experiment;
  return !parsed.sweep.empty() || !x.sweep_scenarios_json.empty() ||
         x.sweep_type == config::SweepType::kScenarios || x.num_profile_runs > 1;
}

Result<ExperimentPlan> plan_experiment(const config::ParsedArgs& parsed) {
  ExperimentPlan plan;
  plan.base = parsed.config;
  plan.argv = parsed.argv;
  const auto& x = plan.base.experiment;
  if (x.convergence_mode == config::ConvergenceMode::kDistribution &&
      !x.convergence_metric.empty() && plan.base.export_level == config::ExportLevelName::kSummary)
    return make_error(ErrorCode::kInvalidArgument,
                      "--convergence-mode distribution compares per-request records; drop "
                      "--export-level summary (or use --convergence-mode ci_width or cv)");
  if (!x.convergence_metric.empty() && x.num_profile_runs < 3)
    return make_error(ErrorCode::kInvalidArgument,
                      "--convergence-metric needs --num-profile-runs 3 or more (an interval needs "
                      "3 trials to be judged)");
  auto cells = expand_sweep(parsed.sweep, x);
  if (!cells) return tl::unexpected(cells.error());
  plan.is_sweep = !parsed.sweep.empty() || !x.sweep_scenarios_json.empty();
  plan.trials = x.num_profile_runs;
  for (auto& c : *cells) {
    auto cfg = cell_config(plan.base, c);
    if (!cfg) return tl::unexpected(cfg.error());
    plan.cells.push_back(CellPlan{std::move(c), std::move(*cfg)});
  }
  plan.root = experiment_root(plan.cells.front().config, plan.is_sweep);
  return plan;
}

bool cooldown(int64_t ns) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::nanoseconds(ns);
  while (std::chrono::steady_clock::now() < until) {
    if (core::interrupt_requested()) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return !core::interrupt_requested();
}

ExperimentResult run_experiment(const ExperimentPlan& plan, const ExperimentCallbacks& callbacks) {
  Loop loop{plan, callbacks, {}};
  loop.out.root = plan.root;
  for (const auto& cp : plan.cells) {
    CellResult cr;
    cr.cell = cp.cell;
    cr.dir = cell_dir(plan, cp);
    loop.out.cells.push_back(std::move(cr));
  }
  if (plan.is_sweep && !plan.base.experiment.no_sweep_table) loop.say(sweep_table_header());
  bool stop = false;
  if (plan.base.experiment.sweep_order == config::SweepOrder::kIndependent || !plan.is_sweep) {
    for (size_t i = 0; i < plan.cells.size() && !stop; ++i) {
      while (!loop.done(loop.out.cells[i]) && !stop) {
        stop = !loop.run_one(i);
        loop.write_sweep();
      }
      loop.cell_finished(i);
    }
  } else {  // repeated: the whole sweep once per trial
    for (int64_t pass = 1; pass <= plan.trials && !stop; ++pass) {
      for (size_t i = 0; i < plan.cells.size() && !stop; ++i) {
        if (loop.done(loop.out.cells[i])) continue;
        stop = !loop.run_one(i);
        loop.write_sweep();
        if (loop.done(loop.out.cells[i]) || stop) loop.cell_finished(i);
      }
    }
  }
  if (!loop.out.interrupted) {
    if (loop.any_failed)
      loop.out.exit_code = 3;
    else if (loop.any_gate)
      loop.out.exit_code = 1;
  }
  return loop.out;
}

}  // namespace servebench::experiment
