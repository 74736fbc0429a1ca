#include "media/media_pool.h"

namespace servebench::media {
namespace {

// `size` items of one kind: a generator whose options enable that kind alone, one turn of `size`
// (images are encoded on several threads that way).
Result<std::vector<core::MediaPart>> make_kind(MediaOptions only, uint64_t seed, const MediaPool::Keep& keep) {
  MediaGenerator gen(std::move(only), seed);
  auto parts = gen.next_turn();
  if (!parts) return parts;
  if (keep)
    for (auto& p : *parts)
      if (auto st = keep(&p); !st) return tl::unexpected(st.error());
  return parts;
}

}  // namespace

Result<MediaPool> MediaPool::build(const MediaOptions& options, uint64_t seed, int64_t size, const Keep& keep) {
  MediaPool pool;
  pool.options_ = options;
  pool.rng_.seed(seed ^ 0x706f6f6c5f763100ULL);
  const int n = static_cast<int>(size);
  const MediaOptions none = [&] {
    MediaOptions o = options;
    o.image.batch_size = o.audio.batch_size = o.video.batch_size = 0;
    return o;
  }();
  // One kind at a time: N items of it from the kind's own seed, the other kinds' batches at 0.
  auto fill = [&](bool on, int& (*batch_of)(MediaOptions&), uint64_t salt,
                  std::vector<core::MediaPart>* dst) -> Status {
    if (!on) return {};
    MediaOptions o = none;
    batch_of(o) = n;
    auto parts = make_kind(o, seed ^ salt, keep);
    if (!parts) return tl::unexpected(parts.error());
    *dst = std::move(*parts);
    return {};
  };
  Status st = fill(options.image.enabled(), [](MediaOptions& o) -> int& { return o.image.batch_size; }, 1,
                   &pool.images_);
  if (st) st = fill(options.audio.enabled(), [](MediaOptions& o) -> int& { return o.audio.batch_size; }, 2,
                    &pool.audio_);
  if (st) st = fill(options.video.enabled(), [](MediaOptions& o) -> int& { return o.video.batch_size; }, 3,
                    &pool.videos_);
  if (!st) return tl::unexpected(st.error());
  return pool;
}

void MediaPool::take(const std::vector<core::MediaPart>& kind, int batch, std::vector<core::MediaPart>* out) {
  if (kind.empty() || batch <= 0) return;
  const size_t start = static_cast<size_t>(rng_() % kind.size());
  for (int i = 0; i < batch; ++i) out->push_back(kind[(start + static_cast<size_t>(i)) % kind.size()]);
}

std::vector<core::MediaPart> MediaPool::next_turn() {
  std::vector<core::MediaPart> out;
  take(images_, options_.image.batch_size, &out);
  take(audio_, options_.audio.batch_size, &out);
  take(videos_, options_.video.batch_size, &out);
  return out;
}

}  // namespace servebench::media
