#include "dataset/loaders/dataset_file.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <algorithm>
#include <filesystem>

#include "core/env.h"
#include "core/interrupt.h"
#include "dataset/loaders/baseten_trace.h"
#include "dataset/loaders/input_file.h"
#include "dataset/loaders/agent_traces.h"
#include "dataset/loaders/parsers.h"

namespace servebench::dataset {
namespace {

namespace fs = std::filesystem;
using simdjson::dom::element;
using simdjson::dom::object;

struct NamedFormat {
  const char* name;
  FileFormat format;
};
constexpr NamedFormat kFormats[] = {
    {"single_turn", FileFormat::kSingleTurn},     {"multi_turn", FileFormat::kMultiTurn},
    {"random_pool", FileFormat::kRandomPool},     {"mooncake_trace", FileFormat::kMooncakeTrace},
    {"bailian_trace", FileFormat::kBailianTrace}, {"burst_gpt_trace", FileFormat::kBurstGptTrace},
    {"inputs_json", FileFormat::kInputsJson},     {"raw_payload", FileFormat::kRawPayload},
    {"sharegpt", FileFormat::kShareGpt},
    {"baseten_trace", FileFormat::kBasetenTrace},
    {"weka_trace", FileFormat::kWekaTrace},       {"dag_jsonl", FileFormat::kDagJsonl},
    {"sagemaker_data_capture", FileFormat::kSageMakerCapture},
};

FileFormat guess_from_object(object obj) {
  element e;
  auto has = [&](const char* k) { return obj[k].get(e) == simdjson::SUCCESS; };
  if (auto agentic = agent_trace_format(obj)) return *agentic;
  if (has("turns")) return FileFormat::kMultiTurn;
  if (has("chat_id") && has("parent_chat_id")) return FileFormat::kBailianTrace;
  if (has("input_length") || has("hash_ids") || has("text_input") || has("messages"))
    return FileFormat::kMooncakeTrace;
  if (has("payload") && !has("text") && !has("texts")) return FileFormat::kRawPayload;
  return FileFormat::kSingleTurn;
}

// The name used in parse messages ("file:line: ..."): standard input has no path.
std::string display_name(const std::string& path) { return is_stdin_path(path) ? "<stdin>" : path; }

bool is_line_format(FileFormat f) {
  return f != FileFormat::kInputsJson && f != FileFormat::kShareGpt &&
         f != FileFormat::kBasetenTrace && f != FileFormat::kWekaTrace;
}

// AIPerf's auto-detection order, from the first record of the text.
Result<FileFormat> detect_text_format(std::string_view t, const std::string& path) {
  const size_t first = t.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos)
    return make_error(ErrorCode::kParse, fmt::format("--input-file '{}' is empty", path));
  if (looks_like_parquet(t)) return FileFormat::kBasetenTrace;
  if (t.substr(first).starts_with("Timestamp,") || path.ends_with(".csv"))
    return FileFormat::kBurstGptTrace;
  if (t[first] == '[') return FileFormat::kShareGpt;
  size_t nl = t.find('\n', first);
  std::string_view line =
      t.substr(first, nl == std::string_view::npos ? std::string_view::npos : nl - first);
  simdjson::dom::parser parser;
  element doc;
  if (parser.parse(line.data(), line.size(), true).get(doc) != simdjson::SUCCESS) {
    // Not one object per line: a whole-file JSON object is AIPerf's inputs.json.
    element whole;
    // `whole` is only valid when the parse succeeded (an unparsed element must not be read).
    const bool parsed = parser.parse(t.data(), t.size(), true).get(whole) == simdjson::SUCCESS;
    if (parsed && whole.is_object() && whole["data"].error() == simdjson::SUCCESS)
      return FileFormat::kInputsJson;
    if (parsed && whole.is_object()) {
      if (auto agentic = agent_trace_format(object(whole))) return *agentic;
    }
    return make_error(ErrorCode::kParse,
                      fmt::format("--input-file '{}': cannot tell its format (line 1 is not JSON); "
                                  "set --custom-dataset-type",
                                  path));
  }
  object obj;
  if (doc.get(obj) != simdjson::SUCCESS)
    return make_error(ErrorCode::kParse,
                      fmt::format("--input-file '{}': line 1 is not a JSON object", path));
  if (obj["data"].error() == simdjson::SUCCESS) return FileFormat::kInputsJson;
  return guess_from_object(obj);
}

// The regular files of a folder, sorted (other entries, FIFOs and devices included, are skipped).
Result<std::vector<std::string>> files_in(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code tec;
    if (it->is_regular_file(tec)) files.push_back(it->path().string());
  }
  if (ec)
    return make_error(ErrorCode::kNotFound,
                      fmt::format("--input-file '{}' cannot be listed: {}", dir, ec.message()));
  if (files.empty())
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("--input-file '{}' is a folder without regular files; give a "
                                  "dataset file or a random_pool/raw_payload folder",
                                  dir));
  std::sort(files.begin(), files.end());
  return files;
}

