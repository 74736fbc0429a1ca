// The set-up steps of run_benchmark (app/run.cc), in their own file: the checks that need no
// set-up, the tokenizer, endpoint, seed and workload (set_up), the workers' settings and the
// run's context and export options. Internal to the run library; nothing outside src/app/
// includes it.
//
// Thread safety: called from the run's thread only.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/load_setup.h"
#include "app/run.h"
#include "app/workload_setup.h"
#include "config/benchmark_config.h"
#include "core/clock.h"
#include "endpoints/endpoint.h"
#include "export/artifacts.h"
#include "load/worker.h"
#include "tokenizer/tokenizer.h"

namespace servebench::app::run_steps {

RunResult failed(int exit_code, std::string message);
RunResult usage_error(std::string message);
// A set-up step ended (or failed) after an interrupt: nothing was sent, nothing to write.
RunResult interrupted_in_setup();

// The run's artifact sub-folder name ("" when an experiment names it itself).
std::string run_folder(const config::BenchmarkConfig& cfg);

// Everything a worker needs to build requests (load/worker.h); moves the request templates out
// of `work`.
load::WorkerSettings build_worker_settings(const config::BenchmarkConfig& cfg,
                                           const endpoints::Endpoint& endpoint,
                                           PreparedWorkload& work, uint64_t seed,
                                           uint64_t run_tag);

// --reset-kv-cache: flush the server's prefix cache once before any load (warm-up included).
Status reset_kv_cache(const config::BenchmarkConfig& cfg);

// What set-up hands to the load, all built before t0.
struct Prepared {
  std::shared_ptr<const tokenizer::Tokenizer> tok;
  std::unique_ptr<endpoints::Endpoint> endpoint;
  uint64_t seed = 0;
  PreparedWorkload work;
  WorkloadShape shape;
  std::vector<std::string> warnings;
};

// Logs a warning and keeps it for the artifacts.
void warn(const std::string& w, std::vector<std::string>* warnings);

// Checks that need no set-up: export options, the descriptor budget and an artifact folder
// probe. Returns the result to stop with, if any.
std::optional<RunResult> preflight(const config::BenchmarkConfig& cfg, int cores,
                                   std::vector<std::string>* warnings);

// Tokenizer, endpoint, seed, prompts and request bodies. Returns the result to stop with (a
// usage error, or an interrupt) if any.
std::optional<RunResult> set_up(const config::BenchmarkConfig& cfg, Prepared* out);

// What the run is, for every artifact; known before the load starts. inputs.json's payloads
// are views of the bodies in `settings` and prep.work, which must outlive the context.
exporter::RunContext make_context(const config::BenchmarkConfig& cfg, Prepared& prep,
                                  const load::WorkerSettings& settings,
                                  const core::WallAnchor& anchor);

exporter::ExportOptions make_export_options(const config::BenchmarkConfig& cfg,
                                            const std::string& artifact_dir);

}  // namespace servebench::app::run_steps
