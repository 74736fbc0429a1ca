#include "endpoints/media_parts.h"

#include "core/json_text.h"

namespace servebench::endpoints {

void append_openai_content_parts(std::string_view text, const std::vector<core::MediaPart>& media,
                                 std::string* out) {
  out->push_back('[');
  bool first = true;
  auto next = [&] {
    if (!first) out->push_back(',');
    first = false;
  };
  if (!text.empty()) {
    next();
    out->append("{\"type\":\"text\",\"text\":");
    core::append_json_string(text, out);
    out->push_back('}');
  }
  for (const core::MediaPart& m : media) {
    next();
    switch (m.kind) {
      case core::MediaKind::kImage:
        out->append("{\"type\":\"image_url\",\"image_url\":{\"url\":");
        core::append_json_string(m.data_url(), out);
        out->append("}}");
        break;
      case core::MediaKind::kAudio:
        out->append("{\"type\":\"input_audio\",\"input_audio\":{\"data\":");
        core::append_json_string(m.url.empty() ? m.base64 : m.url, out);
        out->append(",\"format\":");
        core::append_json_string(m.format, out);
        out->append("}}");
        break;
      case core::MediaKind::kVideo:
        out->append("{\"type\":\"video_url\",\"video_url\":{\"url\":");
        core::append_json_string(m.data_url(), out);
        out->append("}}");
        break;
    }
  }
  out->push_back(']');
}

MediaCounts count_media(const std::vector<core::MediaPart>& media) {
  MediaCounts c;
  for (const auto& m : media) {
    if (m.kind == core::MediaKind::kImage) ++c.images;
    if (m.kind == core::MediaKind::kAudio) ++c.audios;
    if (m.kind == core::MediaKind::kVideo) ++c.videos;
  }
  return c;
}

}  // namespace servebench::endpoints
