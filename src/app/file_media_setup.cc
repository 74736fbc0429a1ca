#include "app/file_media_setup.h"

#include <fmt/format.h>

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
  return std::shared_ptr<const std::vector<core::MediaPart>>(std::move(parts));
}

}  // namespace servebench::app
