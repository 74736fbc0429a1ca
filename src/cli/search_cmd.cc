// `servebench search`: the highest concurrency or request rate at which every SLO holds
// (experiment/search.h), each probe a benchmark with its own artifact folder, plus
// search_history.json. Profile flags describe the workload; search flags are taken out first.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "app/run.h"
#include "app/signal_watcher.h"
#include "cli/commands.h"
#include "config/cli_options.h"
#include "core/interrupt.h"
#include "core/log.h"
#include "core/units.h"
#include "endpoints/registry.h"
#include "experiment/aggregate.h"
#include "experiment/experiment.h"
#include "experiment/search.h"
#include "export/artifacts.h"

namespace servebench::cli {
namespace {

namespace fs = std::filesystem;
using experiment::SearchOptions;

void say(const std::string& s) { std::fprintf(stderr, "servebench search: %s\n", s.c_str()); }

int usage(const std::string& s) {
  say(s);
  return 2;
}

constexpr const char* kHelp =
    "usage: servebench search --slo 'METRIC:STAT<=VALUE ...' --over concurrency|request-rate\n"
    "                         [--min N] [--max N] [--resolution N] [--budget PROBES]\n"
    "                         [--boundary-trials N] [--search-recipe NAME] [--ttft-sla-ms MS]\n"
    "                         [--itl-sla-ms MS] [--e2e-sla-ms MS] PROFILE-FLAGS...\n"
    "AIPerf spellings: --search-sla METRIC:STAT:OP:THRESHOLD, --tpot-sla-ms (= --itl-sla-ms),\n"
    "                  --concurrency-min/--concurrency-max (= --min/--max),\n"
    "                  --search-max-iterations (= --budget); `servebench profile` with\n"
    "                  --search-recipe or --search-sla runs this search\n"
    "recipes: max-throughput-ttft-sla, max-throughput-itl-sla, max-concurrency-under-sla,\n"
    "         max-goodput-under-slo, concurrency-ramp\n";

struct SearchArgs {
  std::string slo, over, recipe, ttft_ms, itl_ms, e2e_ms;
  std::string search_sla;  // --search-sla filters, added to the SLOs
  SearchOptions options;
  bool help = false;
  std::vector<std::string> rest;  // profile flags
};

Result<double> number(const std::string& flag, const std::string& v) {
  auto d = core::parse_double(v);
  if (!d || !(*d > 0))
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("{} '{}' is invalid; expected a number > 0", flag, v));
  return *d;
}

// AIPerf's --search-sla 'METRIC:STAT:OP:THRESHOLD' as an SLO ("time_to_first_token:p95<=200");
// lt/le are at-most bounds, gt/ge at-least bounds (equality at the boundary is immaterial).
Result<std::string> aiperf_sla(const std::string& v) {
  const size_t a = v.find(':'), b = a == std::string::npos ? a : v.find(':', a + 1),
               c = b == std::string::npos ? b : v.find(':', b + 1);
  const std::string op = c == std::string::npos ? "" : v.substr(b + 1, c - b - 1);
  const char* sign = op == "lt" || op == "le" ? "<=" : op == "gt" || op == "ge" ? ">=" : nullptr;
  if (!sign)
    return make_error(ErrorCode::kInvalidArgument,
                      "--search-sla '" + v + "' is invalid; expected METRIC:STAT:OP:THRESHOLD "
                      "with OP lt, le, gt or ge (e.g. time_to_first_token:p95:lt:200)");
  return v.substr(0, b) + sign + v.substr(c + 1);
}

// The search's own flags; the rest of the command line is profile flags.
const std::vector<std::string>& search_flag_names() {
  static const std::vector<std::string> kNames = {
      "--slo", "--over", "--min", "--max", "--resolution", "--budget", "--boundary-trials",
      "--search-recipe", "--ttft-sla-ms", "--itl-sla-ms",
      // AIPerf's profile spellings (config/flags_search.cc)
      "--tpot-sla-ms", "--e2e-sla-ms", "--search-sla", "--concurrency-min", "--concurrency-max",
      "--search-max-iterations"};
  return kNames;
}

Result<SearchArgs> split_args(int argc, char** argv) {
  SearchArgs a;
  a.options.resolution = 0;  // 0 = the default for --over
  const std::vector<std::string>& names = search_flag_names();
  std::vector<std::pair<std::string, std::string>> got;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "-h" || arg == "--help") a.help = true;
    std::string value;
    const size_t eq = arg.find('=');
    const std::string name = eq == std::string::npos ? arg : arg.substr(0, eq);
    if (std::find(names.begin(), names.end(), name) == names.end()) {
      a.rest.push_back(arg);
      continue;
    }
    if (eq != std::string::npos)
      value = arg.substr(eq + 1);
    else if (i + 1 < argc)
      value = argv[++i];
    else
      return make_error(ErrorCode::kInvalidArgument, name + " needs a value");
    got.emplace_back(name, value);
  }
  for (const auto& [n, v] : got) {
    if (n == "--slo") a.slo = a.slo.empty() ? v : a.slo + " " + v;
    else if (n == "--over") a.over = v;
    else if (n == "--search-recipe") a.recipe = v;
    else if (n == "--ttft-sla-ms") a.ttft_ms = v;
    else if (n == "--itl-sla-ms" || n == "--tpot-sla-ms") a.itl_ms = v;
    else if (n == "--e2e-sla-ms") a.e2e_ms = v;
    else if (n == "--search-sla") {
      auto slo = aiperf_sla(v);
      if (!slo) return tl::unexpected(slo.error());
      a.search_sla = a.search_sla.empty() ? *slo : a.search_sla + " " + *slo;
    } else {
      auto d = number(n, v);
      if (!d) return tl::unexpected(d.error());
      if (n == "--min" || n == "--concurrency-min") a.options.min = *d;
      if (n == "--max" || n == "--concurrency-max") a.options.max = *d;
      if (n == "--resolution") a.options.resolution = *d;
      if (n == "--budget" || n == "--search-max-iterations")
        a.options.budget = static_cast<int64_t>(*d);
      if (n == "--boundary-trials") a.options.boundary_trials = std::min<int64_t>(10, static_cast<int64_t>(*d));
    }
  }
  return a;
}

