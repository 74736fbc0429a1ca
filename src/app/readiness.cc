#include "app/readiness.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <thread>

#include "config/url.h"
#include "core/interrupt.h"

namespace servebench::app {
namespace {

constexpr int64_t kMaxProbeNs = 30'000'000'000;

const char* mode_name(config::WaitMode m) {
  switch (m) {
    case config::WaitMode::kModels: return "models";
    case config::WaitMode::kBoth: return "both";
    case config::WaitMode::kInference: break;
  }
  return "inference";
}

// "" when ready; else what the probe saw.
std::string probe_models(const ReadinessOptions& o, const std::string& base, int64_t timeout_ns,
                         const FetchFn& fetch) {
  control::ControlRequest rq;
  rq.url = config::join_url(base, "/v1/models");
  rq.headers = o.headers;
  rq.timeout_ns = timeout_ns;
  rq.verify_tls = o.verify_tls;
  rq.max_body_bytes = 16 << 20;
  auto r = fetch(rq);
  if (!r) return "GET /v1/models: " + r.error().message;
  if (r->http_status < 200 || r->http_status > 299)
    return fmt::format("GET /v1/models: HTTP {}", r->http_status);
  if (!models_list_has(r->body, o.model))
    return "GET /v1/models does not list model '" + o.model + "' yet";
  return "";
}

std::string probe_inference(const ReadinessOptions& o, const std::string& url, int64_t timeout_ns,
                            const FetchFn& fetch) {
  control::ControlRequest rq;
  rq.method = control::Method::kPost;
  rq.url = url;
  rq.headers = o.headers;
  rq.headers.push_back("Content-Type: application/json");
  rq.body = o.inference_body;
  rq.timeout_ns = timeout_ns;
  rq.verify_tls = o.verify_tls;
  rq.keep_body = false;
  auto r = fetch(rq);
  if (!r) return "1-token request: " + r.error().message;
  if (r->http_status < 200 || r->http_status > 299)
    return fmt::format("1-token request: HTTP {}", r->http_status);
  return "";
}

std::string probe(const ReadinessOptions& o, size_t i, int64_t timeout_ns, const FetchFn& fetch) {
  if (o.mode != config::WaitMode::kInference) {
    std::string m = probe_models(o, o.base_urls[i], timeout_ns, fetch);
    if (!m.empty() || o.mode == config::WaitMode::kModels) return m;
  }
  return probe_inference(o, o.endpoint_urls[i], timeout_ns, fetch);
}

}  // namespace

bool models_list_has(const std::string& body, const std::string& model) {
  auto doc = nlohmann::json::parse(body, nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("data") || !doc["data"].is_array())
    return false;
  for (const auto& m : doc["data"])
    if (m.is_object() && m.contains("id") && m["id"].is_string() && m["id"].get<std::string>() == model)
      return true;
  return false;
}

Result<ReadinessReport> wait_for_model(const ReadinessOptions& o, const core::Clock& clock,
                                       FetchFn fetch, WaitFn wait) {
  if (!fetch) fetch = [](const control::ControlRequest& rq) { return control::fetch_once(rq); };
  if (!wait) {
    wait = [](int64_t ns) {
      // Short sleeps so an interrupt stops the wait within 100 ms.
      for (int64_t left = ns; left > 0 && !core::interrupt_requested(); left -= 100'000'000)
        std::this_thread::sleep_for(std::chrono::nanoseconds(std::min<int64_t>(left, 100'000'000)));
    };
  }
  ReadinessReport report;
  const int64_t start = clock.now_ns();
  const int64_t deadline = start + o.timeout_ns;
  for (size_t i = 0; i < o.base_urls.size(); ++i) {
    report.attempts = 0;
    for (;;) {
      if (core::interrupt_requested())
        return make_error(ErrorCode::kInterrupted, "interrupted while waiting for the model");
      const int64_t now = clock.now_ns();
      const int64_t probe_ns = std::clamp<int64_t>(deadline - now, 1'000'000'000, kMaxProbeNs);
      ++report.attempts;
      const std::string seen = probe(o, i, probe_ns, fetch);
      if (seen.empty()) break;
      const int64_t after = clock.now_ns();
      if (after + o.interval_ns > deadline || after >= deadline)
        return make_error(
            ErrorCode::kTimeout,
            fmt::format("the server at {} was not ready within {:g} s (--wait-for-model-timeout, "
                        "mode {}; {} probe(s)); last probe: {}; check that the server is up and "
                        "serves -m {}, or raise the timeout",
                        o.base_urls[i], static_cast<double>(o.timeout_ns) / 1e9, mode_name(o.mode),
                        report.attempts, seen, o.model));
      wait(o.interval_ns);
    }
  }
  report.waited_ns = clock.now_ns() - start;
  return report;
}

}  // namespace servebench::app
