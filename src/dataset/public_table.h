// Tabular public datasets (--public-dataset aimo, spec_al_gsm8k, ...): the rows of a dataset's
// Parquet or JSONL files and how each row becomes a conversation, as AIPerf's instruction /
// response, MT-Bench and SpecBench loaders turn them into prompts.
//
// Row rules (TableRule):
//   kColumn      the prompt column's value as one single-turn prompt;
//   kTemplate    a template whose {column} fields are filled from the row ({{ and }} are braces);
//   kTurnList    the column is a list of user turns: one multi-turn conversation per row
//                (blank entries dropped, the others trimmed; live replies go into the history);
//   kFirstOfList the column is a list; its first entry is the single-turn prompt.
// A row whose prompt is empty or blank (or, for lists, not a list) is skipped; a column the
// first row lacks is an error listing the row's columns. Filters (--dataset-filter key=value)
// keep only rows whose `key` column equals `value` (numbers compare by their JSON text); a key
// that is not a column is an error listing the columns.
//
// Thread safety: pure functions.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/result.h"
#include "dataset/loaders/dataset_file.h"

namespace servebench::dataset {

enum class TableFormat { kParquet, kJsonl };
enum class TableRule { kColumn, kTemplate, kTurnList, kFirstOfList };

struct TableSpec {
  TableFormat format = TableFormat::kParquet;
  TableRule rule = TableRule::kColumn;
  std::string column;           // kColumn, kTurnList, kFirstOfList
  std::string prompt_template;  // kTemplate
};

using RowFilters = std::vector<std::pair<std::string, std::string>>;

// One row's values: a scalar's text, or a list's items (is_list).
struct TableValue {
  bool is_list = false;
  std::string text;
  std::vector<std::string> items;
};

struct TableRow {
  std::vector<std::pair<std::string, TableValue>> fields;
  const TableValue* find(std::string_view name) const;
};

// Accumulates the conversations of one dataset across its files (shards).
class TableBuilder {
 public:
  TableBuilder(std::string dataset, TableSpec spec, RowFilters filters);

  // The columns a Parquet reader must read (prompt columns, template fields, filter keys).
  std::vector<std::string> needed_columns() const;
  // Adds one file's rows; `name` is used in error messages.
  Status add_jsonl(std::string_view text, const std::string& name);
  Status add_parquet(std::string bytes, const std::string& name);
  Status add_row(const TableRow& row, const std::string& name);

  // The conversations (error when no row made a prompt). kTurnList: kMultiTurn; else kSingleTurn.
  Result<DatasetFile> finish();

  int64_t rows_seen() const { return rows_; }
  int64_t rows_skipped() const { return skipped_; }
  int64_t rows_filtered() const { return filtered_; }

 private:
  Status check_columns(const TableRow& row, const std::string& name);
  Result<std::vector<std::string>> turns_of(const TableRow& row, const std::string& name) const;

  std::string dataset_;
  TableSpec spec_;
  RowFilters filters_;
  DatasetFile file_;
  bool checked_ = false;
  int64_t rows_ = 0;
  int64_t skipped_ = 0;
  int64_t filtered_ = 0;
};

// Fills `tmpl`'s {field} names from `row`. Errors name the field and the row's columns.
Result<std::string> fill_template(std::string_view tmpl, const TableRow& row, const std::string& what);

// Parses "key=value" (--dataset-filter). Errors are one line naming the flag and the fix.
Result<std::pair<std::string, std::string>> parse_row_filter(std::string_view text);

}  // namespace servebench::dataset
