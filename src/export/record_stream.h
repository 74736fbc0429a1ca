// RecordStream: the per-request exports and the summaries, built while the run goes on. Record
// processing hands it each token-counted batch (add_batch) and then drops the records: the
// batch's profile_export.jsonl lines (and profile_export_raw.jsonl lines at --export-level raw)
// are appended with one write per file, and the records feed SummaryAccumulators (profiling,
// warm-up, and one per time slice with --slice-duration). No record outlives its batch, so
// memory is what the accumulators keep (metrics/summary_accumulator.h), not the run's texts.
//
// After the run, finish() gives the summaries and write_summary_artifacts() (artifacts.h)
// writes the summary files from them.
//
// JSONL line order is completion order (records_jsonl.h).
//
// Thread safety: add_batch() from up to `slots` threads at once, each with its own slot;
// set_slice_origin() from any thread; open() and finish() from the owning thread, finish()
// after the last add_batch(). `context` must outlive the stream (the raw lines read its
// inputs).
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/result.h"
#include "export/artifacts.h"
#include "export/jsonl_writer.h"
#include "export/slice_accumulator.h"
#include "metrics/summary.h"
#include "metrics/summary_accumulator.h"
#include "metrics/timeslices.h"
#include "record/request_record.h"

namespace servebench::exporter {

// What the run measured, ready for the summary files.
struct RunSummaries {
  metrics::Summary profiling;
  std::optional<metrics::Summary> warmup;   // set when warm-up records were added
  std::vector<metrics::TimeSlice> slices;   // --slice-duration only
  // The per-request files written, as (console label, path), in the console's order.
  std::vector<std::pair<std::string, std::string>> record_files;
  // The first write error of the per-request files ("" = none). The summaries are complete
  // anyway (the accumulators saw every record): write them, then report the loss.
  std::string record_write_error;
};

class RecordStream {
 public:
  // Checks --goodput / --fail-on (usage errors), creates options.artifact_dir and opens the
  // JSONL files the export level asks for (kIo naming the path when that fails).
  static Result<std::unique_ptr<RecordStream>> open(const RunContext& context,
                                                    const ExportOptions& options, size_t slots);
  ~RecordStream();

  // Called with each record and the metric values the summary computed for it (under
  // RunContext::capabilities), on the add_batch caller's thread.
  using RecordVisitor =
      std::function<void(const record::RequestRecord&, const metrics::RecordValues&)>;
  // REQUIRES: slot < slots; token counts filled.
  void add_batch(const std::vector<record::RequestRecord>& batch, size_t slot,
                 const RecordVisitor& each = nullptr);
  // Time slices start here (steady ns) instead of at the earliest request start; see
  // slice_accumulator.h. Call before the first profiling record for bounded memory.
  void set_slice_origin(int64_t steady_ns);
  // Closes the files (a write error lands in record_write_error) and merges the accumulators.
  RunSummaries finish();

 private:
  struct Slot;
  RecordStream(const RunContext& context, const ExportOptions& options,
               metrics::SummaryOptions summary_options, size_t slots);

  const RunContext& context_;
  const ExportOptions options_;
  const metrics::SummaryOptions summary_options_;
  std::vector<std::string_view> payloads_;  // raw lines: bodies by payload_index
  std::unique_ptr<JsonlWriter> jsonl_, raw_;
  std::vector<std::unique_ptr<Slot>> slots_;
  mutable std::mutex slices_mu_;
  std::optional<SliceAccumulator> slices_;
};

}  // namespace servebench::exporter
