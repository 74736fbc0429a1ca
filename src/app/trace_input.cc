#include "app/trace_input.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

#include "core/env.h"
#include "dataset/public_datasets.h"
#include "dataset/trace_synthesis.h"

namespace servebench::app {
namespace {

// Only regular files are peeked at: opening a FIFO would block (the loader refuses those).
bool starts_with_parquet_magic(const std::string& path) {
  std::error_code ec;
  if (path == "-" || !std::filesystem::is_regular_file(path, ec)) return false;
  std::ifstream in(path, std::ios::binary);
  char head[4] = {};
  return in.read(head, 4) && dataset::looks_like_parquet(std::string_view(head, 4));
}

Status check_extra_inputs(const config::BenchmarkConfig& cfg, const dataset::BasetenOptions& o) {
  if (cfg.extra_inputs_json.empty()) return {};
  const auto extras = nlohmann::json::parse(cfg.extra_inputs_json, nullptr, false);
  if (!extras.is_object()) return {};
  auto clash = [&](const char* key, const char* fix) -> Status {
    if (!extras.contains(key)) return {};
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("--extra-inputs '{}' clashes with the per-row value of the "
                                  "baseten_trace '{}' ({})",
                                  key, cfg.input_file, fix));
  };
  if (o.force_min_tokens) SB_TRY(clash("min_tokens", "drop it or add --no-force-min-tokens"));
  if (!o.omit_kv_hints) {
    SB_TRY(clash("hash_ids", "drop it or add --omit-kv-hints"));
    SB_TRY(clash("block_size", "drop it or add --omit-kv-hints"));
  }
  return {};
}

}  // namespace

Result<dataset::PublicDatasetOptions> public_dataset_options(const config::BenchmarkConfig& cfg) {
  dataset::PublicDatasetOptions o;
  o.subset = cfg.hf_subset;
  o.weka_repo = cfg.hf_weka_dataset;
  for (const auto& f : cfg.dataset_filters) {
    SB_TRY_ASSIGN(auto kv, dataset::parse_row_filter(f));
    o.filters.push_back(std::move(kv));
  }
  return o;
}

Status check_public_dataset(const config::BenchmarkConfig& cfg) {
  SB_TRY_ASSIGN(const dataset::PublicDataset* d, dataset::find_public_dataset(cfg.public_dataset));
  SB_TRY_ASSIGN(dataset::PublicDatasetOptions o, public_dataset_options(cfg));
  return dataset::check_public_dataset_options(*d, o);
}

dataset::BasetenOptions baseten_options(const config::BenchmarkConfig& cfg) {
  dataset::BasetenOptions o;
  o.open_loop = cfg.open_loop_replay.value_or(true);
  o.open_loop_strict = cfg.open_loop_strict;
  o.sample_ratio = cfg.trace_session_sample_ratio;
  o.seed = cfg.random_seed.value_or(0);
  o.inter_turn_delay_cap_ms = cfg.inter_turn_delay_cap_s ? *cfg.inter_turn_delay_cap_s * 1e3 : -1;
  o.max_idle_gap_cap_ms = cfg.max_idle_gap_cap_s ? *cfg.max_idle_gap_cap_s * 1e3 : -1;
  o.speedup = cfg.replay_speedup;
  o.omit_kv_hints = cfg.omit_kv_hints;
  o.force_min_tokens = cfg.force_min_tokens.value_or(true);
  o.session_column =
      core::env().get_or(core::EnvVar::kAiperfBasetenSessionColumn, "provided_session_id");
  return o;
}

Result<dataset::DatasetFile> load_input_file(const config::BenchmarkConfig& cfg,
                                             std::optional<dataset::FileFormat> format,
                                             const tokenizer::Tokenizer* counter) {
  if (!cfg.public_dataset.empty()) {
    SB_TRY_ASSIGN(const dataset::PublicDataset* d, dataset::find_public_dataset(cfg.public_dataset));
    SB_TRY_ASSIGN(dataset::PublicDatasetOptions o, public_dataset_options(cfg));
    o.counter = counter;
    return dataset::load_public_dataset(*d, o, tokenizer::HubEnvironment::from_env());
  }
  const bool baseten = format ? *format == dataset::FileFormat::kBasetenTrace
                              : starts_with_parquet_magic(cfg.input_file);
  if (!baseten) return dataset::load_dataset_file(cfg.input_file, format);
  const dataset::BasetenOptions o = baseten_options(cfg);
  if (cfg.open_loop_strict && !o.open_loop)
    return make_error(ErrorCode::kInvalidArgument,
                      "--open-loop-strict needs open-loop replay; drop --no-open-loop-replay");
  if (o.session_column != "provided_session_id" && o.session_column != "poor_man_session_id")
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("AIPERF_DATASET_BASETEN_SESSION_COLUMN '{}' is not a session "
                                  "column; use provided_session_id or poor_man_session_id",
                                  o.session_column));
  SB_TRY(check_extra_inputs(cfg, o));
  return dataset::load_baseten_trace(cfg.input_file, o);
}

Result<std::vector<std::string>> synthesize_input_trace(const config::BenchmarkConfig& cfg,
                                                        uint64_t seed, dataset::DatasetFile* file) {
  std::vector<std::string> notes;
  if (!cfg.synthesis_given()) return notes;
  dataset::TraceSynthesisOptions o;
  o.speedup_ratio = cfg.synthesis_speedup_ratio;
  o.prefix_len_multiplier = cfg.synthesis_prefix_len_multiplier;
  o.prefix_root_multiplier = cfg.synthesis_prefix_root_multiplier;
  o.prompt_len_multiplier = cfg.synthesis_prompt_len_multiplier;
  o.output_len_multiplier = cfg.synthesis_output_len_multiplier;
  o.max_isl = cfg.synthesis_max_isl;
  o.max_osl = cfg.synthesis_max_osl;
  o.block_size = cfg.isl_block_size;
  o.seed = seed;
  SB_TRY_ASSIGN(const dataset::TraceSynthesisReport r, dataset::synthesize_trace(o, file));
  if (r.dropped_max_isl > 0)
    notes.push_back(fmt::format("{} trace row(s) dropped: input_length above --synthesis-max-isl {}",
                                r.dropped_max_isl, *o.max_isl));
  if (r.capped_max_osl > 0)
    notes.push_back(fmt::format("{} trace row(s) had their output length capped at --synthesis-max-osl {}",
                                r.capped_max_osl, *o.max_osl));
  return notes;
}

}  // namespace servebench::app
