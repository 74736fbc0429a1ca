#include "experiment/experiment_cli.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include "experiment/experiment.h"

namespace servebench::experiment {
namespace {

void line(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  std::fprintf(stderr, "servebench profile: %s\n", text.c_str());
}

}  // namespace

int run_experiment_cli(const config::ParsedArgs& parsed, app::SignalWatcher* watcher) {
  auto plan = plan_experiment(parsed);
  if (!plan) {
    line(plan.error().message);
    return 2;
  }
  ExperimentCallbacks cb;
  cb.print = [](const std::string& s) { line(s); };
  cb.hooks_for = [watcher](const config::BenchmarkConfig&) {
    app::RunHooks h;
    watcher->set_stage(app::Stage::kSetup);
    h.before_load = [watcher](const app::PhaseInfo&) { watcher->set_stage(app::Stage::kLoad); };
    h.after_grace = [watcher](const app::PhaseInfo&) { watcher->set_stage(app::Stage::kExport); };
    return h;
  };
  line(std::to_string(plan->cells.size()) + " configuration(s) x " +
       std::to_string(plan->trials) + " trial(s); artifacts in " + plan->root);
  const ExperimentResult r = run_experiment(*plan, cb);
  int failed = 0;
  for (const auto& c : r.cells)
    for (const auto& t : c.trials) failed += t.ok ? 0 : 1;
  line(std::string(r.interrupted ? "interrupted; " : "") + "done, " + std::to_string(failed) +
       " failed run(s); artifacts in " + r.root);
  return r.exit_code;
}

}  // namespace servebench::experiment
