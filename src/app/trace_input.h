// The --input-file loader used by the workload set-up: dataset files through
// dataset::load_dataset_file, Parquet traces (baseten_trace, given or detected by their "PAR1"
// magic) through dataset::load_baseten_trace with the trace replay flags of the config.
//
// Thread safety: pure function of the config and the file.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "config/benchmark_config.h"
#include "core/result.h"
#include "dataset/loaders/baseten_trace.h"
#include "dataset/loaders/dataset_file.h"
#include "dataset/public_datasets.h"

namespace servebench::app {

// The replay options of the config (--replay-speedup, --open-loop-replay, ...).
dataset::BasetenOptions baseten_options(const config::BenchmarkConfig& cfg);

// --hf-subset, --dataset-filter and --hf-weka-dataset as public dataset options (a malformed
// filter is an error).
Result<dataset::PublicDatasetOptions> public_dataset_options(const config::BenchmarkConfig& cfg);
// --public-dataset and its options checked before anything slow (one-line errors, exit code 2).
Status check_public_dataset(const config::BenchmarkConfig& cfg);

// Errors (exit code 2): the file's, or --extra-inputs that sets what each trace row sets
// (min_tokens while --force-min-tokens is on, hash_ids/block_size without --omit-kv-hints).
// `counter`: counts a public ShareGPT file's texts while it is parsed (PublicDatasetOptions).
Result<dataset::DatasetFile> load_input_file(const config::BenchmarkConfig& cfg,
                                             std::optional<dataset::FileFormat> format,
                                             const tokenizer::Tokenizer* counter = nullptr);

// --synthesis-*: reshapes the loaded trace in place (dataset/trace_synthesis.h; the prompts are
// built afterwards). Returns notes for the run's warnings (rows dropped or capped); an error
// (exit code 2) when --synthesis-max-isl drops every row.
Result<std::vector<std::string>> synthesize_input_trace(const config::BenchmarkConfig& cfg,
                                                        uint64_t seed, dataset::DatasetFile* file);

}  // namespace servebench::app
