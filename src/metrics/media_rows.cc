#include "metrics/media_rows.h"

#include <cmath>

namespace servebench::metrics::media_rows {
namespace {

using F = RecordFacts;
using S = RecordMetric;

double images(const F& f) { return f.r->input_images > 0 ? f.r->input_images : NAN; }
double per_second(const F& f) {
  return f.r->input_images > 0 && f.end_ns != 0 && f.latency() > 0
             ? f.r->input_images / (f.latency() / 1e9)
             : NAN;
}
double ms_per_image(const F& f) {
  return f.r->input_images > 0 && f.end_ns != 0 ? f.latency() / 1e6 / f.r->input_images : NAN;
}
double inference_ns(const F& f) {
  return f.r->video_inference_s >= 0 ? f.r->video_inference_s * 1e9 : NAN;
}
double peak_mb(const F& f) {
  return f.r->video_peak_memory_mb >= 0 ? f.r->video_peak_memory_mb : NAN;
}

MetricInfo row(std::string_view tag, std::string_view header, std::string_view unit,
               double divisor, uint32_t flags, int order, S slot, RecordValueFn fn) {
  MetricInfo m{tag, header, unit, divisor, MetricKind::kRecord, flags, order};
  m.slot = slot;
  m.value = fn;
  return m;
}

}  // namespace

MetricInfo num_images() {
  return row("num_images", "Number of Images", "images", 1,
             kMediaOnly | kIntegerValued | kNoConsole, 0, S::kNumImages, images);
}
MetricInfo image_throughput(int order) {
  return row("image_throughput", "Image Throughput", "images/sec", 1,
             kMediaOnly | kLargerIsBetter, order, S::kImageThroughput, per_second);
}
MetricInfo image_latency(int order) {
  return row("image_latency", "Image Latency", "ms/image", 1, kMediaOnly, order,
             S::kImageLatency, ms_per_image);
}
MetricInfo video_inference_time(int order) {
  return row("video_inference_time", "Video Inference Time", "ms", 1e6, kProducesVideoOnly,
             order, S::kVideoInferenceTime, inference_ns);
}
MetricInfo video_peak_memory(int order) {
  return row("video_peak_memory", "Video Peak Memory", "MB", 1, kProducesVideoOnly, order,
             S::kVideoPeakMemory, peak_mb);
}

}  // namespace servebench::metrics::media_rows
