// The media inputs of an input file's turns (`image`/`images`, `audio`/`audios`,
// `video`/`videos`), resolved before t0 (media/file_media.h) for the run's endpoint type: a kind
// the type does not take (endpoints::check_media_kind) is a one-line usage error naming the row.
//
// Thread safety: pure functions (the resolver is the caller's).
#pragma once

#include <memory>
#include <vector>

#include "config/benchmark_config.h"
#include "core/media_part.h"
#include "core/result.h"
#include "dataset/loaders/dataset_file.h"
#include "load/worker.h"
#include "media/file_media.h"

namespace servebench::app {

Result<std::shared_ptr<const std::vector<core::MediaPart>>> file_turn_media(
    const config::BenchmarkConfig& cfg, media::FileMediaResolver* resolver,
    const std::vector<dataset::FileMedia>& media);

// Whether the run sends media: a single-turn body with images, or a session turn with media
// (input files carry media without any --image-*/--audio-*/--video-* flag, so the media metric
// rows must not be turned off by the flags alone).
bool workload_sends_media(const load::WorkerSettings& settings);

}  // namespace servebench::app
