// Rendered single-turn bodies move to a file-backed store (load/body_store.h) once they pass a
// threshold in total, so preparing a media workload holds about one entry's bodies in memory
// instead of all of them. Below the threshold nothing changes (text workloads stay in memory).
#pragma once

#include <cstddef>
#include <cstdint>

#include "app/workload_setup.h"
#include "core/result.h"

namespace servebench::app {

// 256 MiB of bodies; SERVEBENCH_BODY_STORE_MIB=<MiB> sets another (0: always store).
constexpr int64_t kBodyStoreThresholdMiB = 256;
Result<int64_t> body_store_threshold_bytes();

class BodySpill {
 public:
  explicit BodySpill(int64_t threshold_bytes) : threshold_(threshold_bytes) {}
  // After each entry is rendered: counts its new bodies and, once the total passes the
  // threshold, moves every body still in memory to the store (opened on first use).
  Status after_entry(PreparedWorkload* out);

 private:
  int64_t threshold_;
  int64_t total_ = 0;
  size_t counted_requests_ = 0;
  size_t counted_warmup_ = 0;
};

}  // namespace servebench::app
