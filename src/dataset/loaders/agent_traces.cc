#include "dataset/loaders/agent_traces.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "core/interrupt.h"
#include "dataset/loaders/dag_jsonl.h"
#include "dataset/loaders/parsers.h"
#include "dataset/loaders/sagemaker_capture.h"
#include "dataset/loaders/weka_trace.h"

namespace servebench::dataset {
namespace {

namespace fs = std::filesystem;
using simdjson::dom::element;

bool has(simdjson::dom::object o, const char* key) {
  element e;
  return o[key].get(e) == simdjson::SUCCESS;
}

bool is_dag(simdjson::dom::object o) {
  element sid, turns;
  if (o["session_id"].get(sid) != simdjson::SUCCESS || !sid.is_string()) return false;
  simdjson::dom::array arr;
  if (o["turns"].get(arr) != simdjson::SUCCESS || arr.size() == 0) return false;
  for (element t : arr) {
    simdjson::dom::object to;
    if (t.get(to) != simdjson::SUCCESS) return false;
    if (!has(to, "messages") && !has(to, "forks") && !has(to, "spawns")) return false;
  }
  return true;
}

// Files under `dir` whose name ends with `suffix` (recursively when asked), sorted.
Result<std::vector<std::string>> files_with(const std::string& dir, std::string_view suffix, bool recursive) {
  std::vector<std::string> out;
  std::error_code ec;
  auto take = [&](const fs::directory_entry& e) {
    std::error_code tec;
    if (e.is_regular_file(tec) && e.path().string().ends_with(suffix)) out.push_back(e.path().string());
  };
  if (recursive) {
    for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) take(*it);
  } else {
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) take(*it);
  }
  if (ec)
    return make_error(ErrorCode::kNotFound, fmt::format("--input-file '{}' cannot be listed: {}", dir, ec.message()));
  if (out.empty())
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("--input-file '{}' holds no *{} file{}; give a trace file or a folder of them", dir,
                                  suffix, recursive ? " (searched recursively)" : ""));
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

std::optional<FileFormat> agent_trace_format(simdjson::dom::object first) {
  if (has(first, "hash_id_scope") && has(first, "requests")) return FileFormat::kWekaTrace;
  if (has(first, "captureData")) return FileFormat::kSageMakerCapture;
  if (is_dag(first)) return FileFormat::kDagJsonl;
  return std::nullopt;
}

bool is_agent_folder_format(FileFormat f) {
  return f == FileFormat::kWekaTrace || f == FileFormat::kSageMakerCapture;
}

Result<DatasetFile> parse_agent_trace(std::string_view text, FileFormat format, const std::string& name) {
  switch (format) {
    case FileFormat::kWekaTrace: return parsers::parse_weka_trace(text, name);
    case FileFormat::kDagJsonl: return parsers::parse_dag_jsonl(text, name);
    case FileFormat::kSageMakerCapture: return parsers::parse_sagemaker_capture(text, name);
    default: break;
  }
  return make_error(ErrorCode::kInternal, "parse_agent_trace: not an agent-trace format");
}

Result<DatasetFile> load_agent_folder(const std::string& path, FileFormat format, const InputLimits& limits) {
  const bool weka = format == FileFormat::kWekaTrace;
  SB_TRY_ASSIGN(const std::vector<std::string> files, files_with(path, weka ? ".json" : ".jsonl", !weka));
  DatasetFile all;
  all.format = format;
  for (const auto& f : files) {
    if (core::interrupt_requested()) return parsers::interrupted(path);
    SB_TRY_ASSIGN(const std::string text, read_input_file(f, limits));
    if (!weka) SB_TRY(check_line_lengths(text, limits, f));
    SB_TRY_ASSIGN(DatasetFile one, weka ? parsers::parse_weka_trace(text, f)
                                        : parsers::parse_sagemaker_capture_absolute(text, f));
    if (weka) {
      SB_TRY(parsers::merge_weka_trace(&all, std::move(one), f));
      continue;
    }
    all.lines += one.lines;
    all.has_timestamps |= one.has_timestamps;
    for (auto& c : one.conversations) {
      c.session_id = fmt::format("capture-{}", all.conversations.size());
      all.conversations.push_back(std::move(c));
    }
  }
  if (!weka) parsers::rebase_timestamps(&all);  // ms after the earliest capture of all files
  return all;
}

}  // namespace servebench::dataset