// AIPerf's recipe names as presets of --over and --slo.
Status apply_recipe(SearchArgs* a) {
  if (a->recipe.empty()) return {};
  const std::string ttft = a->ttft_ms.empty() ? "" : "time_to_first_token:p99<=" + a->ttft_ms + "ms";
  const std::string itl = a->itl_ms.empty() ? "" : "inter_token_latency:p99<=" + a->itl_ms + "ms";
  const std::string e2e = a->e2e_ms.empty() ? "" : "request_latency:p99<=" + a->e2e_ms + "ms";
  auto need = [&](const std::string& s, const char* knob) -> Status {
    if (s.empty())
      return make_error(ErrorCode::kInvalidArgument,
                        fmt::format("--search-recipe {} needs {}", a->recipe, knob));
    return {};
  };
  std::string slo, over;
  if (a->recipe == "max-throughput-ttft-sla") {
    if (auto st = need(ttft, "--ttft-sla-ms"); !st) return st;
    slo = ttft, over = "request-rate";
  } else if (a->recipe == "max-throughput-itl-sla") {
    if (auto st = need(itl, "--itl-sla-ms"); !st) return st;
    slo = itl, over = "request-rate";
  } else if (a->recipe == "max-concurrency-under-sla" || a->recipe == "max-goodput-under-slo" ||
             a->recipe == "concurrency-ramp") {
    for (const auto* part : {&ttft, &itl, &e2e})
      if (!part->empty()) slo += (slo.empty() ? "" : " ") + *part;
    if (auto st = need(slo + a->search_sla,
                       "--ttft-sla-ms, --itl-sla-ms, --e2e-sla-ms or --search-sla");
        !st)
      return st;
    over = "concurrency";
    if (a->recipe == "concurrency-ramp") a->options.bisect = false;
  } else {
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("--search-recipe '{}' is unknown; expected max-throughput-ttft-sla, "
                                  "max-throughput-itl-sla, max-concurrency-under-sla, "
                                  "max-goodput-under-slo or concurrency-ramp",
                                  a->recipe));
  }
  if (a->slo.empty()) a->slo = slo;
  if (a->over.empty()) a->over = over;
  return {};
}

