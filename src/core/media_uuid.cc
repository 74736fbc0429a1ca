#include "core/media_uuid.h"

#include "core/content_hash.h"

namespace servebench::core {

void stamp_image_uuids(std::vector<MediaPart>* parts) {
  for (MediaPart& p : *parts) {
    if (p.kind != MediaKind::kImage) continue;
    ContentHash h;
    h.field(p.mime).field(p.base64).field(p.url);
    p.uuid = "img-" + h.hex();
  }
}

void strip_seen_images(std::vector<MediaPart>* parts, std::unordered_set<std::string>* seen) {
  for (MediaPart& p : *parts) {
    if (p.kind != MediaKind::kImage || p.uuid.empty()) continue;
    if (seen->insert(p.uuid).second) continue;
    p.stripped = true;
    p.base64.clear();
    p.url.clear();
  }
}

}  // namespace servebench::core
