// A pool of distinct synthetic media reused across requests (--media-pool-size N, a servebench
// flag): N images, N audio clips and N videos (each kind the options enable) are made before t0
// from the run's seed, and every turn takes its media from the pool instead of new ones. Memory
// and preparation time are then bounded by N whatever the request count; servers see repeats
// (a server-side media cache can hit), which is why it is opt-in.
//
// A turn takes --image-batch-size consecutive pool images from a random start (distinct within
// the turn while N >= the batch size), and likewise audio clips and videos; the draws come from
// the run's seed, so the same seed gives the same turns.
//
// Thread safety: a MediaPool is used by one thread.
#pragma once

#include <cstdint>
#include <functional>
#include <random>
#include <vector>

#include "core/media_part.h"
#include "core/result.h"
#include "media/synthetic_media.h"

namespace servebench::media {

class MediaPool {
 public:
  // Called once per pool item after it is made, e.g. to move its bytes to a file-backed store
  // (core::MediaPart::stored_base64), so a turn's copies of it copy no bytes. May be null.
  using Keep = std::function<Status(core::MediaPart*)>;
  static Result<MediaPool> build(const MediaOptions& options, uint64_t seed, int64_t size, const Keep& keep);

  // The media of one turn: images, then audio clips, then videos (as MediaGenerator::next_turn).
  std::vector<core::MediaPart> next_turn();
  const std::vector<core::MediaPart>& images() const { return images_; }
  const std::vector<core::MediaPart>& audio() const { return audio_; }
  const std::vector<core::MediaPart>& videos() const { return videos_; }

 private:
  void take(const std::vector<core::MediaPart>& kind, int batch, std::vector<core::MediaPart>* out);

  MediaOptions options_;
  std::mt19937_64 rng_;
  std::vector<core::MediaPart> images_, audio_, videos_;
};

}  // namespace servebench::media
