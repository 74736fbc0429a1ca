// One media input of a request (an image, an audio clip or a video), as the endpoint renders it:
// the payload already encoded (base64 of the file's bytes) or a URL passed through. Built before
// t0 (src/media/), read by the endpoints' renderers (src/endpoints/).
#pragma once

#include <string>
#include <string_view>

namespace servebench::core {

enum class MediaKind { kImage, kAudio, kVideo };

struct MediaPart {
  MediaKind kind = MediaKind::kImage;
  std::string mime;    // "image/png", "audio/wav", "video/webm"
  std::string format;  // file format: "png", "jpeg", "wav", "mp3", "webm", "mp4"
  std::string base64;  // the encoded file; empty when `url` is set or the bytes are stored
  // The encoded file when it lives outside the part, in the run's file-backed store (media
  // pool, session media: app/media_store.h), valid for the store's lifetime; copies of the part
  // then cost no copy of the file. Read the file through b64().
  std::string_view stored_base64;
  std::string url;     // an http(s) URL passed through as given ("" = inline)
  double duration_s = 0;  // audio and video: the clip's length
  // --uuid-and-strip (images): vLLM's media UUID sent with the part ("" = none), and whether
  // the part goes without its content ({"image_url": null, "uuid": ...}): the session sent it
  // before, so the server's multimodal cache holds it.
  std::string uuid;
  bool stripped = false;
  std::string_view b64() const { return base64.empty() ? stored_base64 : std::string_view(base64); }
  // data URL of the inline payload ("data:image/png;base64,..."), or the URL.
  std::string data_url() const {
    if (!url.empty()) return url;
    std::string out = "data:" + mime + ";base64,";
    out.append(b64());
    return out;
  }
};

}  // namespace servebench::core
