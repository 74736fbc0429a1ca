#include "endpoints/media_parts.h"

#include "core/json_text.h"

namespace servebench::endpoints {
namespace {

// The separators of a JSON list written part by part.
struct PartList {
  std::string* out;
  bool first = true;
  void next() {
    if (!first) out->push_back(',');
    first = false;
  }
};

void append_audio_part(const core::MediaPart& m, std::string* out) {
  out->append("{\"type\":\"input_audio\",\"input_audio\":{\"data\":");
  core::append_json_string(m.url.empty() ? m.b64() : std::string_view(m.url), out);
  out->append(",\"format\":");
  core::append_json_string(m.format, out);
  out->append("}}");
}

// {"type":"image_url","image_url":{"url":...}}, with vLLM's "uuid" when the part has one, and
// "image_url": null for a stripped part.
void append_image_url_part(const core::MediaPart& m, std::string* out) {
  out->append("{\"type\":\"image_url\",\"image_url\":");
  if (m.stripped) {
    out->append("null");
  } else {
    out->append("{\"url\":");
    core::append_json_string(m.data_url(), out);
    out->push_back('}');
  }
  if (!m.uuid.empty()) {
    out->append(",\"uuid\":");
    core::append_json_string(m.uuid, out);
  }
  out->push_back('}');
}

}  // namespace

void append_openai_content_parts(std::string_view text, const std::vector<core::MediaPart>& media,
                                 std::string* out) {
  PartList parts{out};
  out->push_back('[');
  if (!text.empty()) {
    parts.next();
    out->append("{\"type\":\"text\",\"text\":");
    core::append_json_string(text, out);
    out->push_back('}');
  }
  for (const core::MediaPart& m : media) {
    parts.next();
    switch (m.kind) {
      case core::MediaKind::kImage:
        append_image_url_part(m, out);
        break;
      case core::MediaKind::kAudio:
        append_audio_part(m, out);
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

void append_responses_content_parts(std::string_view text, const std::vector<core::MediaPart>& media,
                                    std::string* out) {
  PartList parts{out};
  out->push_back('[');
  if (!text.empty()) {
    parts.next();
    out->append("{\"type\":\"input_text\",\"text\":");
    core::append_json_string(text, out);
    out->push_back('}');
  }
  for (const core::MediaPart& m : media) {
    if (m.kind == core::MediaKind::kVideo) continue;  // refused before t0 (registry)
    parts.next();
    if (m.kind == core::MediaKind::kAudio) {
      append_audio_part(m, out);
      continue;
    }
    out->append("{\"type\":\"input_image\",\"image_url\":");
    core::append_json_string(m.data_url(), out);
    out->push_back('}');
  }
  out->push_back(']');
}

void append_anthropic_content_parts(std::string_view text, const std::vector<core::MediaPart>& media,
                                    std::string* out) {
  PartList parts{out};
  out->push_back('[');
  if (!text.empty()) {
    parts.next();
    out->append("{\"type\":\"text\",\"text\":");
    core::append_json_string(text, out);
    out->push_back('}');
  }
  for (const core::MediaPart& m : media) {
    if (m.kind != core::MediaKind::kImage) continue;  // refused before t0 (registry)
    parts.next();
    if (!m.url.empty()) {
      out->append("{\"type\":\"image\",\"source\":{\"type\":\"url\",\"url\":");
      core::append_json_string(m.url, out);
      out->append("}}");
      continue;
    }
    out->append("{\"type\":\"image\",\"source\":{\"type\":\"base64\",\"media_type\":");
    core::append_json_string(m.mime.empty() ? "image/png" : m.mime, out);
    out->append(",\"data\":");
    core::append_json_string(m.b64(), out);
    out->append("}}");
  }
  out->push_back(']');
}

void append_nim_embedding_inputs(const std::vector<std::string_view>& texts,
                                 const std::vector<core::MediaPart>& media, std::string* out) {
  std::vector<const core::MediaPart*> images;
  for (const core::MediaPart& m : media)
    if (m.kind == core::MediaKind::kImage) images.push_back(&m);
  PartList parts{out};
  auto img = [&](const core::MediaPart& m, std::string_view text) {
    std::string s(text);
    if (!s.empty()) s.push_back(' ');
    s.append("<img src='").append(m.data_url()).append("'/>");
    core::append_json_string(s, out);
  };
  const bool paired = !texts.empty() && texts.size() == images.size();
  for (size_t i = 0; i < texts.size(); ++i) {
    parts.next();
    if (paired) {
      img(*images[i], texts[i]);
    } else {
      core::append_json_string(texts[i], out);
    }
  }
  if (paired) return;
  for (const core::MediaPart* m : images) {
    parts.next();
    img(*m, {});
  }
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
