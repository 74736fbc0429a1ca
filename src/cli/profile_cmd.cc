// `servebench profile`: flags → config → app::run_benchmark → summary line and exit code (0 ok,
// 1 gate failed, 2 usage error, 3 runtime failure, 130/143 interrupted; see app/run.h).
// Artifacts are written in every case that sent something, including Ctrl-C.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "app/run.h"
#include "app/signal_watcher.h"
#include "cli/commands.h"
#include "config/cli_options.h"
#include "core/log.h"
#include "experiment/experiment.h"
#include "experiment/experiment_cli.h"
#include "live/live_session.h"
#include "yaml_config/yaml_config.h"
#include "shard/placement.h"

namespace servebench::cli {
namespace {

// Exactly one line, whatever the source of the message.
void print_error(std::string message) {
  std::replace(message.begin(), message.end(), '\n', ' ');
  std::replace(message.begin(), message.end(), '\r', ' ');
  std::fprintf(stderr, "servebench profile: %s\n", message.c_str());
}

int usage_error(std::string message) {
  print_error(std::move(message));
  return 2;
}

}  // namespace

int run_profile(int argc, char** argv) {
  // AIPerf's search flags (--search-recipe, --search-sla, --search-space) make the command the
  // search (search_cmd.cc); a search knob alone is a usage error.
  const SearchFlags search = search_flags_in(argc, argv);
  if (search.requested) {
    std::vector<std::string> words(argv, argv + argc);
    words[0] = "search";
    if (!search.recipe && !search.over) words.insert(words.end(), {"--over", "concurrency"});
    std::vector<char*> ptrs;
    for (auto& w : words) ptrs.push_back(w.data());
    return run_search(static_cast<int>(ptrs.size()), ptrs.data());
  }
  if (!search.knob.empty())
    return usage_error(search.knob +
                       " is a knob of the SLO capacity search; add --search-recipe, "
                       "--search-space or --search-sla (see servebench search --help)");
  // Before any thread exists and before set-up, so Ctrl-C works in every phase.
  app::SignalWatcher watcher("servebench");
  // -f/--config FILE.yaml: the file's flags first, the command line's own flags override them.
  auto expanded = yaml_config::expand_profile_argv(argc, argv);
  if (!expanded) return usage_error(expanded.error().message);
  std::vector<const char*> args;
  for (const auto& a : *expanded) args.push_back(a.c_str());
  auto parsed = config::parse_profile_args(static_cast<int>(args.size()), args.data());
  if (!parsed) return usage_error(parsed.error().message);
  if (parsed->help) {
    std::fputs(parsed->help_text.c_str(), stdout);
    return 0;
  }
  config::BenchmarkConfig& cfg = parsed->config;
  core::init_logging(cfg.verbosity);
  // The shard this process runs: --shard, else the launcher's environment (shard/placement.h).
  auto place = shard::resolve_placement(cfg.launcher, cfg.shard_index, cfg.shard_count,
                                        shard::process_env());
  if (!place) return usage_error(place.error().message);
  if (place->sharded) {
    cfg.shard_index = place->index;
    cfg.shard_count = place->count;
    cfg.launcher = std::string(shard::launcher_name(place->launcher));
  }
  // Lists, scenarios or several trials: a loop of runs (experiment/experiment.h).
  if (experiment::is_experiment(*parsed)) return experiment::run_experiment_cli(*parsed, &watcher);

  app::RunHooks hooks;
  const std::vector<std::string> words(expanded->begin() + 1, expanded->end());
  hooks.before_load = [&watcher, &words, &cfg](const app::PhaseInfo& info) {
    std::vector<std::string> all = words;
    if (!cfg.random_seed) {  // the drawn seed, so the file reproduces the same prompts
      all.push_back("--random-seed");
      all.push_back(std::to_string(info.random_seed));
    }
    if (!yaml_config::write_effective_config(info.artifact_dir, all))
      std::fprintf(stderr, "servebench profile: warning: could not write %s/profile_config.yaml\n",
                   info.artifact_dir.c_str());
    watcher.set_stage(app::Stage::kLoad);
  };
  hooks.after_grace = [&watcher](const app::PhaseInfo&) { watcher.set_stage(app::Stage::kExport); };
  // The live display and API watch the run from their own threads; the session ends (final
  // frame, API closed) before the summary lines below.
  auto live = live::LiveSession::start(live::live_options_from(cfg), core::SteadyClock::instance());
  if (!live) return usage_error(live.error().message);
  if ((*live)->api_port() > 0)  // always said: with --api-port 0 it is the only way to know
    std::fprintf(stderr, "servebench profile: live API on http://%s:%d/\n", cfg.api_host.c_str(),
                 (*live)->api_port());
  (*live)->attach(&hooks);
  const app::RunResult r = app::run_benchmark(cfg, hooks);
  live->reset();
  if (!r.error.empty()) {
    print_error(r.error);
    return r.exit_code;
  }
  std::fprintf(stderr, "servebench profile: %lld ok, %lld failed%s; artifacts in %s\n",
               static_cast<long long>(r.ok), static_cast<long long>(r.failed),
               r.interrupted ? ", interrupted" : "", r.artifact_dir.c_str());
  for (const auto& m : r.gate_failures)
    std::fprintf(stderr, "servebench profile: gate failed: %s\n", m.c_str());
  if (!r.failure_reason.empty())
    std::fprintf(stderr, "servebench profile: exit %d: %s\n", r.exit_code, r.failure_reason.c_str());
  return r.exit_code;
}

}  // namespace servebench::cli
