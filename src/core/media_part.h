// One media input of a request (an image, an audio clip or a video), as the endpoint renders it:
// the payload already encoded (base64 of the file's bytes) or a URL passed through. Built before
// t0 (src/media/), read by the endpoints' renderers (src/endpoints/).
#pragma once

#include <string>

namespace servebench::core {

enum class MediaKind { kImage, kAudio, kVideo };

struct MediaPart {
  MediaKind kind = MediaKind::kImage;
  std::string mime;    // "image/png", "audio/wav", "video/webm"
  std::string format;  // file format: "png", "jpeg", "wav", "mp3", "webm", "mp4"
  std::string base64;  // the encoded file; empty when `url` is set
  std::string url;     // an http(s) URL passed through as given ("" = inline)
  double duration_s = 0;  // audio and video: the clip's length
  // --uuid-and-strip (images): vLLM's media UUID sent with the part ("" = none), and whether
  // the part goes without its content ({"image_url": null, "uuid": ...}): the session sent it
  // before, so the server's multimodal cache holds it.
  std::string uuid;
  bool stripped = false;
  // data URL of the inline payload ("data:image/png;base64,..."), or the URL.
  std::string data_url() const { return url.empty() ? "data:" + mime + ";base64," + base64 : url; }
};

}  // namespace servebench::core
