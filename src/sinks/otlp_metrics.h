// OTLP metrics, as servebench streams them to --otel-url: cumulative histograms and counters
// (opentelemetry-proto's metrics/v1 model) and their encodings for OTLP/HTTP -- the JSON mapping
// (application/json) and the binary protobuf wire format (application/x-protobuf), both written
// here by hand: the messages are small and fixed (docs/sinks.md lists the fields used).
//
// Thread safety: plain values and pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace servebench::sinks {

using Attributes = std::vector<std::pair<std::string, std::string>>;  // string values only

struct HistogramPoint {
  Attributes attributes;
  std::vector<double> bounds;    // explicit bucket upper bounds
  std::vector<uint64_t> counts;  // bounds.size() + 1 buckets
  uint64_t count = 0;
  double sum = 0;
  double min = 0;
  double max = 0;
  void add(double v);
};

struct SumPoint {
  Attributes attributes;
  int64_t value = 0;
};

struct Metric {
  std::string name, description, unit;
  bool is_histogram = true;  // else a monotonic cumulative sum of integers
  std::vector<HistogramPoint> histograms;
  std::vector<SumPoint> sums;
};

struct MetricsExport {
  Attributes resource;
  std::string scope_name = "servebench";
  std::string scope_version;
  uint64_t start_unix_ns = 0;  // cumulative start (the run's start)
  uint64_t time_unix_ns = 0;   // this export
  std::vector<Metric> metrics;
};

// ExportMetricsServiceRequest in the OTLP/JSON mapping.
std::string encode_json(const MetricsExport& e);
// ExportMetricsServiceRequest in the protobuf wire format.
std::string encode_protobuf(const MetricsExport& e);

}  // namespace servebench::sinks
