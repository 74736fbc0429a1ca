// The metric registry: every metric tag we emit, with AIPerf's header, base unit, display unit,
// console order and export flags (aiperf-inventory.md §5). Exports look metrics up here; the
// summary refers to them by tag.
//
// Thread safety: immutable static data.
#pragma once

#include <cstdint>
#include <string_view>

namespace servebench::metrics {

enum class MetricKind : uint8_t {
  kRecord,     // one value per request → a distribution (stats block)
  kAggregate,  // a counter or min/max over all records → one value
  kDerived,    // a formula over other results → one value
};

// Bit flags (subset of AIPerf's MetricFlags that changes what we export).
enum MetricFlag : uint32_t {
  kNoFlags = 0,
  kNoConsole = 1u << 0,       // not in the console table
  kNoCsv = 1u << 1,           // not in profile_export_aiperf.csv
  kLargerIsBetter = 1u << 2,  // goodput SLO: value >= threshold
  kErrorOnly = 1u << 3,       // computed over failed requests
  kStreamingOnly = 1u << 4,   // needs a streamed response
  kIntegerValued = 1u << 5,   // per-record values are integers (tokens, bytes, counts)
  kTimestamp = 1u << 6,       // wall-clock ns value written as an exact integer
};

struct MetricInfo {
  std::string_view tag;
  std::string_view header;        // AIPerf's header, e.g. "Time to First Token"
  std::string_view display_unit;  // e.g. "ms", "tokens/sec/user", "requests"
  double display_divisor;         // base value / divisor = display value (ns → ms: 1e6)
  MetricKind kind;
  uint32_t flags;
  int display_order;              // console row order (smaller first); 0 = after the rest

  bool has(MetricFlag f) const { return (flags & f) != 0; }
  double to_display(double base) const { return base / display_divisor; }
  double from_display(double display) const { return display * display_divisor; }
};

// Looks a tag up; nullptr when unknown.
const MetricInfo* find_metric(std::string_view tag);

// All registered metrics, in registry order.
const MetricInfo* all_metrics(size_t* count);

}  // namespace servebench::metrics
