// Server-metrics flags (config/flag_table.h): AIPerf's --server-metrics URL..., --no-server-metrics
// and --server-metrics-formats, and servebench's --server-metrics-interval (AIPerf sets the
// interval through an environment variable).
#include <algorithm>

#include "config/flag_kinds.h"

namespace servebench::config {
namespace {

using namespace flags;  // NOLINT: the builders read as a table

Status apply_formats(const FlagInput& in, C* c) {
  std::vector<std::string> formats;
  for (const auto& f : in.texts) {
    if (f.empty()) continue;
    if (f != "json" && f != "csv" && f != "jsonl" && f != "parquet")
      return usage("--server-metrics-formats '" + f + "' is invalid; expected json, csv, jsonl or parquet");
    if (std::find(formats.begin(), formats.end(), f) == formats.end()) formats.push_back(f);
  }
  c->server_metrics_formats = std::move(formats);
  return {};
}

Status apply_urls(const FlagInput& in, C* c) {
  for (const auto& u : in.texts) {
    if (u.empty()) continue;
    if (u.find_first_of(" \t\r\n") != std::string::npos)
      return usage("--server-metrics '" + u + "' is not a URL; expected http(s)://host:port[/path] or host:port");
    c->server_metrics_urls.push_back(u);
  }
  return {};
}

}  // namespace

void add_server_metrics_flags(std::vector<FlagSpec>* out) {
  {
    FlagSpec s = base("--server-metrics",
                      "Extra Prometheus endpoints to scrape besides <each --url>/metrics "
                      "(repeatable; host:port means http://host:port/metrics)",
                      "/server_metrics/urls");
    s.arity = FlagArity::kList;
    s.delimiter = ',';
    s.apply = apply_urls;
    s.to_json = field_json(&C::server_metrics_urls);
    out->push_back(std::move(s));
  }
  {
    FlagSpec s = base("--no-server-metrics", "Do not scrape server metrics", "/server_metrics/enabled");
    s.arity = FlagArity::kSwitch;
    s.default_text = "scraped";  // the config's `true` would read as "the switch is on"
    s.apply = [](const FlagInput& in, C* c) -> Status {
      if (in.on) c->server_metrics = false;
      return {};
    };
    s.to_json = field_json(&C::server_metrics);
    out->push_back(std::move(s));
  }
  {
    FlagSpec s = seconds_flag("--server-metrics-interval", "--server-metrics-interval",
                              "Seconds between server-metrics scrapes", &C::server_metrics_interval_ns,
                              false, "/server_metrics/interval");
    auto apply = s.apply;
    s.apply = [apply](const FlagInput& in, C* c) -> Status {
      if (auto st = apply(in, c); !st) return st;
      if (c->server_metrics_interval_ns < 10'000'000)
        return usage("--server-metrics-interval '" + in.text + "' is too short; expected >= 0.01 s");
      return {};
    };
    out->push_back(std::move(s));
  }
  {
    FlagSpec s = base("--server-metrics-formats",
                      "Server-metrics files: json, csv, jsonl (parquet is accepted and not written)",
                      "/server_metrics/formats");
    s.arity = FlagArity::kList;
    s.delimiter = ',';
    s.apply = apply_formats;
    s.to_json = field_json(&C::server_metrics_formats);
    out->push_back(std::move(s));
  }
}

}  // namespace servebench::config
