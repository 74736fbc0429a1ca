// The metric table's media rows (metric_info.cc; AIPerf's image and video record metrics,
// aiperf-inventory.md §5.2). Internal to src/metrics/.
//
//   num_images            input images of the request (RequestRecord::input_images); not in the
//                         console (AIPerf's console group NONE)
//   image_throughput      num_images / request_latency (images/sec)
//   image_latency         request_latency in ms / num_images (ms/image)
//   video_inference_time  the finished job's server-reported inference_time_s (shown in ms)
//   video_peak_memory     its server-reported peak_memory_mb (MB)
// Image rows need kCapMedia (types that take images), video rows kCapProducesVideo; a record
// without the value (no images, not reported) has none.
//
// Thread safety: pure functions.
#pragma once

#include "metrics/metric_info.h"

namespace servebench::metrics::media_rows {

MetricInfo num_images();
MetricInfo image_throughput(int order);
MetricInfo image_latency(int order);
MetricInfo video_inference_time(int order);
MetricInfo video_peak_memory(int order);

}  // namespace servebench::metrics::media_rows
