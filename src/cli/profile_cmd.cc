// `servebench profile`: flags → config → app::run_benchmark → summary line and exit code (0 ok,
// 1 gate failed, 2 usage error, 3 runtime failure, 130/143 interrupted; see app/run.h).
// Artifacts are written in every case that sent something, including Ctrl-C.
#include <algorithm>
#include <cstdio>
#include <string>

#include "app/run.h"
#include "app/signal_watcher.h"
#include "cli/commands.h"
#include "config/cli_options.h"
#include "core/log.h"

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
  // Before any thread exists and before set-up, so Ctrl-C works in every phase.
  app::SignalWatcher watcher("servebench");
  auto parsed = config::parse_profile_args(argc, argv);
  if (!parsed) return usage_error(parsed.error().message);
  if (parsed->help) {
    std::fputs(parsed->help_text.c_str(), stdout);
    return 0;
  }
  const config::BenchmarkConfig& cfg = parsed->config;
  core::init_logging(cfg.verbosity);

  app::RunHooks hooks;
  hooks.before_load = [&watcher](const app::PhaseInfo&) { watcher.set_stage(app::Stage::kLoad); };
  hooks.after_grace = [&watcher](const app::PhaseInfo&) { watcher.set_stage(app::Stage::kExport); };
  const app::RunResult r = app::run_benchmark(cfg, hooks);
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
