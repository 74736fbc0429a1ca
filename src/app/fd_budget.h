// File-descriptor budget: whether the load can get the sockets it needs under RLIMIT_NOFILE,
// checked before anything is sent. Past the limit every new connection fails with "Too many
// open files" and the run measures the client, not the server.
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/result.h"
#include "load/load_spec.h"

namespace servebench::app {

// Descriptors a process needs besides connections (stdio, logs, artifact and dataset files,
// the resolver) and per worker (epoll, timer and event descriptors, libcurl's wake-up pair).
inline constexpr int64_t kFdBase = 64;
inline constexpr int64_t kFdPerWorker = 12;
// HTTP/2 multiplexes; libcurl opens another connection when one's streams are full (servers
// usually allow about 100 concurrent streams).
inline constexpr int64_t kStreamsPerConnection = 100;

struct FdNeed {
  int64_t descriptors = 0;       // estimated need
  std::optional<int64_t> slots;  // requests in flight at most, when the load bounds it
  std::string cause;             // what sets it, e.g. "--concurrency 5000 × 2 URLs"
};

// The need of a load with at most `slots` requests in flight (nullopt: unbounded open loop,
// then only the fixed part is counted).
FdNeed estimate_fd_need(const load::LoadSpec& spec, int64_t urls, int workers, int http_version);

// kInvalidArgument when `need` exceeds `limit` (the soft limit after raising it to the hard
// limit): one line with the `ulimit -n N` fix and the largest concurrency that fits.
Status check_fd_budget(const FdNeed& need, uint64_t limit, int64_t urls, int workers);

// An open loop without a ceiling cannot be checked (requests in flight = rate × latency), but
// LLM requests rarely finish within a second, so rate × 1 s is a floor: a warning (not an
// error, the server may be faster) when even that floor exceeds `limit`; "" otherwise.
std::string open_loop_fd_warning(const load::LoadSpec& spec, int64_t urls, int workers,
                                 uint64_t limit);

}  // namespace servebench::app
