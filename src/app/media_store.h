// Synthetic media of a synthetic-prompt workload, made before t0 with bounded memory:
//   - single-turn entries draw each entry's media as it is rendered (app/workload_assembly.h);
//     the bodies move to the file-backed body store past its threshold (app/body_spill.h);
//   - session turns render at send time, so their media must outlive set-up: past the body
//     store's threshold each turn's files go to the store as the turn is made
//     (core::MediaPart::stored_base64), and only views of them stay in memory
//     (app/workload_setup.cc);
//   - with --media-pool-size N, N media are made once (into the store) and every turn draws
//     from them (media/media_pool.h).
//   - media named by input files are kept once per file (or inline payload), in memory up to
//     the body store's threshold in total, then in the store (input_media_keeper): turns of
//     sessions, and single-turn entries until they are rendered, hold views of them.
// The draws follow the run's seed in the same order either way: the same seed gives the same
// bytes whether they live in memory or in the store.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "app/body_spill.h"
#include "app/workload_setup.h"
#include "config/benchmark_config.h"
#include "core/media_part.h"
#include "core/result.h"
#include "load/body_store.h"
#include "media/file_media.h"

namespace servebench::app {

using NextMedia = std::function<Result<std::vector<core::MediaPart>>()>;

// Moves each part's inline bytes (base64) to the store; parts already stored or passed by URL
// are left as they are.
Status store_media(load::BodyStore* store, std::vector<core::MediaPart>* parts);

// Where an input file's media payloads live (media::FileMediaResolver): out->kept_media until
// they pass body_store_threshold_bytes() in total, then out's store (opened then). `out` must
// outlive the keeper's calls; the views stay valid as the workload moves.
Result<media::MediaKeeper> input_media_keeper(PreparedWorkload* out);

// Each turn's media, in draw order: fresh media from the run's seed, or draws from the pool
// (--media-pool-size, built now into out's store). Images carry their uuid with
// --uuid-and-strip. REQUIRES: cfg.media_enabled().
Result<NextMedia> synthetic_media_source(const config::BenchmarkConfig& cfg, uint64_t seed, PreparedWorkload* out);

}  // namespace servebench::app
