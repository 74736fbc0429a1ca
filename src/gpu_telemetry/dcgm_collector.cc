// DCGM exporter collector: scrapes an exporter's Prometheus text with the one control HTTP
// client and the Prometheus parser (telemetry/prometheus_text.h), keeps the DCGM_FI_* families
// of the field map and groups their samples by the exporter's GPU labels (gpu, UUID, device,
// modelName, Hostname, pci_bus_id).
#include <fmt/format.h>

#include <map>

#include "control/control_client.h"
#include "core/env.h"
#include "gpu_telemetry/gpu_collector.h"
#include "gpu_telemetry/gpu_metrics.h"
#include "gpu_telemetry/telemetry_session.h"
#include "telemetry/prometheus_text.h"

namespace servebench::gpu_telemetry {
namespace {

namespace prom = telemetry::prom;

constexpr int64_t kConnectTimeoutNs = 1'000'000'000;
constexpr int64_t kScrapeTimeoutNs = 5'000'000'000;

std::string label(const prom::Sample& s, std::string_view name) {
  for (const auto& [k, v] : s.labels)
    if (k == name) return v;
  return "";
}

// "http://node1:9401/metrics" → "node1:9401".
std::string endpoint_of(const std::string& url) {
  std::string_view rest = url;
  if (const size_t p = rest.find("://"); p != std::string_view::npos) rest.remove_prefix(p + 3);
  rest = rest.substr(0, rest.find_first_of("/?#"));
  if (const size_t at = rest.rfind('@'); at != std::string_view::npos) rest.remove_prefix(at + 1);
  return std::string(rest);
}

class DcgmCollector final : public GpuCollector {
 public:
  DcgmCollector(std::string url, std::vector<DcgmField> fields, int64_t reach_timeout_ns)
      : reach_timeout_ns_(reach_timeout_ns),
        url_(std::move(url)),
        shown_(core::redact_url_user_info(url_)),
        endpoint_(endpoint_of(shown_)),
        fields_(std::move(fields)) {}

  // Without user info: it lands in artifacts and logs.
  std::string source() const override { return shown_; }

  Status open() override {
    auto r = scrape(reach_timeout_ns_);
    if (!r) return tl::unexpected(r.error());
    if (r->empty())
      return make_error(ErrorCode::kUnsupported,
                        "no DCGM_FI_* metric in the answer: not a DCGM exporter");
    return {};
  }

  Result<std::vector<GpuReading>> collect() override { return scrape(kScrapeTimeoutNs); }

 private:
  Result<std::vector<GpuReading>> scrape(int64_t timeout_ns) {
    control::ControlRequest req;
    req.url = url_;
    req.timeout_ns = timeout_ns;
    req.connect_timeout_ns = kConnectTimeoutNs;
    req.max_body_bytes = int64_t{64} << 20;
    auto resp = client_.fetch(req);
    if (!resp) return tl::unexpected(resp.error());
    if (resp->http_status != 200)
      return make_error(ErrorCode::kNetwork, fmt::format("HTTP {}", resp->http_status));
    auto families = prom::parse_exposition(resp->body, prom::Format::kPrometheusText);
    if (!families) return tl::unexpected(families.error());
    return readings(*families);
  }

  std::vector<GpuReading> readings(const std::vector<prom::Family>& families) const {
    std::map<std::string, GpuReading> by_gpu;
    std::vector<std::string> order;
    for (const auto& fam : families) {
      const DcgmField* field = nullptr;
      for (const auto& f : fields_)
        if (f.field == fam.name) field = &f;
      if (field == nullptr) continue;
      for (const auto& s : fam.samples) {
        const std::string gpu = label(s, "gpu");
        const std::string uuid = label(s, "UUID");
        const std::string key = gpu + "|" + uuid;
        auto it = by_gpu.find(key);
        if (it == by_gpu.end()) {
          it = by_gpu.emplace(key, GpuReading{identity(s, gpu, uuid), {}}).first;
          order.push_back(key);
        }
        it->second.values.emplace_back(field->metric.tag, s.value * field->scale);
      }
    }
    std::vector<GpuReading> out;
    for (const auto& k : order) out.push_back(std::move(by_gpu[k]));
    return out;
  }

  GpuIdentity identity(const prom::Sample& s, const std::string& gpu,
                       const std::string& uuid) const {
    GpuIdentity id;
    id.source = shown_;
    id.endpoint = endpoint_;
    id.platform = "nvidia";
    id.index = gpu.empty() ? 0 : std::atoi(gpu.c_str());
    id.uuid = uuid.empty() ? fmt::format("{}-gpu{}", endpoint_, gpu) : uuid;
    id.name = label(s, "modelName");
    id.pci_bus_id = label(s, "pci_bus_id");
    id.device = label(s, "device");
    id.hostname = label(s, "Hostname");
    return id;
  }

  int64_t reach_timeout_ns_;
  std::string url_;
  std::string shown_;
  std::string endpoint_;
  std::vector<DcgmField> fields_;
  control::ControlClient client_;
};

}  // namespace

std::unique_ptr<GpuCollector> make_dcgm_collector(std::string url, std::vector<DcgmField> fields,
                                                  int64_t reachability_timeout_ns) {
  return std::make_unique<DcgmCollector>(std::move(url), std::move(fields),
                                         reachability_timeout_ns);
}

}  // namespace servebench::gpu_telemetry
