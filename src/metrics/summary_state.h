// Internal to sb_metrics: the compact state of a SummaryAccumulator (summary_accumulator.h
// describes what it keeps and why) and the function that turns it into a Summary.
//
// Thread safety: a value type with one owner.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "metrics/column.h"
#include "metrics/error_groups.h"
#include "metrics/metric_info.h"
#include "metrics/record_metrics.h"
#include "metrics/sample_series.h"
#include "metrics/summary.h"
#include "metrics/sweep_rows.h"

namespace servebench::metrics {

struct SummaryState {
  // Slots computed for each outcome, fixed by the options' capabilities, with their value
  // functions (resolved once: add() runs per record).
  struct SlotFn {
    RecordMetric slot;
    RecordValueFn value;
  };
  std::vector<SlotFn> all_outcome_slots;  // every record (schedule lag)
  std::vector<SlotFn> success_slots;
  std::vector<SlotFn> error_slots;
  std::array<Column, kNumRecordSlots> columns;
  // One per chunk-list row the options enable, in table order. A list that mirrors another
  // (per-token ITL while every chunk carried one token) stays empty and `separate` false until a
  // record breaks the mirror; then it starts as a copy of the mirrored list.
  struct ChunkList {
    const MetricInfo* info = nullptr;
    SampleSeries series;
    int mirror_of = -1;  // index into chunk_lists
    bool separate = true;
  };
  std::vector<ChunkList> chunk_lists;

  int64_t added = 0;
  int64_t request_count = 0;
  int64_t error_request_count = 0;
  int64_t cancelled_request_count = 0;
  int64_t good_request_count = 0;
  int64_t usage_discrepancy_count = 0;
  int64_t osl_mismatch_count = 0;
  // Window over successful responses, and over every non-dropped started request.
  int64_t min_start_ns = std::numeric_limits<int64_t>::max();
  int64_t max_end_ns = 0;
  int64_t any_min_start_ns = std::numeric_limits<int64_t>::max();
  int64_t any_max_end_ns = 0;
  std::vector<std::pair<int64_t, int64_t>> intervals;  // [start, end) of started requests
  SweepData sweep;                                      // every record with a start and an end
  ErrorGroups errors;
};

// The summary of `state`. Consumes its per-request columns, intervals and chunk lists (released
// once their rows are computed, before the sweep rows are built); the rest stays.
Summary build_summary(SummaryState& state, const SummaryOptions& options);

}  // namespace servebench::metrics