struct Prober {
  const config::BenchmarkConfig& base;
  std::string root;
  std::string over;

  experiment::ProbeResult operator()(double load, int64_t trials, int64_t index) const {
    experiment::ProbeResult out;
    std::vector<experiment::Trial> done;
    const std::string dir =
        (fs::path(root) / fmt::format("probe_{:03d}_{}_{}", index, over, load)).string();
    for (int64_t t = 1; t <= trials; ++t) {
      if (core::interrupt_requested()) break;
      config::BenchmarkConfig c = base;
      if (over == "concurrency")
        c.concurrency = static_cast<int64_t>(load);
      else
        c.request_rate = load;
      c.artifact_dir = trials > 1 ? (fs::path(dir) / fmt::format("run_{:04d}", t)).string() : dir;
      c.experiment.artifact_dir_is_final = true;
      if (!c.random_seed) c.random_seed = 42;
      const app::RunResult r = app::run_benchmark(c);
      experiment::Trial tr;
      tr.label = fmt::format("run_{:04d}", t);
      tr.ok = r.error.empty() && (r.exit_code == 0 || r.exit_code == 1) && !r.interrupted;
      tr.error = r.error.empty() ? r.failure_reason : r.error;
      if (r.interrupted) out.interrupted = true;
      if (tr.ok) {
        auto m = experiment::read_run_metrics(
            (fs::path(r.artifact_dir) / exporter::artifact_names(c.profile_export_prefix).json)
                .string());
        if (m) tr.metrics = std::move(*m);
        else tr.ok = false, tr.error = m.error().message;
      }
      done.push_back(std::move(tr));
    }
    for (const auto& [k, s] : experiment::aggregate_trials(done, 0.95)) out.values[k] = s.mean;
    out.ok = !out.values.empty();
    for (const auto& t : done)
      if (!t.ok && out.error.empty()) out.error = t.error.empty() ? "run failed" : t.error;
    if (core::interrupt_requested()) out.interrupted = true;
    const std::string first_key = out.values.count("time_to_first_token_p99")
                                      ? "time_to_first_token_p99" : "request_latency_p99";
    say(fmt::format("probe {}: {} {} → {}", index, over, load,
                    out.ok ? fmt::format("{} {:.2f}, {:.2f} req/s", first_key,
                                         out.values[first_key], out.values["request_throughput_avg"])
                           : "failed: " + out.error));
    return out;
  }
};

std::string root_of(const config::BenchmarkConfig& c, const std::string& over) {
  auto spec = endpoints::find_spec(c.endpoint_type);
  const std::string part = spec ? std::string((*spec)->artifact_name) : c.endpoint_type;
  return (fs::path(c.artifact_dir) /
          exporter::artifact_dir_name(c.model(), part, c.streaming, "search_" + over))
      .string();
}

void print_curve(const std::vector<experiment::Slo>& slos, const experiment::SearchOutcome& r,
                 const std::string& over) {
  std::vector<const experiment::SearchStep*> by_load;
  for (const auto& s : r.steps) by_load.push_back(&s);
  std::sort(by_load.begin(), by_load.end(), [](auto* a, auto* b) { return a->load < b->load; });
  std::string head = fmt::format("{:>14} {:>6}", over, "SLOs");
  for (const auto& s : slos) head += fmt::format(" {:>26}", s.key);
  head += fmt::format(" {:>12}", "req/s");
  std::printf("%s\n", head.c_str());
  for (const auto* s : by_load) {
    std::string line = fmt::format("{:>14g} {:>6}", s->load, s->pass ? "pass" : "FAIL");
    for (const auto& slo : slos) {
      auto it = s->result.values.find(slo.key);
      line += it == s->result.values.end() ? fmt::format(" {:>26}", "-")
                                           : fmt::format(" {:>26.3f}", it->second);
    }
    auto rps = s->result.values.find("request_throughput_avg");
    line += rps == s->result.values.end() ? fmt::format(" {:>12}", "-")
                                          : fmt::format(" {:>12.2f}", rps->second);
    std::printf("%s\n", line.c_str());
  }
}

}  // namespace

