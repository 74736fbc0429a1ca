// Rendered single-turn bodies move to a file-backed store (load/body_store.h) once they pass a
// threshold in total, so preparing a media workload holds about one entry's bodies in memory
// instead of all of them. Below the threshold nothing changes (text workloads stay in memory).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>

#include "app/workload_setup.h"
#include "core/result.h"

namespace servebench::app {

// 256 MiB of bodies; SERVEBENCH_BODY_STORE_MIB=<MiB> sets another (0: always store).
constexpr int64_t kBodyStoreThresholdMiB = 256;
Result<int64_t> body_store_threshold_bytes();

// The run's body store, opened on first use (BodyStore::default_dir()).
Result<load::BodyStore*> workload_store(PreparedWorkload* out);

// Appends *bytes to the store and frees their memory; returns where they now live.
Result<std::string_view> move_to_store(load::BodyStore* store, std::string* bytes);

// Strings kept for the run (input files' media, sessions' inputs.json bodies): in `memory` until
// they pass the threshold in total, or once the workload has a store, then in the workload's
// store (opened then). `memory` is a deque, so moving the workload keeps the views.
class KeptBytes {
 public:
  KeptBytes(int64_t threshold_bytes, std::deque<std::string>* memory) : threshold_(threshold_bytes), memory_(memory) {}
  Result<std::string_view> keep(std::string bytes, PreparedWorkload* out);

 private:
  int64_t threshold_;
  std::deque<std::string>* memory_;
  int64_t held_ = 0;
};

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
