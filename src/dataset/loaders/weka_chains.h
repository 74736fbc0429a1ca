// Agent chains of a weka_trace sub-agent: a sub-agent's recorded calls may come from several
// agents working at once (parallel tool workers) that the recorder flattened into one list. A
// call continues an agent only if it extends that agent's context, so the calls are split back
// into chains by their hash ids, as AIPerf does:
//   phase 1 (calls in (t, index) order): a call without hash ids stays on the first chain. A call
//     extends the chain whose last hashed call's ids are a complete prefix of its own and which
//     had ended by then (t ≥ that call's t + api_time, 1e-6 s slack); the deepest such tail wins,
//     ties to the lower chain. Otherwise it starts a new chain, forked from the chain whose tail
//     shares the longest prefix with it (ties: the longer tail, then the lower chain; none when
//     nothing is shared).
//   phase 2 (fork sources in index order): a fork from a tail T that is still its chain's last
//     call, and that started after T ended, is the same agent continuing after a context edit
//     (a "seam", e.g. compaction) when nothing later extended T; of several, the one sharing the
//     most blocks with T (then the earliest, then the lower chain) is spliced onto T's chain.
//     Every other fork is a separate agent.
// The chain of the first call is the main chain (0); the others are numbered 1, 2, ... in the
// order of their first call.
//
// Thread safety: pure function.
#pragma once

#include <cstdint>
#include <vector>

namespace servebench::dataset {

struct ChainCall {
  double t_s = 0;                                  // start, seconds
  double end_s = 0;                                // t + api_time (t when unknown)
  const std::vector<int64_t>* hash_ids = nullptr;  // not owned
};

// The chain of each call (same order as `calls`).
std::vector<int32_t> detect_agent_chains(const std::vector<ChainCall>& calls);

}  // namespace servebench::dataset
