#include "telemetry/server_collector.h"

#include <chrono>
#include <cmath>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "control/control_client.h"
#include "core/interrupt.h"

namespace servebench::telemetry {
namespace {

bool starts_with(const std::string& s, std::string_view p) { return s.compare(0, p.size(), p) == 0; }

// What moves when the server finishes a request: histogram counts and request/token counters;
// the process collectors' counters (CPU seconds, GC) move on their own and are left out.
double completion_signature(const std::vector<prom::Family>& families) {
  double sum = 0;
  for (const auto& f : families) {
    if (starts_with(f.name, "process_") || starts_with(f.name, "python_") || starts_with(f.name, "go_"))
      continue;
    for (const auto& s : f.samples) {
      const bool count = f.type == prom::MetricType::kHistogram && s.name == f.name + "_count";
      const bool counter = f.type == prom::MetricType::kCounter && s.name.find("_created") == std::string::npos;
      if ((count || counter) && std::isfinite(s.value)) sum += s.value;
    }
  }
  return sum;
}

// A body that is JSON or HTML is not an exposition even if it happened to parse.
bool looks_like_prometheus(const ScrapeAnswer& a) {
  for (const char* other : {"json", "html", "event-stream"}) {
    if (a.content_type.find(other) != std::string::npos) return false;
  }
  return true;
}

// Worth asking /prometheus/metrics after this answer: an error status, or JSON/HTML (TRT-LLM
// answers /metrics with JSON). Not after a timeout or a refused connection, nor after a body
// that merely failed to parse.
bool worth_fallback(const ScrapeAnswer& a) {
  return a.http_status != 200 || a.content_type.find("json") != std::string::npos ||
         a.content_type.find("html") != std::string::npos;
}

nlohmann::json snapshot_metrics(const std::vector<prom::Family>& families) {
  nlohmann::json metrics = nlohmann::json::object();
  for (const auto& f : families) {
    nlohmann::json samples = nlohmann::json::array();
    if (f.type == prom::MetricType::kHistogram || f.type == prom::MetricType::kSummary) {
      // One entry per label set: buckets (or quantiles), sum and count together.
      std::map<std::string, nlohmann::json> by_labels;
      for (const auto& s : f.samples) {
        Labels labels;
        std::string special;
        for (const auto& kv : s.labels) {
          if (kv.first == "le" || kv.first == "quantile") {
            special = kv.second;
          } else {
            labels.push_back(kv);
          }
        }
        nlohmann::json& e = by_labels[labels_text(labels)];
        if (!labels.empty() && !e.contains("labels")) {
          for (const auto& [k, v] : labels) e["labels"][k] = v;
        }
        const char* kind = f.type == prom::MetricType::kHistogram ? "histogram" : "summary";
        if (s.name == f.name + "_sum") {
          e["sum"] = s.value;
        } else if (s.name == f.name + "_count") {
          e["count"] = s.value;
        } else if (!special.empty()) {
          e[kind][special] = s.value;
        }
      }
      for (auto& [k, e] : by_labels) samples.push_back(std::move(e));
    } else {
      for (const auto& s : f.samples) {
        nlohmann::json e;
        for (const auto& [k, v] : s.labels) e["labels"][k] = v;
        e["value"] = s.value;
        samples.push_back(std::move(e));
      }
    }
    metrics[f.name] = std::move(samples);
  }
  return metrics;
}

}  // namespace

ServerMetricsCollector::ServerMetricsCollector(CollectorOptions options, const core::Clock& clock,
                                               ScrapeFetch fetch)
    : options_(std::move(options)), clock_(clock), fetch_(std::move(fetch)) {
  for (const auto& url : options_.urls) {
    facts_.push_back(EndpointFacts{redact_url(url), false, 0, 0, 0, 0, 0, "", url, false});
    store_index_.push_back(store_.add_endpoint(facts_.back().url));
    signature_.push_back(0);
  }
}

ServerMetricsCollector::~ServerMetricsCollector() { stop(); }

bool ServerMetricsCollector::scrape(size_t i, int64_t timeout_ns, std::string* why) {
  EndpointFacts& f = facts_[i];
  const int64_t sent = clock_.now_ns();
  auto answer = fetch_(f.fetch_url, timeout_ns);
  const int64_t done = clock_.now_ns();
  ++f.fetches;
  f.answered = answer.has_value() && worth_fallback(*answer);
  if (!answer) {
    *why = answer.error().message;
  } else if (answer->http_status != 200) {
    *why = fmt::format("HTTP {}", answer->http_status);
  } else if (!looks_like_prometheus(*answer)) {
    *why = fmt::format("not Prometheus text (Content-Type {})", answer->content_type);
  } else {
    auto families =
        prom::parse_exposition(answer->body, prom::format_from_content_type(answer->content_type));
    if (!families) {
      *why = "not Prometheus text: " + families.error().message;
    } else if (families->empty()) {
      *why = "no metrics in the answer";
    } else {
      store_.add_scrape(store_index_[i], done, *families);
      signature_[i] = completion_signature(*families);
      if (f.first_ns == 0) f.first_ns = done;
      f.last_ns = done;
      f.latency_sum_ns += done - sent;
      if (jsonl_) write_snapshot(i, sent, done, *families);
      return true;
    }
  }
  ++f.errors;
  f.last_error = *why;
  return false;
}

std::vector<std::string> ServerMetricsCollector::start() {
  std::vector<std::string> warnings;
  if (!options_.jsonl_path.empty()) {
    jsonl_.reset(std::fopen(options_.jsonl_path.c_str(), "wb"));
    if (!jsonl_) write_error_ = "cannot create " + options_.jsonl_path;
  }
  for (size_t i = 0; i < facts_.size(); ++i) {
    std::string why;
    if (scrape(i, options_.probe_timeout_ns, &why)) {
      facts_[i].live = true;
      continue;
    }
    EndpointFacts& f = facts_[i];
    const std::string first_url = f.url, first_fetch_url = f.fetch_url;
    // The sibling only when the server answered with an error or JSON/HTML (TRT-LLM: JSON at
    // /metrics); a server that does not answer at all is not asked twice.
    const std::string alt = f.answered ? prometheus_fallback_url(first_fetch_url) : "";
    std::string alt_why;
    if (!alt.empty()) {
      f.fetch_url = alt;
      f.url = redact_url(alt);
      if (scrape(i, options_.probe_timeout_ns, &alt_why)) {
        f.live = true;
        continue;
      }
      f.url = first_url;
      f.fetch_url = first_fetch_url;
    }
    warnings.push_back(fmt::format("server metrics: {} skipped ({}{}); the run goes on without it", first_url,
                                   why, alt.empty() ? "" : "; " + redact_url(alt) + ": " + alt_why));
  }
  thread_ = std::thread([this] { loop(); });
  return warnings;
}

void ServerMetricsCollector::loop() {
  using std::chrono::nanoseconds;
  auto next = std::chrono::steady_clock::now();
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    next += nanoseconds(options_.interval_ns);
    const auto now = std::chrono::steady_clock::now();
    if (next < now) next = now;  // a slow endpoint: skip the missed ticks
    cv_.wait_until(lock, next, [this] { return stopping_ || wake_; });
    if (stopping_) break;
    if (wake_) next = std::chrono::steady_clock::now();  // the ticks restart from this scrape
    wake_ = false;
    lock.unlock();
    for (size_t i = 0; i < facts_.size(); ++i) {
      std::string why;
      if (facts_[i].live) scrape(i, options_.scrape_timeout_ns, &why);
    }
    lock.lock();
  }
}

