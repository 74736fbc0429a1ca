// Names of the worker chains of weka_chains.h (every chain but the main one), as AIPerf names
// them in session ids. The yardstick is the main chain without its preamble: its first call's
// model and its largest `in`.
//   "aux:NNN"      a one-call chain on another model, or whose `in` is under a quarter of the
//                  main chain's largest (a small one-shot side call: a summary, a classifier);
//   "aux:red:NNN"  any other one-call chain whose `in` is at least 16 times its `out` > 0 (a
//                  reduction: a compaction or a digest of a large input);
//   "wg:GGG_MMM"   two or more other chains forked from shared context (fork_from >= 0) whose
//                  first calls start with the same block and whose spans (first t to the last
//                  call's end) overlap, directly or through each other: a parallel fan-out
//                  group; GGG numbers the groups by their earliest start, MMM the members by
//                  start;
//   "fa:NNN"       every other chain (a solo agent).
// NNN numbers the workers in chain order, every kind counted; both numbers go on across the
// calls that share one `WorkerCounters` (one trace's sub-agents).
//
// Thread safety: pure function.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dataset/loaders/weka_chains.h"

namespace servebench::dataset {

struct WorkerCounters {
  int32_t workers = 0;
  int32_t groups = 0;
};

// One suffix per chain of `chains` ("" for the main chain 0).
std::vector<std::string> worker_suffixes(const std::vector<ChainCall>& calls, const AgentChains& chains,
                                         WorkerCounters* counters);

}  // namespace servebench::dataset
