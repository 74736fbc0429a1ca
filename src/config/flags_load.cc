// Load-shape and output flags (config/flag_table.h).
#include "config/flag_kinds.h"

namespace servebench::config {
namespace {

using namespace flags;  // NOLINT: the builders read as a table

}  // namespace

void add_load_flags(std::vector<FlagSpec>* out) {
  out->push_back(sweepable("concurrency", count_flag("--concurrency", "--concurrency",
                            "Max in-flight requests (closed loop alone)", &C::concurrency, 1,
                            "/loadgen/concurrency")));
  out->push_back(sweepable("request_rate", double_flag("--request-rate", "--request-rate", "Target requests/s (open loop)",
                             &C::request_rate, "requests per second > 0", Bound::kPositive,
                             "/loadgen/request_rate")));
  {
    FlagSpec s =
        choice_flag<ArrivalPattern>("--arrival-pattern,--request-rate-mode", "--arrival-pattern",
                                    "constant, poisson, gamma", &C::arrival_pattern,
                                    {{"constant", ArrivalPattern::kConstant},
                                     {"poisson", ArrivalPattern::kPoisson},
                                     {"gamma", ArrivalPattern::kGamma}},
                                    "constant, poisson or gamma", true, "/loadgen/arrival_pattern");
    auto choose = s.apply;
    s.apply = [choose](const FlagInput& in, C* c) -> Status {
      if (in.text.empty()) return {};
      c->arrival_pattern_given = true;  // validate() checks it needs --request-rate
      return choose(in, c);
    };
    out->push_back(std::move(s));
  }
  out->push_back(double_flag("--arrival-smoothness,--vllm-burstiness", "--arrival-smoothness",
                             "Gamma shape (<1 bursty, >1 smooth)", &C::arrival_smoothness,
                             "a gamma shape > 0", Bound::kAny, "/loadgen/arrival_smoothness"));
  {
    FlagSpec s =
        count_flag("--request-count,--num-requests", "--request-count",
                   "Profiling requests to send", &C::request_count, 1, "/loadgen/request_count");
    s.default_text = "max(10, 2 x concurrency) without --benchmark-duration";
    s.to_json = [](const C& c) { return json_of(c.effective_request_count()); };
    out->push_back(sweepable("request_count", std::move(s)));
  }
  out->push_back(sweepable("benchmark_duration", seconds_flag("--benchmark-duration", "--benchmark-duration",
                              "Stop issuing after this many seconds", &C::benchmark_duration_ns,
                              false, "/loadgen/benchmark_duration")));
  {
    FlagSpec s = seconds_flag("--benchmark-grace-period", "--benchmark-grace-period",
                              "Wait for in-flight requests after the duration (or inf)",
                              &C::grace_period_ns, true, "/loadgen/benchmark_grace_period");
    s.default_text = "30";
    s.to_json = [](const C& c) {
      return c.benchmark_duration_ns ? JsonValue(ns_to_s(c.effective_grace_ns()))
                                     : JsonValue(nullptr);
    };
    out->push_back(std::move(s));
  }
  out->push_back(count_flag("--warmup-request-count,--num-warmup-requests",
                            "--warmup-request-count", "Warm-up requests", &C::warmup_request_count,
                            1, "/loadgen/warmup_request_count"));
  out->push_back(count_flag("--num-warmup-sessions", "--num-warmup-sessions",
                            "Warm-up sessions (multi-turn)", &C::num_warmup_sessions, 1,
                            "/loadgen/num_warmup_sessions"));
  out->push_back(seconds_flag("--warmup-duration", "--warmup-duration", "Warm-up seconds",
                              &C::warmup_duration_ns, false, "/loadgen/warmup_duration"));
  out->push_back(seconds_flag("--concurrency-ramp-duration", "--concurrency-ramp-duration",
                              "Ramp concurrency from 1 over this many seconds",
                              &C::concurrency_ramp_ns, false,
                              "/loadgen/concurrency_ramp_duration"));
  out->push_back(seconds_flag("--request-rate-ramp-duration", "--request-rate-ramp-duration",
                              "Ramp the request rate over this many seconds",
                              &C::request_rate_ramp_ns, false,
                              "/loadgen/request_rate_ramp_duration"));
  out->push_back(sweepable("prefill_concurrency", count_flag("--prefill-concurrency", "--prefill-concurrency",
                            "Max requests waiting for their first token", &C::prefill_concurrency,
                            1, "/loadgen/prefill_concurrency")));
  out->push_back(double_flag("--request-cancellation-rate", "--request-cancellation-rate",
                             "Percent of requests to cancel (0-100)", &C::cancellation_rate_pct,
                             "a percentage 0-100", Bound::kAny,
                             "/loadgen/request_cancellation_rate"));
  {
    FlagSpec s = seconds_flag("--request-cancellation-delay", "--request-cancellation-delay",
                              "Seconds after sending before cancelling", &C::cancellation_delay_ns,
                              false, "/loadgen/request_cancellation_delay");
    s.to_json = [](const C& c) {
      return c.cancellation_delay_ns ? ns_to_s(*c.cancellation_delay_ns) : 0.0;
    };
    out->push_back(std::move(s));
  }
  {
    FlagSpec s = count_flag("--workers-max,--max-workers", "--workers-max", "Worker threads",
                            &C::workers_max, 1, "/loadgen/workers_max");
    s.default_text = "cores-1";
    out->push_back(std::move(s));
  }
  out->push_back(double_flag("--user-centric-rate", "--user-centric-rate",
                             "Requests/s over --num-users users, each at a fixed gap",
                             &C::user_centric_rate, "requests per second > 0", Bound::kPositive,
                             "/loadgen/user_centric_rate"));
  out->push_back(sweepable("num_users", count_flag("--num-users", "--num-users", "Simulated users for --user-centric-rate",
                            &C::num_users, 1, "/loadgen/num_users")));
}

void add_output_flags(std::vector<FlagSpec>* out) {
  out->push_back(string_flag("--artifact-dir,--output-artifact-dir", "Artifact folder",
                             &C::artifact_dir, false, "/output/artifact_directory"));
  out->push_back(string_flag("--profile-export-prefix,--profile-export-file",
                             "Rename every export to <prefix>.*", &C::profile_export_prefix, true,
                             "/output/profile_export_prefix"));
  out->push_back(
      choice_flag<ExportLevelName>("--export-level,--profile-export-level", "--export-level",
                                   "summary, records, raw", &C::export_level,
                                   {{"summary", ExportLevelName::kSummary},
                                    {"records", ExportLevelName::kRecords},
                                    {"raw", ExportLevelName::kRaw}},
                                   "summary, records or raw", false, "/output/export_level"));
  out->push_back(string_flag("--goodput", "SLOs 'tag:value ...'", &C::goodput, true, "/goodput"));
  {
    FlagSpec s =
        seconds_flag("--slice-duration", "--slice-duration", "Time-slice window in seconds",
                     &C::slice_duration_ns, false, "/output/slice_duration");
    s.to_json = [](const C& c) {
      return c.slice_duration_ns ? JsonValue(ns_to_s(c.slice_duration_ns)) : nullptr;
    };
    out->push_back(std::move(s));
  }
  out->push_back(string_flag("--fail-on", "Gate 'tag.stat>value ...': exit 1 when it holds",
                             &C::fail_on, true, "/fail_on"));
  // Which files are written, not what is measured: not exported.
  {
    FlagSpec s = switch_flag("--no-report", "Do not write report.html", &C::no_report, "");
    s.to_json = nullptr;
    out->push_back(std::move(s));
  }
  // Verbosity is how the run talks, not what it measures: not exported.
  {
    FlagSpec s = base("-v,--verbose", "More logging (-v debug, -vv trace)", "");
    s.arity = FlagArity::kCounter;
    s.apply = [](const FlagInput& in, C* c) -> Status {
      c->verbosity = 1 + in.count;
      return {};
    };
    out->push_back(std::move(s));
  }
  {
    FlagSpec s = base("-q,--quiet", "Warnings and errors only", "");
    s.arity = FlagArity::kSwitch;
    s.apply = [](const FlagInput& in, C* c) -> Status {  // after -v in the table: -q wins
      if (in.on) c->verbosity = 0;
      return {};
    };
    out->push_back(std::move(s));
  }
}

}  // namespace servebench::config