void ServerMetricsCollector::scrape_soon() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    wake_ = true;
  }
  cv_.notify_all();
}

void ServerMetricsCollector::join_thread() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void ServerMetricsCollector::stop() {
  if (!thread_.joinable()) return;
  join_thread();
  for (size_t i = 0; i < facts_.size(); ++i) {
    std::string why;
    if (facts_[i].live) scrape(i, options_.scrape_timeout_ns, &why);  // the end state
  }
  close_jsonl();
}

void ServerMetricsCollector::stop_when_settled(int64_t deadline_ns, int64_t poll_ns) {
  if (!thread_.joinable()) return;
  join_thread();
  bool any_live = false;
  for (const auto& f : facts_) any_live = any_live || f.live;
  std::vector<double> before;
  if (!any_live) deadline_ns = 0;  // nothing to wait for
  for (int round = 0;; ++round) {
    bool settled = round > 0;
    for (size_t i = 0; i < facts_.size(); ++i) {
      if (!facts_[i].live) continue;
      std::string why;
      const bool ok = scrape(i, options_.scrape_timeout_ns, &why);
      if (!ok || (round > 0 && signature_[i] != before[i])) settled = false;
    }
    // Ctrl-C: the run is being cut short; what was scraped is what there is.
    if (settled || clock_.now_ns() + poll_ns > deadline_ns || core::interrupt_requested()) break;
    before = signature_;
    std::this_thread::sleep_for(std::chrono::nanoseconds(poll_ns));
  }
  close_jsonl();
}

