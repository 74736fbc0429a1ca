// The run's media options (media/synthetic_media.h) from its configuration's --image-*,
// --audio-* and --video-* flags.
#pragma once

#include "config/benchmark_config.h"
#include "media/synthetic_media.h"

namespace servebench::app {

media::MediaOptions media_options(const config::BenchmarkConfig& cfg);

}  // namespace servebench::app
