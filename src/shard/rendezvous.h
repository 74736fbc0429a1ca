// Rendezvous: a start barrier over TCP for shards that no launcher barrier serves (Kubernetes
// Indexed Jobs reach shard 0 through the Job's headless Service, Slurm through the first node,
// mpirun through rank 0's host). Shard 0 listens on HOST:PORT; every other shard connects
// (retrying until the timeout), and its clock offset to shard 0 is measured with one
// request/response exchange (offset = local − (server + rtt/2), NTP's estimate, error ≤ rtt/2).
// When all N − 1 have arrived, shard 0 picks the start instant (its wall clock + lead) and
// sends it to each; every shard then waits for that instant on its own clock corrected by its
// offset, so the shards start together even when their wall clocks disagree.
//
// Protocol (text lines): client "SB1 HELLO <index> <count> <fingerprint>", server
// "SB1 TIME <wall ns>"; later server "SB1 START <wall ns>". A shard of another plan
// (fingerprint or count differs) is refused with "SB1 REFUSED <why>".
//
// Thread safety: blocks the calling thread; polls the interrupt flag every 100 ms.
#pragma once

#include <cstdint>
#include <string>

#include "core/clock.h"
#include "core/result.h"

namespace servebench::shard {

struct RendezvousOptions {
  std::string address;       // HOST:PORT (shard 0 listens on PORT on every interface)
  int32_t index = 0;
  int32_t count = 1;
  std::string fingerprint;   // the plan's (manifest.h): shards of other plans are refused
  int64_t timeout_ns = 600'000'000'000;  // how long to wait for every shard
  int64_t lead_ns = 2'000'000'000;       // start this long after the last shard arrived
};

struct RendezvousResult {
  int64_t start_at_wall_ns = 0;  // on this host's wall clock (offset applied)
  int64_t clock_offset_ns = 0;   // this host's wall clock − shard 0's
  int64_t rtt_ns = 0;            // of the offset exchange (shard 0: 0)
};

Result<RendezvousResult> rendezvous(const RendezvousOptions& options, const core::Clock& clock);

}  // namespace servebench::shard
