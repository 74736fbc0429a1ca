// `servebench synthesize`: the synthetic workload that `servebench profile` builds from the same
// prompt flags and seed (app/workload_setup.h, dataset/conversations.h), written as a multi_turn
// JSONL file, one conversation per line:
//   {"session_id":"synthetic-0","turns":[{"text":"...","output_length":128},
//                                        {"text":"...","delay":350,"output_length":128}]}
// (`output_length` only with --osl, `delay` in ms only on later turns with a turn delay).
// `servebench profile --input-file FILE` sends exactly these texts; with
// --dataset-sampling-strategy shuffle and the same --random-seed it also sends them in the
// synthetic run's order.
//
// Texts only: flags that add what this format cannot carry (a shared system prompt, per-session
// user context, images/audio/video, --apply-chat-template's ISL compensation, an input file) are
// usage errors naming the flag.
//
// Thread safety: one call at a time (tokenizer loading may download into the cache).
#pragma once

#include <cstdint>
#include <string>

#include "config/benchmark_config.h"
#include "core/result.h"

namespace servebench::app {

struct SynthesizedFile {
  std::string jsonl;          // the file's content
  int64_t conversations = 0;
  int64_t turns = 0;
  std::string tokenizer;      // the tokenizer's name (counts were exact for it)
};

// Errors: kInvalidArgument for the flags above or a tokenizer that cannot be loaded, one line.
Result<SynthesizedFile> synthesize_workload(const config::BenchmarkConfig& cfg, uint64_t seed);

}  // namespace servebench::app
