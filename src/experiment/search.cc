#include "experiment/search.h"

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/units.h"

namespace servebench::experiment {

Result<std::vector<Slo>> parse_slos(const std::string& text) {
  std::vector<Slo> out;
  std::istringstream in(text);
  std::string item;
  const auto bad = [](const std::string& it) {
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("--slo '{}' is invalid; expected METRIC:STAT<=VALUE such as "
                                  "time_to_first_token:p99<=500ms",
                                  it));
  };
  while (in >> item) {
    Slo s;
    s.text = item;
    const size_t colon = item.find(':');
    size_t op = item.find("<=");
    if (op == std::string::npos) {
      op = item.find(">=");
      s.at_most = false;
    }
    if (colon == std::string::npos || op == std::string::npos || op < colon + 2 || colon == 0)
      return bad(item);
    s.key = item.substr(0, colon) + "_" + item.substr(colon + 1, op - colon - 1);
    std::string v = item.substr(op + 2);
    double scale = 1;
    auto strip = [&v](const std::string& suffix) {
      if (v.size() > suffix.size() && v.compare(v.size() - suffix.size(), suffix.size(), suffix) == 0) {
        v.resize(v.size() - suffix.size());
        return true;
      }
      return false;
    };
    if (strip("ms"))
      scale = 1;
    else if (strip("us"))
      scale = 1e-3;
    else if (strip("s"))
      scale = 1e3;
    auto d = core::parse_double(v);
    if (!d || !std::isfinite(*d)) return bad(item);
    s.threshold = *d * scale;
    out.push_back(std::move(s));
  }
  if (out.empty())
    return make_error(ErrorCode::kInvalidArgument,
                      "--slo is empty; expected e.g. 'time_to_first_token:p99<=500ms'");
  return out;
}

std::vector<std::string> check_slos(const std::vector<Slo>& slos, const ProbeResult& r) {
  std::vector<std::string> out;
  if (!r.ok) {
    out.push_back("probe failed: " + r.error);
    return out;
  }
  for (const auto& s : slos) {
    auto it = r.values.find(s.key);
    if (it == r.values.end()) {
      out.push_back(s.key + " missing");
      continue;
    }
    const bool ok = s.at_most ? it->second <= s.threshold : it->second >= s.threshold;
    if (!ok)
      out.push_back(fmt::format("{} = {:.4g} {} {:.4g}", s.key, it->second, s.at_most ? ">" : "<",
                                s.threshold));
  }
  return out;
}

namespace {

struct Planner {
  const std::vector<Slo>& slos;
  const SearchOptions& o;
  const Probe& probe;
  SearchOutcome out;
  bool interrupted = false;

  bool over_budget() const { return static_cast<int64_t>(out.steps.size()) >= o.budget; }
  bool stopped() {
    if (interrupted) out.stop_reason = "interrupted";
    return interrupted;
  }

  bool step(double load, const char* phase, int64_t trials) {
    SearchStep s;
    s.index = static_cast<int64_t>(out.steps.size());
    s.load = load;
    s.phase = phase;
    s.trials = trials;
    s.result = probe(load, trials, s.index);
    s.violations = check_slos(slos, s.result);
    s.pass = s.violations.empty();
    if (s.result.interrupted) interrupted = true;
    out.steps.push_back(s);
    return s.pass;
  }

  double midpoint(double lo, double hi) const {
    double m = (lo + hi) / 2;
    if (o.integer) m = std::floor(m);
    return m;
  }

  void run() {
    double load = o.min;
    for (;;) {  // bracket: double until a failure or the maximum
      if (over_budget()) {
        out.stop_reason = "budget";
        return;
      }
      const bool pass = step(load, "bracket", 1);
      if (stopped()) return;
      if (!pass) {
        out.first_fail = load;
        break;
      }
      out.answer = load;
      if (load >= o.max) {
        out.stop_reason = "max reached";
        return;
      }
      load = std::min(load * 2, o.max);
    }
    if (!out.answer) {
      out.stop_reason = "min fails";
      return;
    }
    if (!o.bisect) {
      out.stop_reason = "bracketed";
      return;
    }
    while (*out.first_fail - *out.answer > o.resolution) {
      const double mid = midpoint(*out.answer, *out.first_fail);
      if (mid <= *out.answer || mid >= *out.first_fail) break;
      if (over_budget()) {
        out.stop_reason = "budget";
        return;
      }
      const bool pass = step(mid, "bisect", o.boundary_trials);
      if (stopped()) return;
      if (pass)
        out.answer = mid;
      else
        out.first_fail = mid;
    }
    out.stop_reason = "resolution";
  }
};

}  // namespace

SearchOutcome run_search(const std::vector<Slo>& slos, const SearchOptions& options,
                         const Probe& probe) {
  Planner p{slos, options, probe, {}};
  p.run();
  return p.out;
}

std::string search_history_json(const std::vector<Slo>& slos, const SearchOptions& o,
                                const std::string& over, const SearchOutcome& r) {
  using Json = nlohmann::json;
  Json s = Json::array();
  for (const auto& x : slos)
    s.push_back({{"slo", x.text}, {"key", x.key}, {"op", x.at_most ? "<=" : ">="},
                 {"threshold", x.threshold}});
  Json steps = Json::array();
  for (const auto& st : r.steps) {
    Json values = Json::object();
    for (const auto& [k, v] : st.result.values) values[k] = v;
    Json step = {{"index", st.index}, {"load", st.load}, {"phase", st.phase},
                 {"trials", st.trials}, {"pass", st.pass}, {"violations", st.violations},
                 {"error", st.result.error}, {"metrics", values}};
    if (st.point.size() > 1) step["point"] = st.point;
    if (st.objective) step["objective"] = *st.objective;
    steps.push_back(std::move(step));
  }
  Json result = {{"answer", r.answer ? Json(*r.answer) : Json(nullptr)},
                 {"first_fail", r.first_fail ? Json(*r.first_fail) : Json(nullptr)},
                 {"stop_reason", r.stop_reason},
                 {"probes", r.steps.size()},
                 {"best_index", r.best ? Json(*r.best) : Json(nullptr)}};
  Json opts = {{"over", over},         {"min", o.min},       {"max", o.max},
               {"resolution", o.resolution}, {"budget", o.budget},
               {"boundary_trials", o.boundary_trials}};
  return Json{{"search", opts}, {"slos", s}, {"result", result}, {"history", steps}}.dump(2) + "\n";
}

}  // namespace servebench::experiment
