// Replay-timing options for recorded traces, applied to a parsed DatasetFile before the
// workload is built:
//
// strip_trace_delays (--ignore-trace-delays, any format): every timestamp, delay, think time and
//   recorded server time is dropped, children start right after their anchor turn, and the file
//   no longer switches the fixed schedule on: turns go back to back.
//
// retime_agent_traces (weka_trace; a no-op for other formats), per root trace and every
//   conversation below it, from the recorded starts (FileTurn::recorded_t_ms):
//   idle_gap_cap_s >= 0 (--trace-idle-gap-cap-seconds S): the trace's clock is warped so that no
//     gap between consecutive request starts (parent and sub-agents together) exceeds S — a
//     gap g becomes min(g, S), so starts 0, 20, 220 s become 0, 20, 80 s with S = 60; every
//     timestamp, delay and child start offset is then taken from the warped clock;
//   end_to_start: a turn's delay is the recorded gap from the previous call's end (its start plus
//     api_time) to this call's start, floored at 0 (start-to-start when api_time is unknown).
//   With neither, the file is unchanged.
//
// Thread safety: pure functions.
#pragma once

#include "dataset/loaders/dataset_file.h"

namespace servebench::dataset {

void strip_trace_delays(DatasetFile* file);

struct RetimeOptions {
  double idle_gap_cap_s = -1;  // < 0: no cap
  bool end_to_start = false;
};
void retime_agent_traces(DatasetFile* file, const RetimeOptions& options);

// The warp of one trace's clock: `starts` (ms, any order) with gaps above cap_ms compressed to it.
class IdleGapWarp {
 public:
  IdleGapWarp(std::vector<double> starts_ms, double cap_ms);
  double operator()(double t_ms) const;  // monotone; identity when cap_ms < 0

 private:
  std::vector<double> starts_;
  std::vector<double> warped_;
  double cap_ms_;
};

}  // namespace servebench::dataset
