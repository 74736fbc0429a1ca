// Agentic replay lanes (`--scenario inferencex-agentx-mvp`, config/scenario.h): --concurrency
// lanes, each replaying an agent trace from a random start turn, in three steps:
//
//   plan_lanes     lane i plays root trace i (i mod M with --allow-dataset-wrap; more lanes than
//                  the M traces is an error without it) from start turn k_i:
//                  - traces whose turns all carry recorded starts T_0..T_{n-1}: a ratio r drawn
//                    uniformly from [min, max] gives t* = T_0 + r (T_{n-1} - T_0), and k_i is the
//                    last turn that started at or before t*;
//                  - other traces: k_i uniform in [floor(min n), floor(max n)];
//                  both capped at n - 2 so at least one turn is left to profile (0 for n = 1).
//                  Spread phase starts (the default): lane i's warm-up turn waits
//                  max_j(t*_j - T_kj) - (t*_i - T_ki), so every lane reaches its t* together,
//                  and its first profiling turn waits T_{k_i+1} - t*_i, less the common shift
//                  that brings the earliest one within the system idle-gap cap. Burst (or
//                  traces without recorded starts): no waits.
//   apply_lanes    adds to the workload, per lane, a warm-up conversation of turn k_i alone (it
//                  primes the server's prefix cache; no sub-agents) and a profiling
//                  conversation of turns k_i+1.. (sub-agents spawned after k_i kept, joins
//                  renumbered; those spawned at k_i start with it; earlier ones dropped). Both
//                  share the lane's cache-bust key, so the continuation hits what the warm-up
//                  primed. Warm-up session i plays lane i's warm-up; profiling session i < N
//                  lane i's continuation, and later sessions (a lane whose trajectory ended)
//                  recycle the whole traces in file order, each play its own marker.
//
// With cache pressure (--agentic-cache-warmup-duration), apply_lanes makes each lane's warm-up
// play turn k_i followed by the lane's later turns, and adds a pressure copy of every root trace
// for the warm-up sessions after the lanes' (SessionWorkload::warmup_order): their turns after
// the first go with no delay and ask for one output token (sub-agents are not replayed). The
// warm-up phase then lasts the given duration (app/agentic_setup.h), and profiling resumes each
// lane after the last turn its warm-up completed (SessionWorkload::lane_progress; a lane whose
// trajectory ended in the warm-up goes straight to recycled traces).
//
// The engine then runs an ordinary session workload: a warm-up phase of N sessions under
// concurrency N (the barrier: profiling starts when every priming reply is in, or after the
// agentic warm-up grace), then a closed-loop profiling phase of N slots for the duration.
//
// Thread safety: pure functions, run before t0.
#pragma once

#include <cstdint>
#include <vector>

#include "core/result.h"
#include "load/sessions.h"

namespace servebench::load {

struct LaneOptions {
  int64_t lanes = 1;          // --concurrency
  double min_ratio = 0.25;    // --trajectory-start-min-ratio
  double max_ratio = 0.75;    // --trajectory-start-max-ratio
  bool allow_wrap = false;    // --allow-dataset-wrap
  bool burst = false;         // --burst-phase-starts
  int64_t system_idle_cap_ns = -1;  // --system-idle-gap-cap-seconds (-1: none)
  uint64_t seed = 0;
};

struct Lane {
  uint32_t trace = 0;          // index into SessionWorkload::conversations (a root)
  int32_t start_turn = 0;      // k: warmed in the warm-up; profiling resumes at k + 1
  int64_t t_star_ns = -1;      // sampled start instant on the trace's clock (-1: by turn count)
  int64_t warmup_delay_ns = 0;
  int64_t profile_delay_ns = 0;
};

// REQUIRES: link_children already ran (roots are the conversations not marked is_child).
Result<std::vector<Lane>> plan_lanes(const SessionWorkload& workload, const LaneOptions& options);
void apply_lanes(SessionWorkload* workload, const std::vector<Lane>& lanes, bool cache_pressure = false);

}  // namespace servebench::load