SearchFlags search_flags_in(int argc, char** argv) {
  SearchFlags f;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const std::string name = a.substr(0, a.find('='));
    if (name == "--search-recipe" || name == "--search-sla") {
      f.requested = true;
      f.recipe = f.recipe || name == "--search-recipe";
    } else if (name == "--over") {
      f.over = true;
    } else if (f.knob.empty() && name.rfind("--", 0) == 0) {
      // A profile knob of the search (flags_search.cc), not one of `search`'s own spellings.
      const auto& n = search_flag_names();
      if (std::find(n.begin() + 7, n.end(), name) != n.end()) f.knob = name;
    }
  }
  return f;
}

int run_search(int argc, char** argv) {
  app::SignalWatcher watcher("servebench");
  auto args = split_args(argc, argv);
  if (!args) return usage(args.error().message);
  if (args->help) {
    std::fputs(kHelp, stdout);
    return 0;
  }
  if (auto st = apply_recipe(&*args); !st) return usage(st.error().message);
  if (!args->search_sla.empty())
    args->slo = args->slo.empty() ? args->search_sla : args->slo + " " + args->search_sla;
  if (args->over != "concurrency" && args->over != "request-rate")
    return usage("--over '" + args->over + "' is invalid; expected concurrency or request-rate");
  auto slos = experiment::parse_slos(args->slo);
  if (!slos) return usage(slos.error().message);
  SearchOptions& o = args->options;
  o.integer = args->over == "concurrency";
  if (o.resolution == 0) o.resolution = o.integer ? 1 : std::max(0.01, o.min / 4);
  if (o.max < o.min) return usage("--max must be >= --min");
  std::vector<std::string> rest = {"search"};
  rest.insert(rest.end(), args->rest.begin(), args->rest.end());
  std::vector<const char*> pargv;
  for (const auto& s : rest) pargv.push_back(s.c_str());
  auto parsed = config::parse_profile_args(static_cast<int>(pargv.size()), pargv.data());
  if (!parsed) return usage(parsed.error().message);
  if (!parsed->sweep.empty())
    return usage("--" + parsed->sweep.front().name + " has a list; search sets the load itself");
  config::BenchmarkConfig base = parsed->config;
  core::init_logging(0);
  base.ui = config::UiType::kNone;
  if (args->over == "request-rate") base.concurrency.reset();
  const std::string root = root_of(base, args->over);
  watcher.set_stage(app::Stage::kLoad);
  Prober prober{base, root, args->over};
  const auto outcome = experiment::run_search(*slos, o, std::cref(prober));
  std::error_code ec;
  fs::create_directories(root, ec);
  std::ofstream(fs::path(root) / "search_history.json")
      << experiment::search_history_json(*slos, o, args->over, outcome);
  print_curve(*slos, outcome, args->over);
  if (outcome.stop_reason == "interrupted") {
    say("interrupted; history in " + root + "/search_history.json");
    return 130;
  }
  if (!outcome.answer) {
    say("no load meets the SLOs (--min " + fmt::format("{:g}", o.min) + " fails); history in " +
        root + "/search_history.json");
    return 1;
  }
  double goodput = 0;
  for (const auto& s : outcome.steps)
    if (s.load == *outcome.answer && s.pass) {
      auto g = s.result.values.find("goodput_avg");
      if (g == s.result.values.end()) g = s.result.values.find("request_throughput_avg");
      if (g != s.result.values.end()) goodput = g->second;
    }
  std::printf("answer: %s %g meets every SLO (%s); the capacity lies in [%g, %s); "
              "throughput there %.2f req/s; %zu probes, stopped on %s\n",
              args->over.c_str(), *outcome.answer, args->slo.c_str(), *outcome.answer,
              outcome.first_fail ? fmt::format("{:g}", *outcome.first_fail).c_str() : "above --max",
              goodput, outcome.steps.size(), outcome.stop_reason.c_str());
  say("history in " + root + "/search_history.json");
  return 0;
}

}  // namespace servebench::cli
