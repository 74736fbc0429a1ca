// A parser for the Prometheus text exposition format (0.0.4) and OpenMetrics 1.0 text, the two
// formats an HTTP /metrics endpoint answers with (vLLM, SGLang, TRT-LLM, Dynamo, llama.cpp,
// DCGM exporter, node exporter).
//
// Contract:
//  - Families come back in the order their first line appears. A family's samples keep their
//    exposition order. A sample whose name is a family's name plus one of the type's suffixes
//    (_total, _created, _bucket, _count, _sum, _gcount, _gsum, _info) belongs to that family;
//    the sample keeps its full name.
//  - Escapes are decoded: label values `\\`, `\"`, `\n`; HELP text `\\` and `\n` (OpenMetrics
//    also `\"`). Values accept NaN, +Inf, -Inf (any case in the Prometheus text format, as
//    Prometheus does) and Go/C float syntax. Timestamps are milliseconds in the Prometheus text
//    format and seconds (possibly fractional) in OpenMetrics; both are stored as milliseconds.
//  - OpenMetrics exemplars (` # {labels} value [ts]`) are skipped. `# EOF` ends an OpenMetrics
//    exposition (required there; anything after it is an error); the Prometheus text format
//    ignores unknown comments.
//  - Any malformed line fails the whole parse with kParse and a message naming the line number
//    and what is wrong ("line 7: label value not quoted").
//
// Thread safety: a pure function; safe from any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/result.h"

namespace servebench::telemetry::prom {

enum class MetricType {
  kUntyped,
  kCounter,
  kGauge,
  kHistogram,
  kGaugeHistogram,
  kSummary,
  kInfo,
  kStateSet,
  kUnknown
};

struct Sample {
  std::string name;
  std::vector<std::pair<std::string, std::string>> labels;
  double value = 0;
  std::optional<int64_t> timestamp_ms;
};

struct Family {
  std::string name;
  MetricType type = MetricType::kUntyped;
  std::string help;
  std::string unit;
  std::vector<Sample> samples;
};

enum class Format { kPrometheusText, kOpenMetrics };

// Parses a whole exposition; the error names the line.
Result<std::vector<Family>> parse_exposition(std::string_view text, Format format);

// The name as written in a `# TYPE` line ("counter", "gaugehistogram", ...).
const char* metric_type_name(MetricType type);

// Chooses the format from a Content-Type header value ("application/openmetrics-text..." is
// OpenMetrics; anything else, including "", is the Prometheus text format).
Format format_from_content_type(std::string_view content_type);

}  // namespace servebench::telemetry::prom
