#include "dataset/loaders/baseten_trace.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <memory>
#include <cmath>
#include <unordered_map>

#include "core/env.h"
#include "core/interrupt.h"
#include "core/rng.h"
#include "dataset/loaders/input_file.h"
#include "parquet/reader.h"

namespace servebench::dataset {
namespace {

using parquet::Column;
using parquet::LogicalKind;
using parquet::PhysicalType;

constexpr const char* kRequired[] = {"timestamp_start_unix_ms", "prompt", "input_tokens",
                                     "output_tokens"};

struct Row {
  int64_t ts_ms = 0;
  int64_t input = 0;
  int64_t output = 0;
  int64_t e2e_ms = -1;
  int64_t block_size = -1;
  size_t index = 0;  // row in the file
};

struct Session {
  std::string id;
  std::vector<Row> rows;
};

class Columns {
 public:
  Columns(const parquet::ParquetFile& f, std::string name) : f_(f), name_(std::move(name)) {}

  Result<std::optional<Column>> read(std::string_view column, bool required) {
    if (!f_.find(column)) {
      if (!required) return std::optional<Column>();
      std::string have;
      for (const auto& c : f_.columns()) have += (have.empty() ? "" : ", ") + c.name;
      return make_error(ErrorCode::kParse,
                        fmt::format("'{}': baseten_trace needs a column '{}' (the file has: {}); "
                                    "check --custom-dataset-type",
                                    name_, column, have));
    }
    SB_TRY_ASSIGN(Column c, f_.read_column(column));
    return std::optional<Column>(std::move(c));
  }

  tl::unexpected<Error> fail(const Column& c, size_t row, std::string_view problem) const {
    return make_error(ErrorCode::kParse, fmt::format("'{}': row {}: column '{}': {}", name_,
                                                     row + 1, c.info.name, problem));
  }

  // An integer column value (INT32/INT64, or whole DOUBLE/FLOAT); -1 when null.
  Result<int64_t> count(const Column& c, size_t row) const {
    if (c.info.is_list) return fail(c, row, "expected a number, not a list");
    if (!c.valid[row]) return int64_t{-1};
    int64_t v = 0;
    switch (c.info.type) {
      case PhysicalType::kInt32:
      case PhysicalType::kInt64: v = c.values.ints[row]; break;
      case PhysicalType::kFloat:
      case PhysicalType::kDouble: {
        const double d = c.values.doubles[row];
        if (!std::isfinite(d) || d != std::floor(d) || std::fabs(d) > 9e15)
          return fail(c, row, "expected a whole number");
        v = static_cast<int64_t>(d);
        break;
      }
      default: return fail(c, row, "expected an integer column");
    }
    if (v < 0) return fail(c, row, "must be >= 0");
    return v;
  }

