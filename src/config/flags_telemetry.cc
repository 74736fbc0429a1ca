// GPU telemetry and network-latency flags (config/flag_table.h; docs/telemetry.md).
#include <fmt/format.h>

#include <filesystem>

#include "config/flag_kinds.h"
#include "core/env.h"

namespace servebench::config {
namespace {

using namespace flags;  // NOLINT: the builders read as a table

bool ends_with(const std::string& s, std::string_view tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// pynvml, amdsmi, dashboard, a readable *.csv, or a DCGM exporter URL (scheme optional).
Status check_gpu_value(const std::string& v) {
  if (v == "pynvml" || v == "amdsmi" || v == "dashboard") return {};
  if (ends_with(v, ".csv")) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(v, ec))
      return usage(fmt::format("--gpu-telemetry '{}': no such custom metrics file; give an "
                               "existing .csv path",
                               v));
    return {};
  }
  const bool url_chars = v.find_first_of(" \t\"'<>") == std::string::npos;
  if (v.empty() || !url_chars || v.front() == '-' || v.front() == ':')
    return usage(fmt::format("--gpu-telemetry '{}' is invalid; expected pynvml, amdsmi, "
                             "dashboard, a metrics .csv file or a DCGM exporter URL "
                             "(host:port or http://host:port/metrics)",
                             v));
  return {};
}

}  // namespace

void add_telemetry_flags(std::vector<FlagSpec>* out) {
  {
    FlagSpec s = base("--gpu-telemetry",
                      "GPU telemetry: show the GPU panel; values: pynvml, amdsmi, dashboard, "
                      "DCGM exporter URLs, a custom metrics .csv (DCGM at localhost:9400 and "
                      ":9401 is always tried unless --no-gpu-telemetry)",
                      "/gpu_telemetry/values");
    s.arity = FlagArity::kList;
    s.value_optional = true;
    s.apply = [](const FlagInput& in, C* c) -> Status {
      c->gpu_telemetry_given = true;
      for (const auto& v : in.texts) {
        if (v.empty()) continue;
        if (auto st = check_gpu_value(v); !st) return st;
        c->gpu_telemetry.push_back(v);
      }
      return {};
    };
    s.to_json = [](const C& c) {
      std::vector<std::string> shown;
      for (const auto& v : c.gpu_telemetry) shown.push_back(core::redact_url_user_info(v));
      return JsonValue(shown);
    };
    out->push_back(std::move(s));
  }
  out->push_back(switch_flag("--no-gpu-telemetry", "Collect no GPU telemetry at all",
                             &C::no_gpu_telemetry, "/gpu_telemetry/disabled"));
  out->push_back(switch_flag("--network-latency-automatic",
                             "Probe each endpoint's TCP-connect RTT every ping interval and "
                             "report network-adjusted latencies",
                             &C::network_latency_automatic, "/network_latency/automatic"));
  out->push_back(double_flag("--network-latency-mean", "--network-latency-mean",
                             "Fixed network RTT in ms to subtract (instead of probing)",
                             &C::network_latency_mean_ms, "milliseconds >= 0",
                             Bound::kNonNegative, "/network_latency/mean_ms"));
  {
    FlagSpec s = seconds_flag("--network-latency-ping-interval", "--network-latency-ping-interval",
                              "Seconds between RTT probes", &C::network_latency_ping_interval_ns,
                              false, "/network_latency/ping_interval");
    auto apply = s.apply;
    s.apply = [apply](const FlagInput& in, C* c) -> Status {
      if (auto st = apply(in, c); !st) return st;
      if (c->network_latency_ping_interval_ns <= 0)
        return usage("--network-latency-ping-interval must be > 0 seconds");
      return {};
    };
    out->push_back(std::move(s));
  }
}

}  // namespace servebench::config
