// AIPerf's adaptive-search profile flags that `servebench search` implements (bracketing then
// bisection on one load axis, experiment/search.h): the recipe, its SLA knobs, --search-sla
// filters, the concurrency bounds and the probe budget. Given to `servebench profile`, they make
// it run the search: profile_cmd.cc hands the command line to search_cmd.cc, which takes these
// flags out and reads them; a knob without --search-recipe / --search-sla is a usage error
// there. Here each value is only checked (a run's configuration holds none of them).
#include <fmt/format.h>

#include "config/flag_kinds.h"
#include "core/units.h"

namespace servebench::config {
namespace {

using namespace flags;  // NOLINT: the builders read as a table

constexpr const char* kRecipes =
    "max-throughput-ttft-sla, max-throughput-itl-sla, max-concurrency-under-sla, "
    "max-goodput-under-slo or concurrency-ramp";

FlagSpec knob(std::string name, std::string help,
              std::function<Status(const std::string&)> check) {
  FlagSpec s = base(name, std::move(help), "");
  s.apply = [check](const FlagInput& in, C*) -> Status {
    if (in.text.empty()) return {};
    return check(in.text);
  };
  return s;
}

std::function<Status(const std::string&)> positive_ms(std::string flag) {
  return [flag](const std::string& t) -> Status {
    auto v = to_double(flag, t, "milliseconds > 0");
    if (!v) return tl::unexpected(v.error());
    if (!(*v > 0)) return usage(flag + " '" + t + "' must be > 0 (milliseconds)");
    return {};
  };
}

std::function<Status(const std::string&)> count_in(std::string flag, int64_t lo, int64_t hi) {
  return [=](const std::string& t) -> Status {
    auto v = to_count(flag, t, lo);
    if (!v) return tl::unexpected(v.error());
    if (*v > hi) return usage(fmt::format("{} '{}' is invalid; expected {} to {}", flag, t, lo, hi));
    return {};
  };
}

Status check_recipe(const std::string& t) {
  for (const char* r : {"max-throughput-ttft-sla", "max-throughput-itl-sla",
                        "max-concurrency-under-sla", "max-goodput-under-slo", "concurrency-ramp"})
    if (t == r) return {};
  for (const char* r : {"prefill-ttft-curve", "decode-itl-curve", "pareto-sweep"})
    if (t == r)
      return usage(fmt::format("--search-recipe {} is not supported yet; expected {}", t, kRecipes));
  return usage(fmt::format("--search-recipe '{}' is unknown; expected {}", t, kRecipes));
}

// AIPerf's 'tag:stat:op:threshold' ("time_to_first_token:p95:lt:200").
Status check_search_sla(const std::string& t) {
  const size_t a = t.find(':'), b = a == std::string::npos ? a : t.find(':', a + 1),
               c = b == std::string::npos ? b : t.find(':', b + 1);
  bool ok = c != std::string::npos && a > 0 && b > a + 1 && c > b + 1;
  if (ok) {
    const std::string op = t.substr(b + 1, c - b - 1);
    ok = (op == "lt" || op == "le" || op == "gt" || op == "ge") &&
         core::parse_double(t.substr(c + 1)).has_value();
  }
  if (!ok)
    return usage("--search-sla '" + t +
                 "' is invalid; expected METRIC:STAT:OP:THRESHOLD with OP lt, le, gt or ge "
                 "(e.g. time_to_first_token:p95:lt:200)");
  return {};
}

}  // namespace

void add_search_flags(std::vector<FlagSpec>* out) {
  {
    FlagSpec s = base("--search-recipe",
                      std::string("Run the SLO capacity search (servebench search) with this "
                                  "recipe: ") + kRecipes,
                      "");
    s.apply = [](const FlagInput& in, C*) -> Status {
      if (in.text.empty()) return {};
      return check_recipe(in.text);
    };
    out->push_back(std::move(s));
  }
  {
    FlagSpec s = base("--search-sla",
                      "An SLO of the search, METRIC:STAT:OP:THRESHOLD (repeatable; OP lt, le, gt, "
                      "ge; e.g. time_to_first_token:p95:lt:200); runs the search over concurrency",
                      "");
    s.arity = FlagArity::kList;
    s.one_value_per_use = true;
    s.apply = [](const FlagInput& in, C*) -> Status {
      for (const auto& t : in.texts)
        if (auto st = check_search_sla(t); !st) return st;
      return {};
    };
    out->push_back(std::move(s));
  }
  out->push_back(knob("--ttft-sla-ms", "Search recipes: time_to_first_token p99 at most this (ms)",
                      positive_ms("--ttft-sla-ms")));
  out->push_back(knob("--itl-sla-ms", "Search recipes: inter_token_latency p99 at most this (ms)",
                      positive_ms("--itl-sla-ms")));
  out->push_back(knob("--tpot-sla-ms", "Same as --itl-sla-ms (time per output token)",
                      positive_ms("--tpot-sla-ms")));
  out->push_back(knob("--e2e-sla-ms",
                      "Search recipes over concurrency: request_latency p99 at most this (ms)",
                      positive_ms("--e2e-sla-ms")));
  out->push_back(knob("--concurrency-min", "Search: the lowest load probed (default 1)",
                      count_in("--concurrency-min", 1, int64_t{1} << 30)));
  out->push_back(knob("--concurrency-max", "Search: the highest load probed (default 1024)",
                      count_in("--concurrency-max", 1, int64_t{1} << 30)));
  out->push_back(knob("--search-max-iterations", "Search: probes at most (2-200, default 20)",
                      count_in("--search-max-iterations", 2, 200)));
}

}  // namespace servebench::config
