// Module-internal: the JSON pieces report_data.cc assembles (nlohmann stays inside this
// module's sources, never in its public headers).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "report_html/distributions.h"
#include "report_html/time_series.h"

namespace servebench::report_html::internal {

using Json = nlohmann::ordered_json;

// `x` rounded to `digits` significant digits (short JSON numbers); NaN/inf become null.
Json rounded(double x, int digits = 5);
// A numeric array of `v`, each rounded; NaN/inf become null.
Json rounded_array(const std::vector<double>& v, int digits = 5);

Json histogram_json(const Histogram& h);
Json cdf_json(const Cdf& c);
Json time_series_json(const TimeSeries& ts);

// Generic panels from files other writers produce (server metrics aggregates, GPU samples);
// null when the file is absent or holds nothing numeric. `origin_ns` is the report's t = 0.
Json server_metrics_panel(const std::string& path);
Json gpu_panel(const std::string& path, int64_t origin_ns);

}  // namespace servebench::report_html::internal
