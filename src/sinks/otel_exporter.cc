#include "sinks/otel_exporter.h"

#include <fmt/format.h>

#include <chrono>

#include "control/control_client.h"
#include "core/secrets.h"

namespace servebench::sinks {
namespace {

// Bucket bounds advised by the GenAI semantic conventions (gen-ai-metrics.md).
const std::vector<double> kDurationBounds = {0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64,
                                             1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92};
const std::vector<double> kFirstChunkBounds = {0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1,
                                               0.25,  0.5,   0.75, 1.0,  2.5,  5.0,  7.5,  10.0};
const std::vector<double> kPerChunkBounds = {0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2,
                                             0.3,  0.4,   0.5,  0.75,  1.0, 2.5};
const std::vector<double> kTokenBounds = {1,      4,       16,      64,       256,      1024,
                                          4096,   16384,   65536,   262144,   1048576,  4194304,
                                          16777216, 67108864};

HistogramPoint make_point(const std::vector<double>& bounds, Attributes attrs) {
  HistogramPoint p;
  p.bounds = bounds;
  p.counts.assign(bounds.size() + 1, 0);
  p.attributes = std::move(attrs);
  return p;
}

Attributes with(Attributes a, std::string k, std::string v) {
  a.emplace_back(std::move(k), std::move(v));
  return a;
}

uint64_t unix_now_ns() {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                   std::chrono::system_clock::now().time_since_epoch())
                                   .count());
}

std::string metrics_url(const std::string& url) {
  const std::string suffix = "/v1/metrics";
  if (url.size() >= suffix.size() && url.compare(url.size() - suffix.size(), suffix.size(), suffix) == 0)
    return url;
  return (url.back() == '/' ? url.substr(0, url.size() - 1) : url) + suffix;
}

}  // namespace

OtelExporter::OtelExporter(OtelOptions options) : options_(std::move(options)) {
  endpoint_ = metrics_url(options_.url);
  base_attrs_ = {{"gen_ai.operation.name", options_.operation_name},
                 {"gen_ai.provider.name", options_.provider},
                 {"gen_ai.request.model", options_.model}};
  if (!options_.server_address.empty()) base_attrs_.emplace_back("server.address", options_.server_address);
  if (!options_.server_port.empty()) base_attrs_.emplace_back("server.port", options_.server_port);
  bool has_service = false;
  for (const auto& kv : options_.resource_attributes) {
    const size_t eq = kv.find('=');
    resource_.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
    has_service |= kv.compare(0, eq, "service.name") == 0;
  }
  if (!has_service) resource_.insert(resource_.begin(), {"service.name", "servebench"});
  duration_ok_ = make_point(kDurationBounds, base_attrs_);
  ttfc_ = make_point(kFirstChunkBounds, base_attrs_);
  tpoc_ = make_point(kPerChunkBounds, base_attrs_);
  input_tokens_ = make_point(kTokenBounds, with(base_attrs_, "gen_ai.token.type", "input"));
  output_tokens_ = make_point(kTokenBounds, with(base_attrs_, "gen_ai.token.type", "output"));
}

OtelExporter::~OtelExporter() { stop(); }

void OtelExporter::start(uint64_t start_unix_ns) {
  start_unix_ns_ = start_unix_ns != 0 ? start_unix_ns : unix_now_ns();
  thread_ = std::thread([this] { run(); });
}

void OtelExporter::add(const std::vector<record::RequestRecord>& batch) {
  Batch b;
  b.samples.reserve(batch.size());
  for (const record::RequestRecord& r : batch) {
    if (r.dropped() || r.phase != record::Phase::kProfiling) continue;
    Sample s;
    s.ok = r.ok();
    if (!s.ok) s.error_type = record::error_kind_name(r.error);
    if (r.end_ns > 0 && r.request_start_ns > 0) s.duration_s = (r.end_ns - r.request_start_ns) / 1e9;
    int64_t prev = 0;
    for (const record::Chunk& c : r.chunks) {
      if (!record::is_content_chunk(c.kind) || !s.ok || !r.streaming) continue;
      if (prev == 0) {
        s.ttfc_s = (c.recv_ns - r.request_start_ns) / 1e9;
      } else {
        b.chunk_gaps_s.push_back((c.recv_ns - prev) / 1e9);
      }
      prev = c.recv_ns;
    }
    s.input_tokens = r.input_tokens;
    s.output_tokens = r.output_tokens >= 0 ? r.output_tokens + std::max<int64_t>(0, r.reasoning_tokens)
                                           : -1;
    b.samples.push_back(std::move(s));
  }
  if (b.samples.empty()) return;
  std::lock_guard<std::mutex> lock(mu_);
  queued_records_ += b.samples.size();
  queue_.push_back(std::move(b));
  while (queued_records_ > options_.max_queued_records && queue_.size() > 1) {
    queued_records_ -= queue_.front().samples.size();
    dropped_records_ += static_cast<int64_t>(queue_.front().samples.size());
    queue_.pop_front();
  }
}