 private:
  const parquet::ParquetFile& f_;
  std::string name_;
};

// Timestamps in ms, whatever unit the column's logical type declares.
int64_t to_ms(const Column& c, int64_t v) {
  if (c.info.logical == LogicalKind::kTimestampMicros) return v / 1000;
  if (c.info.logical == LogicalKind::kTimestampNanos) return v / 1000000;
  return v;
}

// The session key of row r (empty for null): a view into a string column, or `scratch` holding
// an integer key's digits.
std::string_view key_of(const Column& c, size_t r, std::string* scratch) {
  if (!c.valid[r] || c.info.is_list) return {};
  switch (c.info.type) {
    case PhysicalType::kByteArray:
    case PhysicalType::kFixedLenByteArray: return c.values.str(r);
    case PhysicalType::kFloat:
    case PhysicalType::kDouble: *scratch = fmt::format("{}", c.values.doubles[r]); break;
    default: *scratch = std::to_string(c.values.ints[r]);
  }
  return *scratch;
}

// The key column: the configured one when the file has it, else the other one.
const char* pick_key_column(const parquet::ParquetFile& f, const std::string& wanted) {
  static constexpr const char* kKeys[] = {"provided_session_id", "poor_man_session_id"};
  for (const char* k : kKeys)
    if (wanted == k && f.find(k)) return k;
  for (const char* k : kKeys)
    if (f.find(k)) return k;
  return nullptr;
}

std::vector<Session> group_sessions(const std::vector<Row>& rows, const Column* key) {
  std::vector<Session> out;
  // Keys of string columns are views into the column; integer keys live in `owned`.
  std::unordered_map<std::string_view, size_t> index;
  index.reserve(rows.size() / 2 + 1);
  std::vector<std::unique_ptr<std::string>> owned;
  std::string scratch;
  for (const Row& r : rows) {
    std::string_view k = key ? key_of(*key, r.index, &scratch) : std::string_view();
    if (k.empty()) {
      out.push_back({fmt::format("row-{}", r.index), {r}});
      continue;
    }
    if (k.data() == scratch.data()) {
      if (auto it = index.find(k); it != index.end()) {
        out[it->second].rows.push_back(r);
        continue;
      }
      owned.push_back(std::make_unique<std::string>(scratch));
      k = *owned.back();
    }
    auto [it, inserted] = index.try_emplace(k, out.size());
    if (inserted) out.push_back({std::string(k), {}});
    out[it->second].rows.push_back(r);
  }
  for (auto& s : out)
    std::stable_sort(s.rows.begin(), s.rows.end(),
                     [](const Row& a, const Row& b) { return a.ts_ms < b.ts_ms; });
  std::sort(out.begin(), out.end(), [](const Session& a, const Session& b) {
    return a.rows.front().ts_ms != b.rows.front().ts_ms ? a.rows.front().ts_ms < b.rows.front().ts_ms
                                                        : a.id < b.id;
  });
  return out;
}

void sample_sessions(std::vector<Session>* s, double ratio, uint64_t seed) {
  if (ratio >= 1 || s->empty()) return;
  core::Rng rng = core::Rng::stream(seed, "baseten.session_sample");
  std::vector<Session> kept;
  for (auto& one : *s)
    if (rng.next_double() < ratio) kept.push_back(std::move(one));
  if (kept.empty()) kept.push_back(std::move(s->front()));
  *s = std::move(kept);
}

void split_strict(std::vector<Session>* s) {
  std::vector<Session> out;
  for (auto& one : *s)
    for (size_t i = 0; i < one.rows.size(); ++i)
      out.push_back({fmt::format("{}#{}", one.id, i), {one.rows[i]}});
  std::stable_sort(out.begin(), out.end(), [](const Session& a, const Session& b) {
    return a.rows.front().ts_ms < b.rows.front().ts_ms;
  });
  *s = std::move(out);
}

// Shrinks every gap between consecutive scheduled times to at most `cap_ms`.
void cap_idle_gaps(std::vector<double*> events, double cap_ms) {
  std::stable_sort(events.begin(), events.end(), [](double* a, double* b) { return *a < *b; });
  double prev_old = 0, prev_new = 0;
  for (size_t i = 0; i < events.size(); ++i) {
    const double old = *events[i];
    *events[i] = i == 0 ? old : prev_new + std::min(old - prev_old, cap_ms);
    prev_old = old;
    prev_new = *events[i];
  }
}

// The block size every row gives (0 when absent or not the same everywhere).
int64_t uniform_block_size(const std::vector<Row>& rows) {
  const int64_t b = rows.empty() ? 0 : rows.front().block_size;
  for (const Row& r : rows)
    if (r.block_size != b) return 0;
  return b > 0 ? b : 0;
}

// A length-only row's hashes as synthesis blocks, when they fit its length (the last block
// non-empty); else none (plain exact-length text).
std::vector<int64_t> synthesis_blocks(const Row& r, const Column& hashes, int64_t block_size) {
  if (!hashes.valid[r.index]) return {};
  const uint64_t b = hashes.list_offsets[r.index], e = hashes.list_offsets[r.index + 1];
  const auto n = static_cast<int64_t>(e - b);
  if (n == 0 || r.input <= (n - 1) * block_size) return {};
  for (uint64_t i = b; i < e; ++i)
    if (!hashes.element_valid[i]) return {};
  return std::vector<int64_t>(hashes.values.ints.begin() + static_cast<std::ptrdiff_t>(b),
                              hashes.values.ints.begin() + static_cast<std::ptrdiff_t>(e));
}

void append_int(std::string* out, int64_t v) {
  char buf[24];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out->append(buf, end);
}

// The row's per-request body members as one JSON object ("" when none).
std::string body_extras(const Row& r, const Column* hashes, const BasetenOptions& o) {
  std::string out;
  auto key = [&](const char* k) {
    out += out.empty() ? "{\"" : ",\"";
    out += k;
    out += "\":";
  };
  if (o.force_min_tokens) {
    key("min_tokens");
    append_int(&out, std::max<int64_t>(1, r.output));
  }
  if (!o.omit_kv_hints) {
    if (hashes && hashes->valid[r.index]) {
      const uint64_t b = hashes->list_offsets[r.index], e = hashes->list_offsets[r.index + 1];
      if (e > b) {
        key("hash_ids");
        out += '[';
        for (uint64_t i = b; i < e; ++i) {
          if (i > b) out += ',';
          append_int(&out, hashes->values.ints[i]);
        }
        out += ']';
      }
    }
    if (r.block_size > 0) {
      key("block_size");
      append_int(&out, r.block_size);
    }
  }
  if (!out.empty()) out += '}';
  return out;
}

}  // namespace

bool looks_like_parquet(std::string_view head) { return head.starts_with("PAR1"); }

Result<DatasetFile> parse_baseten_trace(std::string_view bytes, const std::string& name,
                                        const BasetenOptions& o) {
  SB_TRY_ASSIGN(const parquet::ParquetFile f, parquet::ParquetFile::open(std::string(bytes), name));
  Columns cols(f, name);
  for (const char* c : kRequired)
    if (!f.find(c)) return tl::unexpected(cols.read(c, true).error());
  SB_TRY_ASSIGN(const auto ts, cols.read("timestamp_start_unix_ms", true));
  SB_TRY_ASSIGN(const auto prompt, cols.read("prompt", true));
  SB_TRY_ASSIGN(const auto input, cols.read("input_tokens", true));
  SB_TRY_ASSIGN(const auto output, cols.read("output_tokens", true));
  SB_TRY_ASSIGN(const auto e2e, cols.read("duration_e2e_ms", false));
  SB_TRY_ASSIGN(const auto block, cols.read("block_size", false));
  SB_TRY_ASSIGN(const auto hashes, cols.read("total_hashes", false));
  const char* key_name = pick_key_column(f, o.session_column);
  std::optional<Column> key;
  if (key_name) {
    SB_TRY_ASSIGN(key, cols.read(key_name, false));
  }
  if (prompt->info.type != PhysicalType::kByteArray || prompt->info.is_list)
    return make_error(ErrorCode::kParse,
                      fmt::format("'{}': column 'prompt': expected strings", name));
  if (hashes && (!hashes->info.is_list || (hashes->info.type != PhysicalType::kInt64 &&
                                           hashes->info.type != PhysicalType::kInt32)))
    return make_error(ErrorCode::kParse,
                      fmt::format("'{}': column 'total_hashes': expected a list of integers", name));

  const size_t n = ts->rows();
  if (n == 0) return make_error(ErrorCode::kParse, fmt::format("'{}': no rows", name));
  std::vector<Row> rows(n);
  int64_t min_ts = INT64_MAX;
  for (size_t r = 0; r < n; ++r) {
    if ((r & 0xffff) == 0 && core::interrupt_requested())
      return make_error(ErrorCode::kInterrupted, fmt::format("interrupted while reading '{}'", name));
    Row& row = rows[r];
    row.index = r;
    SB_TRY_ASSIGN(const int64_t t, cols.count(*ts, r));
    if (t < 0) return cols.fail(*ts, r, "is required");
    row.ts_ms = to_ms(*ts, t);
    min_ts = std::min(min_ts, row.ts_ms);
    SB_TRY_ASSIGN(row.input, cols.count(*input, r));
    SB_TRY_ASSIGN(row.output, cols.count(*output, r));
    if (row.output < 0) return cols.fail(*output, r, "is required");
    if (!prompt->valid[r] && row.input <= 0)
      return cols.fail(*prompt, r, "is null and input_tokens gives no length to synthesize");
    if (e2e) {
      SB_TRY_ASSIGN(row.e2e_ms, cols.count(*e2e, r));
    }
    if (block) {
      SB_TRY_ASSIGN(row.block_size, cols.count(*block, r));
      if (row.block_size == 0) return cols.fail(*block, r, "must be > 0");
    }
  }
  if (hashes)
    for (size_t e = 0; e < hashes->element_valid.size(); ++e)
      if (hashes->element_valid[e] && hashes->values.ints[e] < 0)
        return make_error(ErrorCode::kParse,
                          fmt::format("'{}': column 'total_hashes': hash ids must be >= 0", name));
  for (Row& r : rows) r.ts_ms -= min_ts;

  std::vector<Session> sessions = group_sessions(rows, key ? &*key : nullptr);
  sample_sessions(&sessions, o.sample_ratio, o.seed);
  const bool strict = o.open_loop && o.open_loop_strict;
  if (strict) split_strict(&sessions);

  // Length-only rows with KV hashes are synthesized from shared hash blocks (as mooncake rows
  // are) when every row gives the same block size.
  const int64_t block_size = hashes ? uniform_block_size(rows) : 0;
  DatasetFile out;
  out.format = FileFormat::kBasetenTrace;
  out.default_block_size = block_size;
  out.has_timestamps = true;
  out.lines = static_cast<int64_t>(n);
  const double speed = o.speedup > 0 ? o.speedup : 1.0;
  std::vector<double*> events;
  out.conversations.reserve(sessions.size());
  for (const Session& s : sessions) {
    FileConversation& conv = out.conversations.emplace_back();
    conv.session_id = s.id;
    conv.turns.reserve(s.rows.size());
    for (size_t k = 0; k < s.rows.size(); ++k) {
      const Row& r = s.rows[k];
      FileTurn& t = conv.turns.emplace_back();
      if (prompt->valid[r.index]) {
        t.texts.emplace_back(prompt->values.str(r.index));
      } else {
        t.input_length = r.input;
        if (block_size > 0) t.hash_ids = synthesis_blocks(r, *hashes, block_size);
      }
      t.output_length = std::max<int64_t>(1, r.output);
      t.extra_json = body_extras(r, hashes ? &*hashes : nullptr, o);
      const double at = static_cast<double>(r.ts_ms) / speed;
      if (o.open_loop || k == 0) {
        t.timestamp_ms = at;
        continue;
      }
      const Row& prev = s.rows[k - 1];
      double gap = static_cast<double>(r.ts_ms - prev.ts_ms);
      if (prev.e2e_ms >= 0) gap -= static_cast<double>(prev.e2e_ms);
      t.delay_ms = std::max(0.0, gap) / speed;
      if (o.inter_turn_delay_cap_ms > 0) t.delay_ms = std::min(t.delay_ms, o.inter_turn_delay_cap_ms);
    }
  }
  if (o.max_idle_gap_cap_ms > 0) {
    for (auto& c : out.conversations)
      for (auto& t : c.turns)
        if (t.timestamp_ms >= 0) events.push_back(&t.timestamp_ms);
    cap_idle_gaps(std::move(events), o.max_idle_gap_cap_ms);
  }
  return out;
}

Result<DatasetFile> load_baseten_trace(const std::string& path, const BasetenOptions& options) {
  SB_TRY_ASSIGN(const InputLimits limits, InputLimits::from_env(core::env()));
  SB_TRY_ASSIGN(const std::string bytes, read_input_file(path, limits));
  return parse_baseten_trace(bytes, is_stdin_path(path) ? "<stdin>" : path, options);
}

}  // namespace servebench::dataset
