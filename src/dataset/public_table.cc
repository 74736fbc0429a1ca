#include "dataset/public_table.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>

#include "core/interrupt.h"
#include "parquet/reader.h"

namespace servebench::dataset {
namespace {

bool blank(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; });
}

std::string trimmed(std::string_view s) {
  const auto ws = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  while (!s.empty() && ws(s.front())) s.remove_prefix(1);
  while (!s.empty() && ws(s.back())) s.remove_suffix(1);
  return std::string(s);
}

std::string columns_of(const TableRow& row) {
  std::string out;
  for (const auto& [k, v] : row.fields) out += (out.empty() ? "" : ", ") + k;
  return out.empty() ? "none" : out;
}

std::string json_text(const nlohmann::json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

TableValue json_value(const nlohmann::json& v) {
  TableValue out;
  if (!v.is_array()) {
    out.text = v.is_null() ? "" : json_text(v);
    return out;
  }
  out.is_list = true;
  for (const auto& item : v) out.items.push_back(item.is_null() ? "" : json_text(item));
  return out;
}

// Names in `tmpl` between single braces ({{ and }} are literal braces).
std::vector<std::string> template_fields(std::string_view tmpl) {
  std::vector<std::string> out;
  for (size_t i = 0; i < tmpl.size(); ++i) {
    if (tmpl[i] != '{') continue;
    if (i + 1 < tmpl.size() && tmpl[i + 1] == '{') {
      ++i;
      continue;
    }
    const size_t end = tmpl.find('}', i);
    if (end == std::string_view::npos) break;
    out.emplace_back(tmpl.substr(i + 1, end - i - 1));
    i = end;
  }
  return out;
}

std::string scalar_text(const parquet::Column& c, size_t i) {
  switch (c.info.type) {
    case parquet::PhysicalType::kByteArray:
    case parquet::PhysicalType::kFixedLenByteArray: return std::string(c.values.str(i));
    case parquet::PhysicalType::kFloat:
    case parquet::PhysicalType::kDouble: return nlohmann::json(c.values.doubles[i]).dump();
    case parquet::PhysicalType::kBoolean: return c.values.ints[i] ? "true" : "false";
    default: return std::to_string(c.values.ints[i]);
  }
}

TableValue parquet_value(const parquet::Column& c, size_t row) {
  TableValue v;
  if (!c.info.is_list) {
    if (c.valid[row]) v.text = scalar_text(c, row);
    return v;
  }
  v.is_list = c.valid[row] != 0;
  for (uint64_t e = c.list_offsets[row]; e < c.list_offsets[row + 1]; ++e)
    v.items.push_back(c.element_valid[e] ? scalar_text(c, e) : "");
  return v;
}

}  // namespace

const TableValue* TableRow::find(std::string_view name) const {
  for (const auto& [k, v] : fields)
    if (k == name) return &v;
  return nullptr;
}

Result<std::string> fill_template(std::string_view tmpl, const TableRow& row, const std::string& what) {
  std::string out;
  for (size_t i = 0; i < tmpl.size(); ++i) {
    const char c = tmpl[i];
    if ((c == '{' || c == '}') && i + 1 < tmpl.size() && tmpl[i + 1] == c) {
      out += c;
      ++i;
      continue;
    }
    if (c != '{') {
      out += c;
      continue;
    }
    const size_t end = tmpl.find('}', i);
    if (end == std::string_view::npos) return make_error(ErrorCode::kInvalidArgument, what + ": unclosed '{' in the prompt template");
    const std::string field(tmpl.substr(i + 1, end - i - 1));
    const TableValue* v = row.find(field);
    if (v == nullptr)
      return make_error(ErrorCode::kInvalidArgument,
                        fmt::format("{}: the prompt template's field '{}' is not a column (columns: {})", what, field,
                                    columns_of(row)));
    out += v->is_list ? nlohmann::json(v->items).dump() : v->text;
    i = end;
  }
  return out;
}

Result<std::pair<std::string, std::string>> parse_row_filter(std::string_view text) {
  const size_t eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0)
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("--dataset-filter '{}' is not key=value; give a column and the value its rows "
                                  "must have (e.g. --dataset-filter level=Level 5)",
                                  text));
  return std::make_pair(std::string(text.substr(0, eq)), std::string(text.substr(eq + 1)));
}

TableBuilder::TableBuilder(std::string dataset, TableSpec spec, RowFilters filters)
    : dataset_(std::move(dataset)), spec_(std::move(spec)), filters_(std::move(filters)) {
  file_.format = spec_.rule == TableRule::kTurnList ? FileFormat::kMultiTurn : FileFormat::kSingleTurn;
}

std::vector<std::string> TableBuilder::needed_columns() const {
  std::vector<std::string> out =
      spec_.rule == TableRule::kTemplate ? template_fields(spec_.prompt_template) : std::vector<std::string>{spec_.column};
  for (const auto& [key, value] : filters_)
    if (std::find(out.begin(), out.end(), key) == out.end()) out.push_back(key);
  return out;
}