void ServerMetricsCollector::close_jsonl() {
  if (jsonl_ && std::fflush(jsonl_.get()) != 0 && write_error_.empty())
    write_error_ = "cannot write " + options_.jsonl_path;
  jsonl_.reset();
}

void ServerMetricsCollector::write_snapshot(size_t i, int64_t sent_ns, int64_t done_ns,
                                            const std::vector<prom::Family>& families) {
  nlohmann::json line;
  line["endpoint_url"] = facts_[i].url;
  line["timestamp_ns"] = options_.anchor.to_wall_ns(done_ns);
  line["endpoint_latency_ns"] = done_ns - sent_ns;
  line["request_sent_ns"] = options_.anchor.to_wall_ns(sent_ns);
  line["metrics"] = snapshot_metrics(families);
  std::string text = line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  text += '\n';
  if (std::fwrite(text.data(), 1, text.size(), jsonl_.get()) != text.size() && write_error_.empty())
    write_error_ = "cannot write " + options_.jsonl_path;
}

std::string normalize_metrics_url(const std::string& text) {
  std::string url = text;
  if (!starts_with(url, "http://") && !starts_with(url, "https://")) url = "http://" + url;
  const size_t host_start = url.find("//") + 2;
  const size_t path = url.find_first_of("/?#", host_start);
  if (path == std::string::npos) return url + "/metrics";
  if (url[path] == '/' && path + 1 == url.size()) return url + "metrics";
  return url;
}

std::string redact_url(const std::string& url) {
  const size_t scheme = url.find("://");
  const size_t host = scheme == std::string::npos ? 0 : scheme + 3;
  const size_t end = url.find_first_of("/?#", host);
  const size_t at = url.rfind('@', end == std::string::npos ? url.size() : end);
  std::string out = url;
  if (at != std::string::npos && at >= host) out.erase(host, at + 1 - host);
  if (size_t q = out.find('?', host); q != std::string::npos) out.resize(q);
  return out;
}

std::string prometheus_fallback_url(const std::string& url) {
  static constexpr std::string_view kSuffix = "/metrics";
  if (url.size() < kSuffix.size() || url.compare(url.size() - kSuffix.size(), kSuffix.size(), kSuffix) != 0)
    return "";
  if (url.size() >= 19 && url.compare(url.size() - 19, 19, "/prometheus/metrics") == 0) return "";
  return url.substr(0, url.size() - kSuffix.size()) + "/prometheus/metrics";
}

ScrapeFetch control_fetch(bool verify_tls) {
  auto clients = std::make_shared<std::map<std::string, std::unique_ptr<control::ControlClient>>>();
  return [clients, verify_tls](const std::string& url, int64_t timeout_ns) -> Result<ScrapeAnswer> {
    auto& client = (*clients)[url];
    if (!client) client = std::make_unique<control::ControlClient>();
    control::ControlRequest req;
    req.url = url;
    req.timeout_ns = timeout_ns;
    req.verify_tls = verify_tls;
    req.headers = {"Accept: text/plain;version=0.0.4;q=0.9, */*;q=0.1"};
    req.max_body_bytes = int64_t{64} << 20;
    SB_TRY_ASSIGN(auto resp, client->fetch(req));
    return ScrapeAnswer{resp.http_status, resp.header("content-type"), std::move(resp.body)};
  };
}

}  // namespace servebench::telemetry
