// SummaryAccumulator: builds a Summary from records handed over one at a time, so a run never
// has to keep its records in memory (DESIGN.md "Streamed records"). Record processing calls
// add() as each record is token-counted, then drops the record; finish() gives the same Summary
// summarize() would give for the same records (order does not matter).
//
// Several accumulators (one per processor thread, one per time slice, one per shard read back
// from JSONL) combine with merge().
//
// Thread safety: not thread-safe; one owner at a time. merge() consumes `other`.
#pragma once

#include <cstddef>

#include "metrics/summary.h"
#include "record/request_record.h"

namespace servebench::metrics {

class SummaryAccumulator {
 public:
  explicit SummaryAccumulator(SummaryOptions options);
  ~SummaryAccumulator();
  SummaryAccumulator(SummaryAccumulator&&) noexcept;
  SummaryAccumulator& operator=(SummaryAccumulator&&) noexcept;

  // REQUIRES: token counts filled (record processing done). Keeps only what the summary needs.
  void add(const record::RequestRecord& r);
  // Folds `other` (built with the same options) into this one.
  void merge(SummaryAccumulator&& other);
  // The summary of every record added or merged so far. May be called more than once.
  Summary finish() const;
  // Records added (all phases and outcomes).
  size_t size() const;
  // Bytes held for the records added so far (for the memory benchmark).
  size_t memory_bytes() const;

 private:
  struct State;
  SummaryOptions options_;
  State* state_;
};

}  // namespace servebench::metrics
