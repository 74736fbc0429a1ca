// The run's synthetic video options (media/synthetic_media.h) from its --video-* flags
// (flags_video.cc).
#pragma once

#include "config/benchmark_config.h"
#include "media/synthetic_media.h"

namespace servebench::config {

media::VideoOptions video_options(const BenchmarkConfig& c);

}  // namespace servebench::config
