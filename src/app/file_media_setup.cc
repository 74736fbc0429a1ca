#include "app/file_media_setup.h"

#include <fmt/format.h>

#include "core/media_uuid.h"
#include "endpoints/registry.h"

namespace servebench::app {

Result<std::shared_ptr<const std::vector<core::MediaPart>>> file_turn_media(
    const config::BenchmarkConfig& cfg, media::FileMediaResolver* resolver,
    const std::vector<dataset::FileMedia>& media) {
  if (media.empty()) return nullptr;
  auto spec = endpoints::find_spec(cfg.endpoint_type);
  if (!spec) return tl::unexpected(spec.error());
  for (const dataset::FileMedia& m : media)
    SB_TRY(endpoints::check_media_kind(**spec, m.kind,
                                       fmt::format("--input-file '{}':{}: field '{}'", cfg.input_file, m.line, m.field)));
  auto parts = std::make_shared<std::vector<core::MediaPart>>();
  parts->reserve(media.size());
  for (const dataset::FileMedia& m : media) {
    auto part = resolver->resolve(m);
    if (!part) return tl::unexpected(part.error());
    parts->push_back(std::move(*part));
  }
  if (cfg.uuid_and_strip) core::stamp_image_uuids(parts.get());
  return std::shared_ptr<const std::vector<core::MediaPart>>(std::move(parts));
}

bool workload_sends_media(const load::WorkerSettings& settings) {
  for (const auto& t : settings.requests)
    if (t.input_images > 0) return true;
  if (settings.sessions == nullptr) return false;
  for (const auto& c : settings.sessions->conversations)
    for (const auto& t : c.turns)
      if (t.media && !t.media->empty()) return true;
  return false;
}

}  // namespace servebench::app
