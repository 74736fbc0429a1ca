// `servebench search`: the highest concurrency or request rate at which every SLO holds, the
// point that optimizes an objective, or a recipe's grid (experiment/search_plan.h expands the
// flags, experiment/planner.h runs the planner), each probe a benchmark with its own artifact
// folder, plus search_history.json and the recipe's artifact. Profile flags describe the
// workload; search flags are taken out first.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
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
#include "experiment/planner.h"
#include "experiment/pooled.h"
#include "experiment/recipe_post.h"
#include "experiment/search.h"
#include "experiment/search_plan.h"
#include "export/artifacts.h"

namespace servebench::cli {
namespace {

namespace fs = std::filesystem;

void say(const std::string& s) { std::fprintf(stderr, "servebench search: %s\n", s.c_str()); }

int usage(const std::string& s) {
  say(s);
  return 2;
}

constexpr const char* kHelp =
    "usage: servebench search --slo 'METRIC:STAT<=VALUE ...' --over concurrency|request-rate\n"
    "                         [--min N] [--max N] [--resolution N] [--budget PROBES]\n"
    "                         [--boundary-trials N] PROFILE-FLAGS...\n"
    "   or: servebench search --search-recipe NAME [recipe knobs] PROFILE-FLAGS...\n"
    "   or: servebench search --search-space PATH:LO,HI[:int|real] --search-metric TAG\n"
    "                         --search-direction maximize|minimize [--search-stat STAT]\n"
    "                         [--search-planner bayesian|smooth_isotonic|monotonic_sla]\n"
    "                         [--search-initial-points N] [--search-random-seed N] ...\n"
    "SLAs: --search-sla METRIC:STAT:OP:THRESHOLD, --ttft-sla-ms, --itl-sla-ms (--tpot-sla-ms),\n"
    "      --e2e-sla-ms, --error-rate-sla FRACTION, --slo-attainment-fraction F (per request),\n"
    "      --search-sla-tier [LABEL:]FILTER[,FILTER...] (2-10 tiers, one search each)\n"
    "recipes: max-throughput-ttft-sla, max-throughput-itl-sla, max-concurrency-under-sla\n"
    "         (--search-style monotonic|smooth_isotonic|bo|optuna|grid), max-goodput-under-slo,\n"
    "         concurrency-ramp (--degradation-threshold/-metric-tag/-stat, --concurrency-steps),\n"
    "         prefill-ttft-curve (--isl-min/-max/-steps), decode-itl-curve "
    "(--osl-min/-max/-steps),\n"
    "         pareto-sweep (--isl-osl-pairs 128/128,512/256 [--concurrency 1,4,16])\n"
    "AIPerf spellings: --concurrency-min/--concurrency-max (= --min/--max),\n"
    "                  --search-max-iterations (= --budget); `servebench profile` with\n"
    "                  --search-recipe, --search-sla or --search-space runs this search\n";

struct SearchArgs {
  experiment::PlanArgs plan;
  bool help = false;
  std::vector<std::string> rest;  // profile flags
};

// pareto-sweep takes --concurrency as a list of its own.
Status take_concurrency_list(SearchArgs* a) {
  for (size_t i = 0; i < a->rest.size(); ++i) {
    const std::string& r = a->rest[i];
    const bool eq = r.rfind("--concurrency=", 0) == 0;
    if (r != "--concurrency" && !eq) continue;
    if (!eq && i + 1 >= a->rest.size())
      return make_error(ErrorCode::kInvalidArgument, "--concurrency needs a value");
    const std::string v = eq ? r.substr(14) : a->rest[i + 1];
    a->rest.erase(a->rest.begin() + static_cast<long>(i),
                  a->rest.begin() + static_cast<long>(i + (eq ? 1 : 2)));
    std::stringstream in(v);
    std::string item;
    while (std::getline(in, item, ',')) {
      auto d = core::parse_double(item);
      if (!d || !(*d >= 1) || *d != std::floor(*d))
        return make_error(
            ErrorCode::kInvalidArgument,
            "--concurrency '" + v + "' is invalid; expected whole numbers >= 1, e.g. 1,4,16");
      a->plan.concurrency_list.push_back(*d);
    }
    return {};
  }
  return {};
}

Result<SearchArgs> split_args(int argc, char** argv) {
  SearchArgs a;
  a.plan.options.resolution = 0;  // 0 = the default for the axis
  const std::vector<std::string>& names = experiment::plan_flag_names();
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "-h" || arg == "--help") a.help = true;
    const size_t eq = arg.find('=');
    const std::string name = eq == std::string::npos ? arg : arg.substr(0, eq);
    if (std::find(names.begin(), names.end(), name) == names.end()) {
      a.rest.push_back(arg);
      continue;
    }
    std::string value;
    if (eq != std::string::npos)
      value = arg.substr(eq + 1);
    else if (i + 1 < argc)
      value = argv[++i];
    else
      return make_error(ErrorCode::kInvalidArgument, name + " needs a value");
    if (auto st = experiment::take_plan_flag(name, value, &a.plan); !st)
      return tl::unexpected(st.error());
  }
  if (a.plan.recipe == "pareto-sweep")
    if (auto st = take_concurrency_list(&a); !st) return tl::unexpected(st.error());
  return a;
}

