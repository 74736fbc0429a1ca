// AIPerf parity flags (config/flag_table.h): the warm-up's own load shape, the request-rate series,
// the failed-request threshold, model and URL selection, waiting for the model, the server
// profiler, the request content type, the log level and stats interval, and AIPerf's flags for
// its own internals (accepted, with a note that servebench does not need them). Values land in
// BenchmarkConfig::parity (config/parity_options.h); validate_parity() checks how they combine.
#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "config/flag_kinds.h"
#include "config/parity_validate.h"

namespace servebench::config {
namespace {

using namespace flags;  // NOLINT: the builders read as a table
using P = ParityOptions;

// A member of ParityOptions (or of its warm-up shape) reached from the config.
#define SB_PARITY_FIELD(expr) \
  [](C& c) -> auto& { return c.parity.expr; }, [](const C& c) -> const auto& { return c.parity.expr; }

JsonValue seconds_json(const std::optional<int64_t>& ns) {
  return ns ? JsonValue(ns_to_s(*ns)) : JsonValue(nullptr);
}

template <class Get, class CGet>
FlagSpec opt_seconds(std::string name, std::string help, Get get, CGet cget, bool allow_inf,
                     std::string key) {
  FlagSpec s = base(name, std::move(help), std::move(key));
  s.apply = [=](const FlagInput& in, C* c) -> Status {
    if (in.text.empty()) return {};
    auto v = to_seconds(name, in.text, allow_inf);
    if (!v) return tl::unexpected(v.error());
    get(*c) = *v;
    return {};
  };
  s.to_json = [cget](const C& c) { return seconds_json(cget(c)); };
  return s;
}

template <class Get, class CGet>
FlagSpec opt_count(std::string name, std::string help, Get get, CGet cget, int64_t min,
                   std::string key) {
  FlagSpec s = base(name, std::move(help), std::move(key));
  s.apply = [=](const FlagInput& in, C* c) -> Status {
    if (in.text.empty()) return {};
    auto v = to_count(name, in.text, min);
    if (!v) return tl::unexpected(v.error());
    get(*c) = *v;
    return {};
  };
  s.to_json = [cget](const C& c) { return json_of(cget(c)); };
  return s;
}

// A number in [lo, hi].
template <class Get, class CGet>
FlagSpec ranged(std::string name, std::string help, Get get, CGet cget, double lo, double hi,
                bool lo_open, std::string key) {
  FlagSpec s = base(name, std::move(help), std::move(key));
  s.apply = [=](const FlagInput& in, C* c) -> Status {
    if (in.text.empty()) return {};
    auto v = to_double(name, in.text, fmt::format("a number in {}{}, {}]", lo_open ? "(" : "[", lo, hi));
    if (!v) return tl::unexpected(v.error());
    if (!(lo_open ? *v > lo : *v >= lo) || !(*v <= hi))
      return usage(fmt::format("{} '{}' is out of range; expected a number in {}{}, {}]", name,
                               in.text, lo_open ? "(" : "[", lo, hi));
    get(*c) = *v;
    return {};
  };
  s.to_json = [cget](const C& c) { return json_of(cget(c)); };
  return s;
}

template <class Get, class CGet>
FlagSpec path_string(std::string name, std::string help, Get get, CGet cget, std::string key) {
  FlagSpec s = base(name, std::move(help), std::move(key));
  s.apply = [=](const FlagInput& in, C* c) -> Status {
    if (in.text.empty()) return {};
    get(*c) = in.text;
    c->parity.server_profiler = true;  // a profiler path or timeout implies --server-profiler
    return {};
  };
  s.to_json = [cget](const C& c) { return JsonValue(cget(c)); };
  return s;
}

Status apply_rate_series(const FlagInput& in, C* c) {
  if (in.text.empty()) return {};
  const std::string source = "--request-rate-series '" + in.text + "'";
  std::ifstream f(in.text, std::ios::binary);
  if (!f) return usage(source + " cannot be read; expected a JSON file of {\"points\": [{\"time_s\": 0, \"qps\": 5}, ...]}");
  std::ostringstream ss;
  ss << f.rdbuf();
  auto points = parse_rate_series(ss.str(), source);
  if (!points) return tl::unexpected(points.error());
  c->parity.request_rate_series_path = in.text;
  c->parity.request_rate_series = std::move(*points);
  return {};
}

Status apply_weights(const FlagInput& in, C* c) {
  c->parity.model_weights.clear();
  for (const auto& w : in.texts) {
    if (w.empty()) continue;
    auto v = to_double("--model-weights", w, "a weight in [0, 1]");
    if (!v) return tl::unexpected(v.error());
    if (!(*v >= 0 && *v <= 1))
      return usage("--model-weights '" + w + "' is out of range; expected a weight in [0, 1]");
    c->parity.model_weights.push_back(*v);
  }
  return {};
}

// AIPerf's choices are case-insensitive and take '-' for '_' ("round-robin").
std::string choice_text(std::string v) {
  for (auto& ch : v) ch = ch == '-' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return v;
}

Status apply_log_level(const FlagInput& in, C* c) {
  static const std::vector<std::pair<std::string, int>> kLevels = {
      {"TRACE", 3}, {"DEBUG", 2}, {"INFO", 1}, {"NOTICE", 1}, {"SUCCESS", 1},
      {"WARNING", 0}, {"ERROR", 0}, {"CRITICAL", 0}};
  std::string up = in.text;
  for (auto& ch : up) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  for (const auto& [name, verbosity] : kLevels) {
    if (up != name) continue;
    c->parity.log_level = name;
    c->verbosity = verbosity;
    return {};
  }
  return usage("--log-level '" + in.text +
               "' is invalid; expected TRACE, DEBUG, INFO, NOTICE, SUCCESS, WARNING, ERROR or CRITICAL");
}

// An AIPerf flag that configures AIPerf's own processes: accepted, noted, unused.
FlagSpec internal_flag(std::string names, std::string flag, FlagArity arity, std::string note) {
  FlagSpec s = base(std::move(names), "Accepted for AIPerf compatibility; " + note, "");
  s.arity = arity;
  s.apply = [flag](const FlagInput&, C* c) -> Status {
    c->parity.internal_flags_given.push_back(flag);  // called only when the flag was given
    return {};
  };
  return s;
}

void add_warmup_flags(std::vector<FlagSpec>* out) {
  out->push_back(opt_count("--warmup-concurrency", "Warm-up concurrency (default: --concurrency)",
                           SB_PARITY_FIELD(warmup.concurrency), 1, "/loadgen/warmup_concurrency"));
  out->push_back(opt_count("--warmup-prefill-concurrency",
                           "Warm-up prefill concurrency (default: --prefill-concurrency)",
                           SB_PARITY_FIELD(warmup.prefill_concurrency), 1,
                           "/loadgen/warmup_prefill_concurrency"));
  out->push_back(ranged("--warmup-request-rate", "Warm-up requests/s (default: --request-rate)",
                        SB_PARITY_FIELD(warmup.request_rate), 0, 1e12, true,
                        "/loadgen/warmup_request_rate"));
  {
    FlagSpec s = base("--warmup-arrival-pattern",
                      "Warm-up arrival pattern: constant, poisson, gamma (default: --arrival-pattern)",
                      "/loadgen/warmup_arrival_pattern");
    s.apply = [](const FlagInput& in, C* c) -> Status {
      if (in.text.empty()) return {};
      const std::string v = choice_text(in.text);
      if (v == "constant") c->parity.warmup.arrival_pattern = ArrivalPattern::kConstant;
      else if (v == "poisson") c->parity.warmup.arrival_pattern = ArrivalPattern::kPoisson;
      else if (v == "gamma") c->parity.warmup.arrival_pattern = ArrivalPattern::kGamma;
      else return usage("--warmup-arrival-pattern '" + in.text + "' is invalid; expected constant, poisson or gamma");
      return {};
    };
    s.to_json = [](const C& c) -> JsonValue {
      if (!c.parity.warmup.arrival_pattern) return nullptr;
      return std::string(arrival_pattern_name(*c.parity.warmup.arrival_pattern));
    };
    out->push_back(std::move(s));
  }
  out->push_back(opt_seconds("--warmup-grace-period",
                             "Wait this long for warm-up requests after --warmup-duration (default inf)",
                             SB_PARITY_FIELD(warmup.grace_ns), true, "/loadgen/warmup_grace_period"));
  out->push_back(opt_seconds("--warmup-concurrency-ramp-duration",
                             "Warm-up concurrency ramp (default: --concurrency-ramp-duration)",
                             SB_PARITY_FIELD(warmup.concurrency_ramp_ns), false,
                             "/loadgen/warmup_concurrency_ramp_duration"));
  out->push_back(opt_seconds("--warmup-prefill-concurrency-ramp-duration",
                             "Warm-up prefill-concurrency ramp (default: --prefill-concurrency-ramp-duration)",
                             SB_PARITY_FIELD(warmup.prefill_ramp_ns), false,
                             "/loadgen/warmup_prefill_concurrency_ramp_duration"));
  out->push_back(opt_seconds("--warmup-request-rate-ramp-duration",
                             "Warm-up request-rate ramp (default: --request-rate-ramp-duration)",
                             SB_PARITY_FIELD(warmup.rate_ramp_ns), false,
                             "/loadgen/warmup_request_rate_ramp_duration"));
}

void add_load_parity_flags(std::vector<FlagSpec>* out) {
  {
    FlagSpec s = base("--request-rate-series",
                      "JSON file of {\"points\": [{\"time_s\", \"qps\"}...]}: piecewise-linear request rate",
                      "/loadgen/request_rate_series");
    s.apply = apply_rate_series;
    s.to_json = [](const C& c) { return string_or_null(c.parity.request_rate_series_path); };
    out->push_back(std::move(s));
  }
  out->push_back(ranged("--failed-request-threshold",
                        "Stop early when failed/total profiling records exceeds this ratio "
                        "(checked after max(concurrency, 10) records)",
                        SB_PARITY_FIELD(failed_request_threshold), 0, 1, false,
                        "/loadgen/failed_request_threshold"));
  out->push_back(opt_seconds("--prefill-concurrency-ramp-duration",
                             "Ramp the prefill-concurrency limit from 1 over this many seconds",
                             SB_PARITY_FIELD(prefill_concurrency_ramp_ns), false,
                             "/loadgen/prefill_concurrency_ramp_duration"));
}

void add_endpoint_parity_flags(std::vector<FlagSpec>* out) {
  {
    FlagSpec s = base("--model-selection-strategy",
                      "round_robin, random or weighted (with --model-weights)",
                      "/endpoint/model_selection_strategy");
    s.apply = [](const FlagInput& in, C* c) -> Status {
      if (in.text.empty()) return {};
      const std::string v = choice_text(in.text);
      if (v == "round_robin") c->parity.model_selection = ModelSelection::kRoundRobin;
      else if (v == "random") c->parity.model_selection = ModelSelection::kRandom;
      else if (v == "weighted") c->parity.model_selection = ModelSelection::kWeighted;
      else return usage("--model-selection-strategy '" + in.text + "' is invalid; expected round_robin, random or weighted");
      return {};
    };
    s.to_json = [](const C& c) { return JsonValue(std::string(model_selection_name(c.parity.model_selection))); };
    out->push_back(std::move(s));
  }
  {
    FlagSpec s = base("--model-weights",
                      "Weights of the -m models for --model-selection-strategy weighted (one per model, sum 1)",
                      "/endpoint/model_weights");
    s.arity = FlagArity::kList;
    s.delimiter = ',';
    s.apply = apply_weights;
    s.to_json = [](const C& c) -> JsonValue {
      if (c.parity.model_weights.empty()) return nullptr;
      std::vector<std::string> w;
      for (double x : c.parity.model_weights) w.push_back(fmt::format("{}", x));
      return w;
    };
    out->push_back(std::move(s));
  }
  {
    FlagSpec s = base("--url-strategy", "How requests are spread over several --url: round_robin",
                      "/endpoint/url_strategy");
    s.apply = [](const FlagInput& in, C* c) -> Status {
      if (in.text.empty()) return {};
      if (choice_text(in.text) != "round_robin")
        return usage("--url-strategy '" + in.text + "' is invalid; expected round_robin");
      return {};
    };
    s.to_json = [](const C& c) { return JsonValue(c.parity.url_strategy); };
    out->push_back(std::move(s));
  }
  out->push_back(opt_seconds("--wait-for-model-timeout",
                             "Wait up to this many seconds for the server to be ready (0 = do not wait)",
                             SB_PARITY_FIELD(wait_for_model_timeout_ns), false,
                             "/endpoint/wait_for_model_timeout"));
  {
    FlagSpec s = base("--wait-for-model-mode",
                      "models (GET /v1/models lists the model), inference (a 1-token request succeeds) or both",
                      "/endpoint/wait_for_model_mode");
    s.apply = [](const FlagInput& in, C* c) -> Status {
      if (in.text.empty()) return {};
      const std::string v = choice_text(in.text);
      if (v == "models") c->parity.wait_for_model_mode = WaitMode::kModels;
      else if (v == "inference") c->parity.wait_for_model_mode = WaitMode::kInference;
      else if (v == "both") c->parity.wait_for_model_mode = WaitMode::kBoth;
      else return usage("--wait-for-model-mode '" + in.text + "' is invalid; expected models, inference or both");
      return {};
    };
    s.to_json = [](const C& c) -> JsonValue {
      switch (c.parity.wait_for_model_mode) {
        case WaitMode::kModels: return std::string("models");
        case WaitMode::kBoth: return std::string("both");
        case WaitMode::kInference: break;
      }
      return std::string("inference");
    };
    out->push_back(std::move(s));
  }
  {
    FlagSpec s = opt_seconds("--wait-for-model-interval", "Seconds between readiness probes",
                             SB_PARITY_FIELD(wait_for_model_interval_ns), false,
                             "/endpoint/wait_for_model_interval");
    auto apply = s.apply;
    s.apply = [apply](const FlagInput& in, C* c) -> Status {
      if (auto st = apply(in, c); !st) return st;
      if (c->parity.wait_for_model_interval_ns <= 0)
        return usage("--wait-for-model-interval '" + in.text + "' must be > 0");
      return {};
    };
    s.to_json = [](const C& c) { return JsonValue(ns_to_s(c.parity.wait_for_model_interval_ns)); };
    out->push_back(std::move(s));
  }
  {
    FlagSpec s = base("--server-profiler",
                      "POST the profiler start path before the profiling phase and the stop path after it",
                      "/endpoint/server_profiler");
    s.arity = FlagArity::kSwitch;
    s.apply = [](const FlagInput& in, C* c) -> Status {
      if (in.on) c->parity.server_profiler = true;
      return {};
    };
    s.to_json = [](const C& c) { return JsonValue(c.parity.server_profiler); };
    out->push_back(std::move(s));
  }
  out->push_back(path_string("--server-profiler-start-path", "Profiler start path (implies --server-profiler)",
                             SB_PARITY_FIELD(server_profiler_start_path),
                             "/endpoint/server_profiler_start_path"));
  out->push_back(path_string("--server-profiler-stop-path", "Profiler stop path (implies --server-profiler)",
                             SB_PARITY_FIELD(server_profiler_stop_path),
                             "/endpoint/server_profiler_stop_path"));
  {
    FlagSpec s = opt_seconds("--server-profiler-timeout-seconds",
                             "Timeout of each profiler request (implies --server-profiler)",
                             SB_PARITY_FIELD(server_profiler_timeout_ns), false,
                             "/endpoint/server_profiler_timeout_seconds");
    auto apply = s.apply;
    s.apply = [apply](const FlagInput& in, C* c) -> Status {
      if (auto st = apply(in, c); !st) return st;
      if (!in.text.empty()) c->parity.server_profiler = true;
      if (c->parity.server_profiler_timeout_ns <= 0)
        return usage("--server-profiler-timeout-seconds '" + in.text + "' must be > 0");
      return {};
    };
    s.to_json = [](const C& c) { return JsonValue(ns_to_s(c.parity.server_profiler_timeout_ns)); };
    out->push_back(std::move(s));
  }
  {
    FlagSpec s = base("--request-content-type",
                      "Content-Type of request bodies: application/json", "/endpoint/request_content_type");
    s.apply = [](const FlagInput& in, C* c) -> Status {
      if (in.text.empty() || in.text == "application/json") return {};
      if (in.text == "multipart/form-data")
        return usage("--request-content-type 'multipart/form-data' is not supported yet; request bodies are JSON (use application/json)");
      return usage("--request-content-type '" + in.text + "' is invalid; expected application/json or multipart/form-data");
    };
    s.to_json = [](const C& c) { return JsonValue(c.parity.request_content_type); };
    out->push_back(std::move(s));
  }
}

void add_service_flags(std::vector<FlagSpec>* out) {
  {
    FlagSpec s = base("--log-level", "TRACE, DEBUG, INFO, WARNING, ERROR or CRITICAL (overrides -v)", "");
    s.apply = apply_log_level;
    out->push_back(std::move(s));
  }
  {
    FlagSpec s = base("--extra-verbose", "Same as --log-level TRACE (-vv)", "");
    s.arity = FlagArity::kSwitch;
    s.apply = [](const FlagInput& in, C* c) -> Status {
      if (in.on) c->verbosity = 3;
      return {};
    };
    out->push_back(std::move(s));
  }
  {
    FlagSpec s = ranged("--stats-interval",
                        "Seconds between progress lines without a dashboard (0 = none)",
                        SB_PARITY_FIELD(stats_interval_ns), 0, 1000, false, "");
    auto to_ns = [](const FlagInput& in, C* c) -> Status {
      if (in.text.empty()) return {};
      auto v = to_double("--stats-interval", in.text, "seconds in [0, 1000]");
      if (!v) return tl::unexpected(v.error());
      if (!(*v >= 0 && *v <= 1000))
        return usage("--stats-interval '" + in.text + "' is out of range; expected seconds in [0, 1000]");
      c->parity.stats_interval_ns = static_cast<int64_t>(*v * 1e9);
      return {};
    };
    s.apply = to_ns;
    s.to_json = nullptr;
    out->push_back(std::move(s));
  }
  out->push_back(internal_flag("--record-processor-service-count,--record-processors",
                               "--record-processors", FlagArity::kValue,
                               "servebench counts tokens on its own processor thread, no services"));
  out->push_back(internal_flag("--zmq-host", "--zmq-host", FlagArity::kValue,
                               "servebench is one process and has no ZMQ message bus"));
  out->push_back(internal_flag("--zmq-ipc-path", "--zmq-ipc-path", FlagArity::kValue,
                               "servebench is one process and has no ZMQ message bus"));
  out->push_back(internal_flag("--zmq-dual-bind", "--zmq-dual-bind", FlagArity::kSwitch,
                               "servebench is one process and has no ZMQ message bus"));
}

// An AIPerf flag servebench deliberately refuses (exit 2, one line).
FlagSpec refused_flag(std::string names, std::string flag, FlagArity arity, std::string why) {
  FlagSpec s = base(std::move(names), "Not supported yet (" + why + ")", "");
  s.arity = arity;
  s.apply = [flag, why](const FlagInput&, C*) -> Status {
    return usage(flag + " is not supported yet: " + why + "; drop the flag");
  };
  return s;
}

void add_misc_parity_flags(std::vector<FlagSpec>* out) {
  {
    FlagSpec s = base("--transport,--transport-type", "Transport: http (HTTP/1.1 or --http-version 2)", "");
    s.apply = [](const FlagInput& in, C*) -> Status {
      if (in.text.empty() || choice_text(in.text) == "http") return {};
      return usage("--transport '" + in.text + "' is invalid; expected http");
    };
    out->push_back(std::move(s));
  }
  out->push_back(internal_flag("--tokenizer-trust-remote-code", "--tokenizer-trust-remote-code",
                               FlagArity::kSwitch,
                               "servebench's native tokenizers run no model code"));
  out->push_back(internal_flag("--auto-plot,--no-auto-plot", "--auto-plot", FlagArity::kSwitch,
                               "report.html always carries the plots; `servebench plot` draws PNG/SVG"));
  out->push_back(internal_flag("--plot-required", "--plot-required", FlagArity::kSwitch,
                               "report.html always carries the plots; `servebench plot` draws PNG/SVG"));
  const std::string why = "servebench measures performance, not accuracy";
  for (const char* f : {"--accuracy-benchmark", "--accuracy-tasks", "--accuracy-n-shots",
                        "--accuracy-grader", "--accuracy-system-prompt"})
    out->push_back(refused_flag(f, f, FlagArity::kValue, why));
  out->push_back(refused_flag("--accuracy-enable-cot,--accuracy-no-enable-cot", "--accuracy-enable-cot",
                              FlagArity::kSwitch, why));
  out->push_back(refused_flag("--accuracy-verbose", "--accuracy-verbose", FlagArity::kSwitch, why));
}

}  // namespace

bool arity_given(const FlagInput& in) { return in.on || in.count > 0 || !in.text.empty() || !in.texts.empty(); }

void add_parity_flags(std::vector<FlagSpec>* out) {
  add_warmup_flags(out);
  add_load_parity_flags(out);
  add_endpoint_parity_flags(out);
  add_service_flags(out);
  add_misc_parity_flags(out);
}

}  // namespace servebench::config