void OtelExporter::fold(Batch& b) {
  for (const Sample& s : b.samples) {
    if (s.ok) {
      ++completed_;
    } else {
      ++errors_;
    }
    if (!options_.genai_metrics) continue;
    if (s.duration_s >= 0) {
      if (s.ok) {
        duration_ok_.add(s.duration_s);
      } else {
        HistogramPoint* p = nullptr;
        for (auto& e : duration_errors_)
          if (e.attributes.back().second == s.error_type) p = &e;
        if (p == nullptr) {
          duration_errors_.push_back(make_point(kDurationBounds, with(base_attrs_, "error.type", s.error_type)));
          p = &duration_errors_.back();
        }
        p->add(s.duration_s);
      }
    }
    if (s.ttfc_s >= 0) ttfc_.add(s.ttfc_s);
    if (s.ok && s.input_tokens >= 0) input_tokens_.add(static_cast<double>(s.input_tokens));
    if (s.ok && s.output_tokens >= 0) output_tokens_.add(static_cast<double>(s.output_tokens));
  }
  if (options_.genai_metrics)
    for (double g : b.chunk_gaps_s) tpoc_.add(g);
}

MetricsExport OtelExporter::snapshot() const {
  MetricsExport e;
  e.resource = resource_;
  e.scope_version = options_.version;
  e.start_unix_ns = start_unix_ns_;
  e.time_unix_ns = unix_now_ns();
  if (options_.genai_metrics) {
    Metric d{"gen_ai.client.operation.duration", "GenAI operation duration", "s", true, {}, {}};
    d.histograms.push_back(duration_ok_);
    for (const auto& p : duration_errors_) d.histograms.push_back(p);
    e.metrics.push_back(std::move(d));
    e.metrics.push_back(Metric{"gen_ai.client.operation.time_to_first_chunk",
                               "Time to receive the first chunk of a streamed response", "s", true,
                               {ttfc_}, {}});
    e.metrics.push_back(Metric{"gen_ai.client.operation.time_per_output_chunk",
                               "Time between consecutive chunks of a streamed response", "s", true,
                               {tpoc_}, {}});
    e.metrics.push_back(Metric{"gen_ai.client.token.usage", "Number of input and output tokens used",
                               "{token}", true, {input_tokens_, output_tokens_}, {}});
  }
  if (options_.timing_counters) {
    e.metrics.push_back(Metric{"aiperf.timing.requests.completed", "Requests completed", "{request}",
                               false, {}, {SumPoint{base_attrs_, completed_ + errors_}}});
    e.metrics.push_back(Metric{"aiperf.timing.requests.errors", "Requests failed", "{request}", false,
                               {}, {SumPoint{base_attrs_, errors_}}});
  }
  return e;
}

void OtelExporter::export_now() {
  const MetricsExport e = snapshot();
  control::ControlRequest req;
  req.method = control::Method::kPost;
  req.url = endpoint_;
  req.body = options_.json ? encode_json(e) : encode_protobuf(e);
  req.headers = options_.headers;
  req.headers.push_back(options_.json ? "Content-Type: application/json"
                                      : "Content-Type: application/x-protobuf");
  req.timeout_ns = 5'000'000'000;
  req.keep_body = false;
  static thread_local control::ControlClient client;
  auto resp = client.fetch(req);
  if (resp && resp->http_status >= 200 && resp->http_status < 300) {
    ++exports_ok_;
    return;
  }
  ++exports_failed_;
  if (first_failure_.empty())
    first_failure_ = resp ? fmt::format("HTTP {}", resp->http_status) : resp.error().message;
}

void OtelExporter::run() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    cv_.wait_for(lock, std::chrono::nanoseconds(options_.interval_ns), [this] { return stopping_; });
    std::deque<Batch> work;
    work.swap(queue_);
    queued_records_ = 0;
    const bool last = stopping_;
    lock.unlock();
    for (Batch& b : work) fold(b);
    export_now();
    lock.lock();
    if (last) return;
  }
}

void OtelExporter::stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopping_) return;
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

std::vector<std::string> OtelExporter::warnings() const {
  std::vector<std::string> w;
  if (exports_failed_ > 0)
    w.push_back(core::secrets::scrub(fmt::format("--otel-url: {} of {} exports to {} failed (first: {})",
                                                 exports_failed_, exports_failed_ + exports_ok_,
                                                 endpoint_, first_failure_)));
  std::lock_guard<std::mutex> lock(mu_);
  if (dropped_records_ > 0)
    w.push_back(fmt::format("--otel-url: {} records were dropped from the export queue (full)",
                            dropped_records_));
  return w;
}

}  // namespace servebench::sinks