struct Prober {
  const config::BenchmarkConfig& base;
  std::string root;
  const std::vector<experiment::Dimension>& dims;
  std::map<std::pair<experiment::Point, int64_t>, experiment::ProbeResult>*
      cache;                                    // tiers share probes
  const std::vector<std::string>& pooled_keys;  // recomputed over every trial's requests

  void pool(const std::vector<std::string>& jsonl, experiment::ProbeResult* out) const {
    for (const auto& key : pooled_keys) {
      const auto pk = experiment::percentile_key(key);
      auto v = experiment::pooled_percentile(jsonl, pk->tag, pk->q);
      if (!v) {
        out->ok = false;
        out->error = v.error().message;
      } else if (*v) {
        out->values[key] = **v;
      }
    }
  }

  std::string dir_name(const experiment::Point& p, int64_t index) const {
    std::string name = fmt::format("probe_{:03d}", index);
    for (size_t i = 0; i < dims.size(); ++i)
      if (dims.size() == 1 || dims[i].lo != dims[i].hi || dims[i].axis != "concurrency")
        name += fmt::format("_{}_{}", dims[i].axis, p[i]);
    return name;
  }

  config::BenchmarkConfig config_at(const experiment::Point& p) const {
    config::BenchmarkConfig c = base;
    for (size_t i = 0; i < dims.size(); ++i) {
      const std::string& axis = dims[i].axis;
      if (axis == "concurrency") c.concurrency = static_cast<int64_t>(p[i]);
      if (axis == "request-rate") c.request_rate = p[i];
      if (axis == "isl") c.isl_mean_tokens = p[i];
      if (axis == "osl") c.osl_mean_tokens = p[i];
    }
    if (!c.random_seed) c.random_seed = 42;
    c.experiment.artifact_dir_is_final = true;
    return c;
  }

  experiment::ProbeResult operator()(const experiment::Point& p, int64_t trials,
                                     int64_t index) const {
    if (auto hit = cache->find({p, trials}); hit != cache->end()) return hit->second;
    experiment::ProbeResult out;
    std::vector<experiment::Trial> done;
    std::vector<std::string> jsonl;
    const std::string dir = (fs::path(root) / dir_name(p, index)).string();
    for (int64_t t = 1; t <= trials; ++t) {
      if (core::interrupt_requested()) break;
      config::BenchmarkConfig c = config_at(p);
      c.artifact_dir = trials > 1 ? (fs::path(dir) / fmt::format("run_{:04d}", t)).string() : dir;
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
        if (m)
          tr.metrics = std::move(*m);
        else
          tr.ok = false, tr.error = m.error().message;
        const auto names = exporter::artifact_names(c.profile_export_prefix);
        if (tr.ok) jsonl.push_back((fs::path(r.artifact_dir) / names.jsonl).string());
      }
      done.push_back(std::move(tr));
    }
    for (const auto& [k, s] : experiment::aggregate_trials(done, 0.95)) out.values[k] = s.mean;
    out.ok = !out.values.empty();
    if (out.ok && !pooled_keys.empty()) pool(jsonl, &out);
    for (const auto& t : done)
      if (!t.ok && out.error.empty()) out.error = t.error.empty() ? "run failed" : t.error;
    if (core::interrupt_requested()) out.interrupted = true;
    const std::string first_key = out.values.count("time_to_first_token_p99")
                                      ? "time_to_first_token_p99"
                                      : "request_latency_p99";
    std::string where;
    for (size_t i = 0; i < dims.size(); ++i)
      where += fmt::format("{}{} {}", i ? ", " : "", dims[i].axis, p[i]);
    say(fmt::format("probe {}: {} → {}", index, where,
                    out.ok
                        ? fmt::format("{} {:.2f}, {:.2f} req/s", first_key, out.values[first_key],
                                      out.values["request_throughput_avg"])
                        : "failed: " + out.error));
    if (!out.interrupted) cache->emplace(std::make_pair(p, trials), out);
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
  const auto& n = experiment::plan_flag_names();
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const std::string name = a.substr(0, a.find('='));
    if (name == "--search-recipe" || name == "--search-sla" || name == "--search-space") {
      f.requested = true;
      // A recipe or a space names its own axis; --search-sla alone searches over concurrency.
      f.recipe = f.recipe || name != "--search-sla";
    } else if (name == "--over") {
      f.over = true;
    } else if (f.knob.empty() && name.rfind("--", 0) == 0) {
      // A profile knob of the search (flags_search.cc), not one of `search`'s own spellings.
      if (std::find(n.begin() + static_cast<long>(experiment::plan_own_flag_count()), n.end(),
                    name) != n.end())
        f.knob = name;
    }
  }
  return f;
}