Status TableBuilder::check_columns(const TableRow& row, const std::string& name) {
  checked_ = true;
  for (const auto& [key, value] : filters_)
    if (row.find(key) == nullptr)
      return make_error(ErrorCode::kInvalidArgument,
                        fmt::format("--dataset-filter '{}' is not a column of --public-dataset {} ({}; columns: {})",
                                    key, dataset_, name, columns_of(row)));
  if (spec_.rule != TableRule::kTemplate && row.find(spec_.column) == nullptr)
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("--public-dataset {}: column '{}' is not in {} (columns: {}); the dataset changed "
                                  "on the hub, pass an older revision's file with --input-file",
                                  dataset_, spec_.column, name, columns_of(row)));
  return {};
}

Result<std::vector<std::string>> TableBuilder::turns_of(const TableRow& row, const std::string& name) const {
  std::vector<std::string> turns;
  if (spec_.rule == TableRule::kTemplate) {
    SB_TRY_ASSIGN(std::string p, fill_template(spec_.prompt_template, row, "--public-dataset " + dataset_ + " (" + name + ")"));
    if (!blank(p)) turns.push_back(std::move(p));
    return turns;
  }
  const TableValue& v = *row.find(spec_.column);
  if (spec_.rule == TableRule::kColumn) {
    if (!v.is_list && !blank(v.text)) turns.push_back(v.text);
    if (v.is_list && !v.items.empty()) turns.push_back(nlohmann::json(v.items).dump());
  } else if (spec_.rule == TableRule::kFirstOfList) {
    if (v.is_list && !v.items.empty() && !blank(v.items.front())) turns.push_back(v.items.front());
  } else if (v.is_list) {
    for (const auto& t : v.items)
      if (!blank(t)) turns.push_back(trimmed(t));
  }
  return turns;
}

Status TableBuilder::add_row(const TableRow& row, const std::string& name) {
  if (!checked_) SB_TRY(check_columns(row, name));
  ++rows_;
  for (const auto& [key, value] : filters_) {
    const TableValue* v = row.find(key);
    if (v == nullptr || v->is_list || v->text != value) {
      ++filtered_;
      return {};
    }
  }
  SB_TRY_ASSIGN(std::vector<std::string> turns, turns_of(row, name));
  if (turns.empty()) {
    ++skipped_;
    return {};
  }
  FileConversation conv;
  conv.session_id = fmt::format("{}-{}", dataset_, file_.conversations.size());
  for (auto& t : turns) {
    FileTurn turn;
    turn.texts.push_back(std::move(t));
    turn.role = "user";
    conv.turns.push_back(std::move(turn));
  }
  file_.conversations.push_back(std::move(conv));
  return {};
}

Status TableBuilder::add_jsonl(std::string_view text, const std::string& name) {
  int64_t line_no = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    if (core::interrupt_requested()) return make_error(ErrorCode::kInterrupted, "interrupted while reading " + name);
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (blank(line)) continue;
    const auto j = nlohmann::json::parse(line, nullptr, false);
    if (!j.is_object())
      return make_error(ErrorCode::kInvalidArgument,
                        fmt::format("{}:{}: not a JSON object (--public-dataset {}: delete the cached file to fetch it again)",
                                    name, line_no, dataset_));
    TableRow row;
    for (const auto& [k, v] : j.items()) row.fields.emplace_back(k, json_value(v));
    SB_TRY(add_row(row, fmt::format("{}:{}", name, line_no)));
  }
  return {};
}

Status TableBuilder::add_parquet(std::string bytes, const std::string& name) {
  SB_TRY_ASSIGN(parquet::ParquetFile pf, parquet::ParquetFile::open(std::move(bytes), name));
  std::vector<parquet::Column> cols;
  for (const auto& c : needed_columns()) {
    if (pf.find(c) == nullptr) continue;  // check_columns names it with the file's columns
    SB_TRY_ASSIGN(parquet::Column col, pf.read_column(c));
    cols.push_back(std::move(col));
  }
  const size_t rows = static_cast<size_t>(pf.num_rows());
  for (size_t r = 0; r < rows; ++r) {
    if ((r & 1023) == 0 && core::interrupt_requested())
      return make_error(ErrorCode::kInterrupted, "interrupted while reading " + name);
    TableRow row;
    if (!checked_)  // the first row lists every column of the file for the error messages
      for (const auto& info : pf.columns()) row.fields.emplace_back(info.name, TableValue{});
    for (const auto& c : cols) {
      TableValue v = parquet_value(c, r);
      auto it = std::find_if(row.fields.begin(), row.fields.end(), [&](const auto& f) { return f.first == c.info.name; });
      if (it != row.fields.end()) it->second = std::move(v);
      else row.fields.emplace_back(c.info.name, std::move(v));
    }
    SB_TRY(add_row(row, fmt::format("{} row {}", name, r)));
  }
  return {};
}

Result<DatasetFile> TableBuilder::finish() {
  if (file_.conversations.empty())
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("--public-dataset {}: no prompt left ({} row(s) read, {} dropped by --dataset-filter, "
                                  "{} empty); check the filters",
                                  dataset_, rows_, filtered_, skipped_));
  file_.lines = rows_;
  return std::move(file_);
}

}  // namespace servebench::dataset
