#include "core/media_uuid.h"

#include "core/content_hash.h"

namespace servebench::core {

void stamp_image_uuids(std::vector<MediaPart>* parts) {
  for (MediaPart& p : *parts) {
    if (p.kind != MediaKind::kImage) continue;
    ContentHash h;
    h.field(p.mime).field(p.b64()).field(p.url);
    p.uuid = "img-" + h.hex();
  }
}

void copy_stripping_seen_images(const std::vector<MediaPart>& parts, std::unordered_set<std::string>* seen,
                                std::vector<MediaPart>* out) {
  out->reserve(out->size() + parts.size());
  for (const MediaPart& p : parts) {
    if (p.kind != MediaKind::kImage || p.uuid.empty() || seen->insert(p.uuid).second) {
      out->push_back(p);
      continue;
    }
    MediaPart stub;
    stub.kind = p.kind;
    stub.mime = p.mime;
    stub.format = p.format;
    stub.uuid = p.uuid;
    stub.stripped = true;
    out->push_back(std::move(stub));
  }
}

}  // namespace servebench::core