namespace {

using Json = nlohmann::json;

Json history(const experiment::Plan& plan, const std::vector<experiment::Slo>& slos,
             const experiment::SearchOutcome& r) {
  Json h = Json::parse(experiment::search_history_json(slos, plan.spec.options, plan.over, r));
  h["search"]["planner"] = plan.planner;
  Json dims = Json::array();
  for (const auto& d : plan.spec.dims)
    dims.push_back({{"path", d.path},
                    {"axis", d.axis},
                    {"lo", d.lo},
                    {"hi", d.hi},
                    {"kind", d.integer ? "int" : "real"}});
  h["search"]["space"] = dims;
  if (plan.spec.objective)
    h["search"]["objective"] = {
        {"key", plan.spec.objective->key},
        {"direction", plan.spec.objective->maximize ? "maximize" : "minimize"}};
  if (!plan.goodput.empty()) h["search"]["per_request_slos"] = plan.goodput;
  if (plan.spec.seed) h["search"]["random_seed"] = *plan.spec.seed;
  return h;
}

void write_post(const experiment::Plan& plan, const experiment::SearchOutcome& r,
                const fs::path& root) {
  std::string text;
  if (plan.post == "degradation_knee") text = experiment::degradation_knee_json(r, plan.knee);
  if (plan.post == "prefill_curve") text = experiment::prefill_curve_json(r, 0);
  if (plan.post == "decode_itl_surface") text = experiment::decode_itl_surface_json(r, 0, 1);
  if (plan.post == "pareto_sweep") text = experiment::pareto_sweep_json(r, 0, 1, 2);
  if (plan.post == "sla_breach") text = experiment::sla_breach_json(plan.spec.slos, r, plan.over);
  if (text.empty()) return;
  std::ofstream(root / (plan.post + ".json")) << text;
  say(plan.post + ".json in " + root.string());
}

// Prints the curve and the answer; the exit status (0 answer, 1 none, 130 interrupted).
int report(const experiment::Plan& plan, const std::vector<experiment::Slo>& slos,
           const experiment::SearchOutcome& r, const std::string& label) {
  print_curve(slos, r, plan.over);
  if (r.stop_reason == "interrupted") return 130;
  const std::string tier = label.empty() ? "" : "tier " + label + ": ";
  if (plan.planner == "grid" && !plan.post.empty() && plan.post != "sla_breach") {
    size_t ok = 0;
    for (const auto& s : r.steps) ok += s.result.ok ? 1 : 0;
    std::printf("%sgrid of %zu points done (%zu ran), %s.json written\n", tier.c_str(),
                r.steps.size(), ok, plan.post.c_str());
    return ok > 0 ? 0 : 1;
  }
  if (!r.answer) {
    say(tier + "no point meets the SLOs");
    return 1;
  }
  const experiment::SearchStep* best = nullptr;
  for (const auto& s : r.steps)
    if (s.pass && (r.best ? s.index == *r.best : s.load == *r.answer)) best = &s;
  auto value = [&](const char* key) {
    if (!best) return 0.0;
    auto it = best->result.values.find(key);
    return it == best->result.values.end() ? 0.0 : it->second;
  };
  const double goodput =
      value("goodput_avg") > 0 ? value("goodput_avg") : value("request_throughput_avg");
  std::string what = fmt::format("meets every SLO ({})", plan.slo_text);
  if (plan.spec.objective && best && best->objective)
    what = fmt::format("is best by {} = {:.4g}{}", plan.spec.objective->key, *best->objective,
                       slos.empty() ? "" : " with every SLO met");
  std::printf(
      "%sanswer: %s %g %s; the capacity lies in [%g, %s); throughput there %.2f req/s; "
      "%zu probes, stopped on %s\n",
      tier.c_str(), plan.over.c_str(), *r.answer, what.c_str(), *r.answer,
      r.first_fail ? fmt::format("{:g}", *r.first_fail).c_str() : "above --max", goodput,
      r.steps.size(), r.stop_reason.c_str());
  return 0;
}

}  // namespace