// One file's text, parsed in `format` (detected when absent).
Result<DatasetFile> load_text(const std::string& path, std::optional<FileFormat> format,
                              const InputLimits& limits) {
  SB_TRY_ASSIGN(const std::string text, read_input_file(path, limits));
  if (!format) {
    SB_TRY_ASSIGN(format, detect_text_format(text, path));
  }
  const std::string name = display_name(path);
  if (is_line_format(*format)) SB_TRY(check_line_lengths(text, limits, name));
  return parse_dataset_text(text, *format, name);
}

bool is_folder(const std::string& path) {
  std::error_code ec;
  return !is_stdin_path(path) && fs::is_directory(path, ec);
}

Result<DatasetFile> load_folder(const std::string& path, std::optional<FileFormat> format,
                                const InputLimits& limits) {
  if (format && is_agent_folder_format(*format)) return load_agent_folder(path, *format, limits);
  SB_TRY_ASSIGN(const std::vector<std::string> files, files_in(path));
  if (!format) {
    SB_TRY_ASSIGN(format, detect_file_format(path, limits));
  }
  if (is_agent_folder_format(*format)) return load_agent_folder(path, *format, limits);
  if (*format != FileFormat::kRandomPool && *format != FileFormat::kRawPayload)
    return make_error(
        ErrorCode::kInvalidArgument,
        fmt::format("--input-file '{}' is a folder; only random_pool and raw_payload "
                    "read folders (give a file, or --custom-dataset-type random_pool)",
                    path));
  DatasetFile all;
  all.format = *format;
  for (const auto& f : files) {
    if (core::interrupt_requested()) return parsers::interrupted(path);
    SB_TRY_ASSIGN(DatasetFile one, load_text(f, format, limits));
    all.lines += one.lines;
    if (*format == FileFormat::kRawPayload) {
      // One file = one multi-turn session.
      FileConversation conv{fs::path(f).filename().string(), {}};
      for (auto& c : one.conversations)
        for (auto& t : c.turns) conv.turns.push_back(std::move(t));
      all.conversations.push_back(std::move(conv));
    } else {
      for (auto& c : one.conversations) all.conversations.push_back(std::move(c));
    }
  }
  return all;
}

}  // namespace

const char* file_format_name(FileFormat format) {
  for (const auto& f : kFormats)
    if (f.format == format) return f.name;
  return "unknown";
}

Result<FileFormat> parse_file_format(std::string_view name) {
  for (const auto& f : kFormats)
    if (name == f.name) return f.format;
  std::string known;
  for (const auto& f : kFormats) known += (known.empty() ? "" : ", ") + std::string(f.name);
  return make_error(
      ErrorCode::kInvalidArgument,
      fmt::format("--custom-dataset-type '{}' is not known (use one of: {})", name, known));
}

Result<DatasetFile> parse_dataset_text(std::string_view text, FileFormat format,
                                       const std::string& name) {
  switch (format) {
    case FileFormat::kInputsJson:
    case FileFormat::kShareGpt:
      return parsers::parse_whole_json(text, format, name);
    case FileFormat::kBurstGptTrace:
      return parsers::parse_burst_gpt(text, name);
    case FileFormat::kBasetenTrace:
      return parse_baseten_trace(text, name, BasetenOptions{});
    case FileFormat::kWekaTrace:
    case FileFormat::kDagJsonl:
    case FileFormat::kSageMakerCapture:
      return parse_agent_trace(text, format, name);
    default:
      return parsers::parse_jsonl(text, format, name);
  }
}

Result<FileFormat> detect_file_format(const std::string& path) {
  SB_TRY_ASSIGN(const InputLimits limits, InputLimits::from_env(core::env()));
  return detect_file_format(path, limits);
}

Result<FileFormat> detect_file_format(const std::string& path, const InputLimits& limits) {
  if (is_folder(path)) {
    SB_TRY_ASSIGN(const std::vector<std::string> files, files_in(path));
    SB_TRY_ASSIGN(const FileFormat inner, detect_file_format(files.front(), limits));
    if (is_agent_folder_format(inner)) return inner;
    return inner == FileFormat::kRawPayload ? FileFormat::kRawPayload : FileFormat::kRandomPool;
  }
  SB_TRY_ASSIGN(const std::string text, read_input_file(path, limits));
  return detect_text_format(text, path);
}

Result<DatasetFile> load_dataset_file(const std::string& path, std::optional<FileFormat> format) {
  SB_TRY_ASSIGN(const InputLimits limits, InputLimits::from_env(core::env()));
  return load_dataset_file(path, format, limits);
}

Result<DatasetFile> load_dataset_file(const std::string& path, std::optional<FileFormat> format,
                                      const InputLimits& limits) {
  if (is_folder(path)) return load_folder(path, format, limits);
  return load_text(path, format, limits);
}

}  // namespace servebench::dataset
