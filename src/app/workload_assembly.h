// Internal to the run library's workload set-up (workload_setup.cc for synthetic prompts,
// file_workload_setup.cc for --input-file): the conversations both build, and how they become a
// PreparedWorkload (single-turn request templates or a SessionWorkload, the entry order).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "app/workload_setup.h"
#include "core/media_part.h"
#include "dataset/sampling.h"

namespace servebench::app {

// The error a set-up loop returns when Ctrl-C was pressed (core/interrupt.h); the run library
// maps it to the signal's exit code.
Error interrupted_error();

bool chat_endpoint(const endpoints::Endpoint& endpoint);

// ISL of a prompt: each message's text counted on its own (as a chat template presents them to
// the server's tokenizer) and summed.
int64_t count_messages(const tokenizer::Tokenizer& tok, const std::vector<endpoints::Message>& msgs);

struct Assembly {
  std::vector<load::SessionTemplate> convs;
  bool sessions = false;
  bool fixed = false;  // convs (sessions) or their flattened turns (single turn) in timestamp order
  dataset::SamplingStrategy default_strategy = dataset::SamplingStrategy::kShuffle;
  // Synthetic media drawn as each single-turn entry is rendered (null: turns carry their own),
  // in the same order as drawing them up front, so only one entry's media is held at a time.
  std::function<Result<std::vector<core::MediaPart>>()> next_media;
};

// The conversations as single-turn request templates (each turn an entry, bodies rendered once
// per model, moved to the body store past its threshold: app/body_spill.h) or as a
// SessionWorkload, with the entry order and inputs.json's sessions.
Result<PreparedWorkload> assemble(Assembly a, const config::BenchmarkConfig& cfg, const tokenizer::Tokenizer& tok,
                                  const endpoints::Endpoint& endpoint, uint64_t seed, PreparedWorkload out);

}  // namespace servebench::app