int run_search(int argc, char** argv) {
  app::SignalWatcher watcher("servebench");
  auto args = split_args(argc, argv);
  if (!args) return usage(args.error().message);
  if (args->help) {
    std::fputs(kHelp, stdout);
    return 0;
  }
  auto plan = experiment::expand_plan(args->plan);
  if (!plan) return usage(plan.error().message);
  std::vector<std::string> rest = {"search"};
  rest.insert(rest.end(), args->rest.begin(), args->rest.end());
  std::vector<const char*> pargv;
  for (const auto& s : rest) pargv.push_back(s.c_str());
  auto parsed = config::parse_profile_args(static_cast<int>(pargv.size()), pargv.data());
  if (!parsed) return usage(parsed.error().message);
  if (!parsed->sweep.empty())
    return usage("--" + parsed->sweep.front().name + " has a list; search sets the load itself");
  for (const auto& n : args->plan.notes) say("note: " + n);
  config::BenchmarkConfig base = parsed->config;
  core::init_logging(0);
  base.ui = config::UiType::kNone;
  if (plan->over == "request-rate") base.concurrency.reset();
  if (!plan->goodput.empty()) base.goodput = plan->goodput;
  // AIPerf runs --num-profile-runs trials per search point; here the planners' repeated probes.
  if (base.experiment.num_profile_runs > 1 && plan->spec.options.boundary_trials == 1)
    plan->spec.options.boundary_trials = base.experiment.num_profile_runs;
  base.experiment.num_profile_runs = 1;
  const std::string root = root_of(base, plan->over);
  watcher.set_stage(app::Stage::kLoad);
  std::map<std::pair<experiment::Point, int64_t>, experiment::ProbeResult> cache;
  Prober prober{base, root, plan->spec.dims, &cache, plan->pooled_keys};
  const auto planner = experiment::make_planner(plan->planner);
  std::error_code ec;
  fs::create_directories(root, ec);
  if (plan->tiers.empty()) {
    const auto outcome = planner->run(plan->spec, std::cref(prober));
    std::ofstream(fs::path(root) / "search_history.json")
        << history(*plan, plan->spec.slos, outcome).dump(2) << "\n";
    write_post(*plan, outcome, root);
    const int rc = report(*plan, plan->spec.slos, outcome, "");
    say((rc == 130 ? "interrupted; history in " : "history in ") + root + "/search_history.json");
    return rc;
  }
  Json tiers = Json::array();
  int answered = 0, rc = 0;
  for (const auto& [label, slos] : plan->tiers) {
    experiment::PlanSpec spec = plan->spec;
    spec.slos = slos;
    const auto outcome = planner->run(spec, std::cref(prober));
    Json h = history(*plan, slos, outcome);
    h["tier"] = label;
    tiers.push_back(std::move(h));
    rc = report(*plan, slos, outcome, label);
    if (rc == 130) break;
    answered += rc == 0 ? 1 : 0;
  }
  std::ofstream(fs::path(root) / "search_history.json") << Json{{"tiers", tiers}}.dump(2) << "\n";
  say("history of " + std::to_string(tiers.size()) + " tiers in " + root + "/search_history.json");
  return rc == 130 ? 130 : answered > 0 ? 0 : 1;
}

}  // namespace servebench::cli
