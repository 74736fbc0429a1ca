#include "export/record_stream.h"

#include <algorithm>
#include <filesystem>
#include <optional>

#include <fmt/format.h>

#include "export/line_cursor.h"
#include "export/records_jsonl.h"
#include "metrics/slo.h"
#include "record/pause_point.h"

namespace servebench::exporter {

struct RecordStream::Slot {
  explicit Slot(const metrics::SummaryOptions& o) : profiling(o), warmup(o) {}
  metrics::SummaryAccumulator profiling;
  metrics::SummaryAccumulator warmup;
  std::string lines, raw_lines;  // reused between batches
};

RecordStream::RecordStream(const RunContext& context, const ExportOptions& options,
                           metrics::SummaryOptions summary_options, size_t slots)
    : context_(context), options_(options), summary_options_(std::move(summary_options)) {
  for (size_t i = 0; i < std::max<size_t>(1, slots); ++i) {
    slots_.push_back(std::make_unique<Slot>(summary_options_));
  }
  if (options_.slice_duration_ns > 0) slices_.emplace(options_.slice_duration_ns, summary_options_);
  // Records are spread over the slots by batch; a slot may see up to all of them.
  constexpr int64_t kMaxReserved = int64_t{1} << 24;
  const int64_t expected = std::min(options_.expected_records, kMaxReserved);
  if (expected > 0) {
    for (auto& sl : slots_) sl->profiling.reserve(static_cast<size_t>(expected));
  }
  payloads_.reserve(context_.inputs.size());
  for (const auto& s : context_.inputs) {
    payloads_.emplace_back(s.payloads_json.empty() ? std::string_view()
                                                   : std::string_view(s.payloads_json.front()));
  }
}

RecordStream::~RecordStream() = default;

Result<std::unique_ptr<RecordStream>> RecordStream::open(const RunContext& context,
                                                         const ExportOptions& options,
                                                         size_t slots) {
  auto slos = metrics::parse_goodput(options.goodput);
  if (!slos) return tl::unexpected(slos.error());
  if (auto gates = metrics::parse_fail_on(options.fail_on); !gates) {
    return tl::unexpected(gates.error());
  }
  std::error_code ec;
  std::filesystem::create_directories(options.artifact_dir, ec);
  if (ec) {
    return make_error(ErrorCode::kIo, fmt::format("cannot create artifact dir {}: {}",
                                                  options.artifact_dir, ec.message()));
  }
  metrics::SummaryOptions so;
  so.slos = std::move(*slos);
  so.anchor = context.anchor;
  so.capabilities = context.capabilities;
  so.replay_lag_rows = context.fixed_schedule;
  std::unique_ptr<RecordStream> s(new RecordStream(context, options, std::move(so), slots));
  const ArtifactNames names = artifact_names(options.profile_export_prefix);
  auto path = [&](const std::string& name) {
    return (std::filesystem::path(options.artifact_dir) / name).string();
  };
  if (options.level != ExportLevel::kSummary) {
    auto w = JsonlWriter::open(path(names.jsonl));
    if (!w) return tl::unexpected(w.error());
    s->jsonl_ = std::move(*w);
  }
  if (options.level == ExportLevel::kRaw) {
    auto w = JsonlWriter::open(path(names.raw_jsonl));
    if (!w) return tl::unexpected(w.error());
    s->raw_ = std::move(*w);
  }
  return s;
}

namespace {
void flush_lines(JsonlWriter* writer, std::string* lines) {
  writer->append(*lines);
  lines->clear();
}
}  // namespace

void RecordStream::add_batch(const std::vector<record::RequestRecord>& batch, size_t slot,
                             const RecordVisitor& each) {
  Slot& sl = *slots_[slot];
  sl.lines.clear();
  sl.raw_lines.clear();
  // Lines go to the writer in pieces of about kFlushBytes: a batch of thousands of records
  // (the processor catching up) then reuses the same warm buffer instead of growing a fresh one
  // of many MiB, whose new pages cost a fault each.
  constexpr size_t kFlushBytes = size_t{1} << 20;
  // With O_DIRECT the lines are written straight into the writer's block (declared first: the
  // cursor commits its last line before the Direct lets the writer go).
  std::optional<JsonlWriter::Direct> direct;
  std::optional<LineCursor> cursor;
  if (jsonl_) direct.emplace(jsonl_.get());
  if (direct && *direct) cursor.emplace(&*direct);
  const HttpTraceContext* trace = context_.export_http_trace ? &context_.http_trace : nullptr;
  metrics::RecordValues values;
  for (const record::RequestRecord& r : batch) {
    record::pause_point();  // a waiting worker gets the core back (record/pause_point.h)
    // The accumulator computes the record's metric values once, for itself and for the line
    // (its options carry context_.capabilities, as the line's values must).
    (r.phase == record::Phase::kWarmup ? sl.warmup : sl.profiling).add(r, &values);
    if (each) each(r, values);
    if (cursor) {
      append_record_line(r, context_.anchor, values, &*cursor, trace);
    } else if (jsonl_) {
      append_record_line(r, context_.anchor, values, &sl.lines, trace);
    }
    if (raw_) append_raw_line(r, context_.anchor, payloads_, &sl.raw_lines);
    if (jsonl_ && sl.lines.size() >= kFlushBytes) flush_lines(jsonl_.get(), &sl.lines);
    if (raw_ && sl.raw_lines.size() >= kFlushBytes) flush_lines(raw_.get(), &sl.raw_lines);
  }
  cursor.reset();  // commits the last line
  direct.reset();  // lets the writer go
  if (jsonl_) jsonl_->append(sl.lines);
  if (raw_) raw_->append(sl.raw_lines);
  // A long line (raw export of a huge response) must not stay reserved for the whole run.
  if (sl.lines.capacity() > (8u << 20)) std::string().swap(sl.lines);
  if (sl.raw_lines.capacity() > (8u << 20)) std::string().swap(sl.raw_lines);
  if (!slices_) return;
  std::lock_guard<std::mutex> lock(slices_mu_);
  for (const record::RequestRecord& r : batch) {
    if (r.phase == record::Phase::kProfiling) slices_->add(r);
  }
}

void RecordStream::set_slice_origin(int64_t steady_ns) {
  std::lock_guard<std::mutex> lock(slices_mu_);
  if (slices_) slices_->set_origin(steady_ns);
}

RunSummaries RecordStream::finish() {
  RunSummaries out;
  for (JsonlWriter* w : {jsonl_.get(), raw_.get()}) {
    if (w == nullptr) continue;
    auto st = w->close();
    if (!st && out.record_write_error.empty()) out.record_write_error = st.error().message;
  }
  metrics::SummaryAccumulator profiling(summary_options_), warmup(summary_options_);
  for (auto& sl : slots_) {
    profiling.merge(std::move(sl->profiling));
    warmup.merge(std::move(sl->warmup));
  }
  out.profiling = std::move(profiling).finish();
  if (warmup.size() > 0) out.warmup = std::move(warmup).finish();
  if (slices_) {
    std::lock_guard<std::mutex> lock(slices_mu_);
    out.slices = slices_->finish();
  }
  if (jsonl_) out.record_files.emplace_back("Records Export", jsonl_->path());
  if (raw_) out.record_files.emplace_back("Raw Records Export", raw_->path());
  return out;
}

}  // namespace servebench::exporter
