#include "export/artifacts.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "export/console.h"
#include "export/csv_export.h"
#include "export/record_stream.h"
#include "export/summary_json.h"
#include "export/text_util.h"
#include "metrics/slo.h"
#include "metrics/summary.h"

namespace servebench::exporter {

namespace {

Status write_file(const std::string& path, const std::string& content) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) {
    return make_error(ErrorCode::kIo, fmt::format("cannot write {}: {} (check --artifact-dir)",
                                                  path, std::strerror(errno)));
  }
  bool ok = std::fwrite(content.data(), 1, content.size(), f) == content.size();
  ok &= std::fclose(f) == 0;
  if (!ok) return make_error(ErrorCode::kIo, fmt::format("cannot write {}", path));
  return {};
}

// Writes what `produce` hands its sink to `path`, piece by piece.
template <class Produce>
Status stream_file(const std::string& path, Produce produce) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) {
    return make_error(ErrorCode::kIo, fmt::format("cannot write {}: {} (check --artifact-dir)",
                                                  path, std::strerror(errno)));
  }
  bool ok = true;
  const std::function<void(std::string_view)> sink = [&](std::string_view piece) {
    ok &= std::fwrite(piece.data(), 1, piece.size(), f) == piece.size();
  };
  produce(sink);
  ok &= std::fclose(f) == 0;
  if (!ok) return make_error(ErrorCode::kIo, fmt::format("cannot write {}", path));
  return {};
}

std::string sanitize_component(std::string s) {
  for (char& c : s) {
    if (c == '/' || c == '\\' || c == ' ' || c == ':') c = '_';
  }
  return s;
}

}  // namespace

ArtifactNames artifact_names(const std::string& prefix) {
  ArtifactNames n;
  if (prefix.empty()) {
    n.json = "profile_export_aiperf.json";
    n.csv = "profile_export_aiperf.csv";
    n.jsonl = "profile_export.jsonl";
    n.raw_jsonl = "profile_export_raw.jsonl";
    n.timeslices_json = "profile_export_aiperf_timeslices.json";
    n.timeslices_csv = "profile_export_aiperf_timeslices.csv";
    n.console = "profile_export_console.txt";
    n.inputs = "inputs.json";
  } else {
    n.json = prefix + ".json";
    n.csv = prefix + ".csv";
    n.jsonl = prefix + ".jsonl";
    n.raw_jsonl = prefix + "_raw.jsonl";
    n.timeslices_json = prefix + "_timeslices.json";
    n.timeslices_csv = prefix + "_timeslices.csv";
    n.console = prefix + "_console.txt";
    n.inputs = prefix + "_inputs.json";
  }
  return n;
}

Result<ExportOutcome> write_artifacts(const std::vector<record::RequestRecord>& records,
                                      const RunContext& context, const ExportOptions& options) {
  // The same path as a live run, fed all at once; the slice origin is left to the records
  // (their earliest start), which is metrics::summarize_slices' rule.
  auto stream = RecordStream::open(context, options, 1);
  if (!stream) return tl::unexpected(stream.error());
  (*stream)->add_batch(records, 0);
  const RunSummaries summaries = (*stream)->finish();
  auto outcome = write_summary_artifacts(summaries, context, options);
  if (outcome && !summaries.record_write_error.empty()) {
    return make_error(ErrorCode::kIo, summaries.record_write_error);
  }
  return outcome;
}

