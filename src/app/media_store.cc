#include "app/media_store.h"

#include <memory>

#include "app/body_spill.h"
#include "app/media_setup.h"
#include "core/media_uuid.h"
#include "media/media_pool.h"
#include "media/synthetic_media.h"

namespace servebench::app {

Status store_media(load::BodyStore* store, std::vector<core::MediaPart>* parts) {
  for (core::MediaPart& p : *parts) {
    if (p.base64.empty()) continue;
    auto view = move_to_store(store, &p.base64);
    if (!view) return tl::unexpected(view.error());
    p.stored_base64 = *view;
  }
  return {};
}

Result<media::MediaKeeper> input_media_keeper(PreparedWorkload* out) {
  auto threshold = body_store_threshold_bytes();
  if (!threshold) return tl::unexpected(threshold.error());
  auto kept = std::make_shared<KeptBytes>(*threshold, &out->kept_media);
  return media::MediaKeeper([out, kept](std::string b64) { return kept->keep(std::move(b64), out); });
}

Result<NextMedia> synthetic_media_source(const config::BenchmarkConfig& cfg, uint64_t seed, PreparedWorkload* out) {
  const bool stamp = cfg.uuid_and_strip;
  if (cfg.media_pool_size <= 0) {
    auto gen = std::make_shared<media::MediaGenerator>(media_options(cfg), seed);
    return NextMedia([gen, stamp]() -> Result<std::vector<core::MediaPart>> {
      auto m = gen->next_turn();
      if (m && stamp) core::stamp_image_uuids(&*m);
      return m;
    });
  }
  auto store = workload_store(out);
  if (!store) return tl::unexpected(store.error());
  auto keep = [store = *store, stamp](core::MediaPart* p) -> Status {
    std::vector<core::MediaPart> one(1);
    one[0] = std::move(*p);
    if (stamp) core::stamp_image_uuids(&one);
    auto st = store_media(store, &one);
    *p = std::move(one[0]);
    return st;
  };
  auto pool = media::MediaPool::build(media_options(cfg), seed, cfg.media_pool_size, keep);
  if (!pool) return tl::unexpected(pool.error());
  auto shared = std::make_shared<media::MediaPool>(std::move(*pool));
  return NextMedia([shared]() -> Result<std::vector<core::MediaPart>> { return shared->next_turn(); });
}

}  // namespace servebench::app
