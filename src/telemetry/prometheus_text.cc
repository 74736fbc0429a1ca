#include "telemetry/prometheus_text.h"

namespace servebench::telemetry::prom {

Result<std::vector<Family>> parse_exposition(std::string_view text, Format format) {
  return make_error(ErrorCode::kUnsupported, "prometheus parser: not implemented yet");
}

const char* metric_type_name(MetricType type) {
  switch (type) {
    case MetricType::kUntyped: return "untyped";
    case MetricType::kCounter: return "counter";
    case MetricType::kGauge: return "gauge";
    case MetricType::kHistogram: return "histogram";
    case MetricType::kGaugeHistogram: return "gaugehistogram";
    case MetricType::kSummary: return "summary";
    case MetricType::kInfo: return "info";
    case MetricType::kStateSet: return "stateset";
    case MetricType::kUnknown: return "unknown";
  }
  return "unknown";
}

Format format_from_content_type(std::string_view content_type) {
  return content_type.find("application/openmetrics-text") != std::string_view::npos
             ? Format::kOpenMetrics
             : Format::kPrometheusText;
}

}  // namespace servebench::telemetry::prom
