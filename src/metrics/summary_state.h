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

#include "metrics/error_groups.h"
#include "metrics/metric_info.h"
#include "metrics/record_metrics.h"
#include "metrics/sample_series.h"
#include "metrics/summary.h"

namespace servebench::metrics {

struct SummaryState {
  explicit SummaryState(const SummaryOptions& o)
      : icl(o.exact_chunk_samples), per_token(o.exact_chunk_samples) {}

  // Slots computed for each outcome, fixed by the options' capabilities, with their value
  // functions (resolved once: add() runs per record).
  struct SlotFn {
    RecordMetric slot;
    RecordValueFn value;
  };
  std::vector<SlotFn> all_outcome_slots;  // every record (schedule lag)
  std::vector<SlotFn> success_slots;
  std::vector<SlotFn> error_slots;
  bool icl_enabled = false;
  bool per_token_enabled = false;

  std::array<std::vector<double>, kNumRecordSlots> columns;
  // While every chunk seen carried one token, per-token ITL is the inter-chunk series itself and
  // `per_token` stays empty; the first multi-token record copies `icl` into it.
  SampleSeries icl;
  SampleSeries per_token;
  bool per_token_separate = false;

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
  ErrorGroups errors;
};

// The summary of `state`. Reorders the columns (selection); values stay the same multiset.
Summary build_summary(SummaryState& state, const SummaryOptions& options);

}  // namespace servebench::metrics
