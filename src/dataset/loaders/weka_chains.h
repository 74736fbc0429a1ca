// Agent chains of weka_trace calls: a trace's flat top-level requests, or a sub-agent's recorded
// calls, may come from several agents working at once (parallel tool workers) that the recorder
// flattened into one list. A call continues an agent only if it extends that agent's context,
// so the calls are split back into chains by their hash ids, as AIPerf does:
//   preamble: with two or more calls, the earliest call (t, then index) is set aside when it has
//     hash ids, shares no leading block with any other call, and is small (out <= 64 tokens, a
//     title-generation call) or shares no block at all with the others. It goes back onto the
//     main chain afterwards; it never founds it.
//   phase 1 (the other calls in (t, index) order): a call without hash ids stays on the first
//     chain. A call extends the chain whose last hashed call's ids are a complete prefix of its
//     own, which had ended by then (t ≥ that call's t + api_time, 1e-6 s slack) and which ran on
//     the same model (unless same_model is false); the deepest such tail wins, ties to the lower chain. The first hashed call
//     joins the first chain when that holds only calls without ids. Otherwise a call starts a new
//     chain, forked from the chain whose tail shares the longest prefix with it (ties: the longer
//     tail, then the lower chain; none when nothing is shared).
//   phase 2 (fork sources in index order): a fork from a tail T that is still its chain's last
//     call, and that started after T ended, is the same agent continuing after a context edit
//     (a "seam", e.g. compaction) when nothing later extended T; of several, the one sharing the
//     most blocks with T (then the earliest, then the lower chain) is spliced onto T's chain.
//     Every other fork is a separate agent.
// The chain of the first (non-preamble) call is the main chain (0); the others are numbered 1,
// 2, ... in the order of their first call.
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <vector>

namespace servebench::dataset {

struct ChainCall {
  double t_s = 0;                                  // start, seconds
  double end_s = 0;                                // t + api_time (t when unknown)
  const std::vector<int64_t>* hash_ids = nullptr;  // not owned
  int32_t model = 0;                               // rank of the call's model
  int64_t in_tokens = 0;
  int64_t out_tokens = 0;
};

struct AgentChains {
  std::vector<int32_t> chain_of;   // per call (same order as the calls)
  std::vector<int64_t> fork_from;  // per chain: the call whose context it forked (-1: none)
  int64_t preamble = -1;           // the call set aside as a preamble (-1: none)
};

// `calls` split into chains. same_model false: a call may extend a tail of another model
// (sub-agents, as before AIPerf added the rule there).
AgentChains detect_agent_chains(const std::vector<ChainCall>& calls, bool same_model = true);

}  // namespace servebench::dataset
