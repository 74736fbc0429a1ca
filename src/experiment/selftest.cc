#include "experiment/selftest.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

namespace servebench::experiment {
namespace {

using Json = nlohmann::json;

double at(const std::vector<double>& sorted, double q) {
  const size_t i = static_cast<size_t>(std::ceil(q * static_cast<double>(sorted.size()))) ;
  return sorted[std::min(sorted.size() - 1, i == 0 ? 0 : i - 1)];
}

template <class F>
void each_line(const std::string& text, F f) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const Json j = Json::parse(line, nullptr, false);
    if (!j.is_discarded() && j.is_object()) f(j);
  }
}

Json pct_json(const Percentiles& p) {
  return {{"count", p.n}, {"p50_ms", p.p50}, {"p99_ms", p.p99}, {"p99_9_ms", p.p999},
          {"max_ms", p.max}};
}

std::string headroom_text(const SelftestReport& r) {
  if (r.headroom <= 0) return "unknown (no timed request)";
  return fmt::format("{:.1f}x: {:.1f} req/s kept {:.3f} of {} cores busy; the client's CPU would "
                     "saturate near {:.0f} req/s",
                     r.headroom, r.request_rate, r.client_cores, r.cores,
                     r.request_rate * r.headroom);
}

}  // namespace

Percentiles percentiles_ms(std::vector<double> v) {
  Percentiles p;
  p.n = static_cast<int64_t>(v.size());
  if (v.empty()) return p;
  std::sort(v.begin(), v.end());
  p.p50 = at(v, 0.5);
  p.p99 = at(v, 0.99);
  p.p999 = at(v, 0.999);
  p.max = v.back();
  return p;
}

SelftestReport analyze_selftest(const std::string& records_jsonl, const std::string& truth_jsonl,
                                int64_t cpu_ns, double lag_limit_ms, double error_limit_ms,
                                int cores) {
  SelftestReport r;
  r.cores = std::max(1, cores);
  double first_start = INFINITY, last_end = -INFINITY;
  // The mock's first-token write as wall time: its wall anchor at receipt plus the steady gap.
  std::map<std::string, double> first_token_wall_ns;
  each_line(truth_jsonl, [&](const Json& t) {
    if (t.contains("chunks") && t["chunks"].is_array())
      r.sse_events += static_cast<int64_t>(t["chunks"].size());
    if (!t.contains("x_request_id") || !t["x_request_id"].is_string()) return;
    const auto num = [&](const char* k) { return t.value(k, Json()).is_number() ? t[k].get<double>() : -1.0; };
    const double recv_wall = num("received_wall_ns");
    const double recv_steady = num("received_steady_ns");
    const double first = num("first_token_steady_ns");
    if (recv_wall > 0 && recv_steady > 0 && first > 0)
      first_token_wall_ns[t["x_request_id"].get<std::string>()] = recv_wall + (first - recv_steady);
  });
  std::vector<double> lag, err;
  each_line(records_jsonl, [&](const Json& rec) {
    if (!rec.contains("metadata")) return;
    const Json& m = rec["metadata"];
    ++r.requests;
    if (m.value("request_start_ns", Json()).is_number())
      first_start = std::min(first_start, m["request_start_ns"].get<double>());
    if (m.value("request_end_ns", Json()).is_number())
      last_end = std::max(last_end, m["request_end_ns"].get<double>());
    if (m.value("intended_ns", Json()).is_number() && m.value("request_start_ns", Json()).is_number())
      lag.push_back((m["request_start_ns"].get<double>() - m["intended_ns"].get<double>()) / 1e6);
    const auto id = m.value("x_request_id", std::string());
    auto it = first_token_wall_ns.find(id);
    if (it == first_token_wall_ns.end() || !rec.contains("metrics")) return;
    const Json& ttft = rec["metrics"].value("time_to_first_token", Json());
    if (!ttft.is_object() || !ttft.value("value", Json()).is_number()) return;
    const double client_first =
        m["request_start_ns"].get<double>() + ttft["value"].get<double>() * 1e6;
    err.push_back((client_first - it->second) / 1e6);
    ++r.matched;
  });
  r.schedule_lag = percentiles_ms(lag);
  r.ttft_error = percentiles_ms(err);
  if (r.requests > 0) r.cpu_us_per_request = static_cast<double>(cpu_ns) / 1e3 / r.requests;
  if (r.sse_events > 0) r.cpu_us_per_event = static_cast<double>(cpu_ns) / 1e3 / r.sse_events;
  if (last_end > first_start && r.requests > 0 && cpu_ns > 0) {
    r.request_rate = static_cast<double>(r.requests) / ((last_end - first_start) / 1e9);
    r.client_cores = r.request_rate * r.cpu_us_per_request / 1e6;
    r.headroom = r.cores / r.client_cores;
  }
  if (r.requests == 0 || r.matched == 0)
    r.verdict = "no request could be matched to the server's ground truth: no verdict";
  else if (r.schedule_lag.p99 > lag_limit_ms || r.ttft_error.p99 > error_limit_ms)
    r.verdict = fmt::format(
        "client-limited: this machine cannot drive this load cleanly (schedule lag p99 {:.3f} ms, "
        "first-token error p99 {:.3f} ms; limits {} / {} ms)",
        r.schedule_lag.p99, r.ttft_error.p99, lag_limit_ms, error_limit_ms);
  else
    r.verdict = fmt::format(
        "ok: this machine can drive this load with first-token timing error below {:.3f} ms "
        "(p99) and schedule lag below {:.3f} ms (p99){}",
        r.ttft_error.p99, r.schedule_lag.p99,
        r.headroom > 0 ? fmt::format(", with about {:.1f}x CPU headroom", r.headroom) : "");
  return r;
}

std::string selftest_text(const SelftestReport& r) {
  return fmt::format(
      "requests            {} ({} matched to the mock's ground truth)\n"
      "schedule lag        p50 {:.3f} ms  p99 {:.3f} ms  p99.9 {:.3f} ms  max {:.3f} ms\n"
      "first-token error   p50 {:.3f} ms  p99 {:.3f} ms  p99.9 {:.3f} ms  max {:.3f} ms\n"
      "client CPU          {:.1f} us per request, {:.2f} us per SSE event ({} events)\n"
      "headroom            {}\n"
      "verdict             {}\n",
      r.requests, r.matched, r.schedule_lag.p50, r.schedule_lag.p99, r.schedule_lag.p999,
      r.schedule_lag.max, r.ttft_error.p50, r.ttft_error.p99, r.ttft_error.p999, r.ttft_error.max,
      r.cpu_us_per_request, r.cpu_us_per_event, r.sse_events, headroom_text(r), r.verdict);
}

std::string selftest_json(const SelftestReport& r) {
  return Json{{"requests", r.requests},
              {"matched", r.matched},
              {"schedule_lag", pct_json(r.schedule_lag)},
              {"first_token_error", pct_json(r.ttft_error)},
              {"sse_events", r.sse_events},
              {"cpu_us_per_request", r.cpu_us_per_request},
              {"cpu_us_per_sse_event", r.cpu_us_per_event},
              {"request_rate", r.request_rate},
              {"client_cores", r.client_cores},
              {"cores", r.cores},
              {"headroom", r.headroom > 0 ? Json(r.headroom) : Json()},
              {"verdict", r.verdict}}
             .dump(2) +
         "\n";
}

}  // namespace servebench::experiment