Result<ExportOutcome> write_summary_artifacts(const RunSummaries& run, const RunContext& context,
                                              const ExportOptions& options) {
  auto slos = metrics::parse_goodput(options.goodput);
  if (!slos) return tl::unexpected(slos.error());
  auto gates = metrics::parse_fail_on(options.fail_on);
  if (!gates) return tl::unexpected(gates.error());
  const metrics::Summary& summary = run.profiling;

  ExportOutcome outcome;
  outcome.request_count = summary.request_count;
  outcome.error_request_count = summary.error_request_count;
  std::vector<std::string> gate_texts;
  for (const auto& g : *gates) {
    gate_texts.push_back(g.text);
    double value;
    if (!summary.lookup(g.tag, g.stat, &value)) {
      outcome.gate_messages.push_back(
          fmt::format("fail-on {}: not evaluated ({}.{} was not measured in this run)", g.text,
                      g.tag, g.stat));
      continue;
    }
    const bool holds = metrics::gate_holds(g, value);
    outcome.gate_failed |= holds;
    outcome.gate_messages.push_back(fmt::format("fail-on {}: {} ({}.{} = {})", g.text,
                                                holds ? "FAILED" : "passed", g.tag, g.stat,
                                                format_number(value)));
  }

  std::error_code ec;
  std::filesystem::create_directories(options.artifact_dir, ec);
  if (ec) {
    return make_error(ErrorCode::kIo, fmt::format("cannot create artifact dir {}: {}",
                                                  options.artifact_dir, ec.message()));
  }
  const ArtifactNames names = artifact_names(options.profile_export_prefix);
  auto path = [&](const std::string& name) {
    return (std::filesystem::path(options.artifact_dir) / name).string();
  };
  std::vector<std::pair<std::string, std::string>> shown_paths;
  auto emit = [&](const std::string& name, const std::string& content,
                  const char* label) -> Status {
    const std::string p = path(name);
    if (auto st = write_file(p, content); !st) return st;
    outcome.files.push_back(p);
    if (label != nullptr) shown_paths.emplace_back(label, p);
    return {};
  };

  JsonInput ji;
  ji.context = &context;
  ji.profiling = &summary;
  ji.warmup = run.warmup ? &*run.warmup : nullptr;
  ji.gate_messages = outcome.gate_messages;
  ji.gate_failed = outcome.gate_failed;
  ji.fail_on = gate_texts;
  for (const auto& s : *slos) ji.goodput.push_back(fmt::format("{}:{}", s.tag, format_number(s.threshold_display)));
  ExtraSections extra;
  for (const auto& fn : context.extra_sections) {
    ExtraSections e = fn(summary);
    for (auto& kv : e.json) extra.json.push_back(std::move(kv));
    if (!e.csv.empty()) extra.csv += "\n" + e.csv;
    extra.console += e.console;
    for (auto& f : e.files) extra.files.push_back(std::move(f));
  }
  ji.extra_json = extra.json;
  for (const auto& [name, content] : extra.files) {
    if (auto st = emit(name, content, nullptr); !st) return tl::unexpected(st.error());
  }
  if (auto st = emit(names.csv, render_summary_csv(summary) + extra.csv, "CSV Export"); !st) {
    return tl::unexpected(st.error());
  }
  if (auto st = emit(names.json, render_summary_json(ji), "JSON Export"); !st) {
    return tl::unexpected(st.error());
  }
  for (const auto& [label, p] : run.record_files) {
    outcome.files.push_back(p);
    shown_paths.emplace_back(label, p);
  }
  if (options.slice_duration_ns > 0) {
    if (auto st = emit(names.timeslices_json, render_timeslices_json(context, run.slices),
                       "Timeslices JSON Export");
        !st) {
      return tl::unexpected(st.error());
    }
    if (auto st = emit(names.timeslices_csv, render_timeslices_csv(run.slices, context.anchor),
                       "Timeslices CSV Export");
        !st) {
      return tl::unexpected(st.error());
    }
  }

  if (!context.inputs.empty()) {  // streamed: no whole-file copy of every body
    const std::string p = path(names.inputs);
    if (auto st = stream_file(p, [&](const auto& sink) { write_inputs_json(context.inputs, sink, context.payload_written); }); !st)
      return tl::unexpected(st.error());
    outcome.files.push_back(p);
    shown_paths.emplace_back("Inputs Export", p);
  }

  ConsoleInput ci;
  ci.title = "servebench | " + context.metrics_title;
  ci.summary = &summary;
  ci.engine_warnings = context.warnings;
  ci.cli_command = context.cli_command;
  ci.gate_messages = outcome.gate_messages;
  ci.interrupted = context.interrupted;
  ci.extra_text = extra.console;
  ci.show_trace_timing = options.show_trace_timing;
  ci.artifact_paths = shown_paths;
  ci.artifact_paths.emplace_back("Console Export", path(names.console));
  const std::string console = render_console(ci);
  if (auto st = emit(names.console, console, nullptr); !st) return tl::unexpected(st.error());
  if (options.print_console) {
    std::fwrite(console.data(), 1, console.size(), stdout);
    std::fflush(stdout);
  }
  return outcome;
}

std::string artifact_dir_name(const std::string& model, const std::string& endpoint_part,
                              bool streaming, const std::string& load_label) {
  // AIPerf: "<model>-<service_kind>-<endpoint_type>-<stimulus>"; '/' in the model becomes '_'.
  // AIPerf does not mark streaming in the name; neither do we (same folder for both).
  (void)streaming;
  std::string name = sanitize_component(model.empty() ? "model" : model);
  name += "-" + sanitize_component(endpoint_part);
  if (!load_label.empty()) name += "-" + sanitize_component(load_label);
  return name;
}

}  // namespace servebench::exporter
