// Live display and live API flags (config/flag_table.h). They change how a run is watched, not
// what it measures, so none is exported to input_config.
#include "config/flag_kinds.h"

namespace servebench::config {
namespace {

using namespace flags;  // NOLINT: the builders read as a table

}  // namespace

void add_live_flags(std::vector<FlagSpec>* out) {
  const auto not_exported = [](FlagSpec s) {
    s.to_json = nullptr;
    return s;
  };
  out->push_back(not_exported(choice_flag<UiType>(
      "--ui-type,--ui", "--ui-type",
      "Live display: dashboard (a terminal: default), simple (one progress line) or none; "
      "without a terminal, a plain progress line every 5 s unless none",
      &C::ui,
      {{"dashboard", UiType::kDashboard}, {"simple", UiType::kSimple}, {"none", UiType::kNone}},
      "dashboard, simple or none", false, "")));
  {
    FlagSpec s = base("--api-port",
                      "Serve the live API (/api/progress, /api/metrics, /api/config, /metrics, "
                      "/healthz) on this port during the run (0 = any free port)",
                      "");
    s.apply = [](const FlagInput& in, C* c) -> Status {
      auto v = to_count("--api-port", in.text, 0);
      if (!v || *v > 65535)
        return usage("--api-port '" + in.text + "' is invalid; expected a port from 0 to 65535");
      c->api_port = *v;
      return {};
    };
    out->push_back(std::move(s));
  }
  out->push_back(
      not_exported(string_flag("--api-host", "Address the live API listens on (default 127.0.0.1)",
                               &C::api_host, false, "")));
}

}  // namespace servebench::config
