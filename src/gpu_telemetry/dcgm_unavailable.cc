// Built when the Prometheus parser (src/telemetry/prometheus_text.h) is absent: DCGM endpoints
// are skipped with one info line; NVML and AMD SMI work as usual.
#include "gpu_telemetry/telemetry_session.h"

namespace servebench::gpu_telemetry {
namespace {

class DcgmUnavailable final : public GpuCollector {
 public:
  explicit DcgmUnavailable(std::string url) : url_(std::move(url)) {}
  std::string source() const override { return url_; }
  Status open() override {
    return make_error(ErrorCode::kUnsupported, "this build has no Prometheus parser");
  }
  Result<std::vector<GpuReading>> collect() override { return std::vector<GpuReading>{}; }

 private:
  std::string url_;
};

}  // namespace

std::unique_ptr<GpuCollector> make_dcgm_collector(std::string url, std::vector<DcgmField>) {
  return std::make_unique<DcgmUnavailable>(std::move(url));
}

}  // namespace servebench::gpu_telemetry
