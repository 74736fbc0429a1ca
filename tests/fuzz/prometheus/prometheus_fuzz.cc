// Fuzz target for the Prometheus text / OpenMetrics parser: any bytes, in either format, must
// give families or a one-line error naming a line, never a crash; what parses must be
// consistent (every sample inside a family, names non-empty, no line break in an error).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "telemetry/prometheus_text.h"

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace servebench::telemetry::prom;
  std::string_view in(reinterpret_cast<const char*>(data), size);
  for (Format format : {Format::kPrometheusText, Format::kOpenMetrics}) {
    auto r = parse_exposition(in, format);
    if (!r) {
      check(r.error().message.rfind("line ", 0) == 0 || r.error().message.find("# EOF") != std::string::npos);
      check(r.error().message.find('\n') == std::string::npos);
      continue;
    }
    size_t samples = 0;
    for (const auto& f : *r) {
      check(!f.name.empty());
      for (const auto& s : f.samples) {
        check(!s.name.empty());
        check(s.name.compare(0, f.name.size(), f.name) == 0);
        ++samples;
      }
    }
    check(samples <= size);
  }
  return 0;
}
