// What servebench-mock finds in a request's media parts: each image, audio clip or video is
// base64-decoded and its header read (PNG IHDR, JPEG SOF, WAV fmt/data chunks, MP3 frame
// header), so tests can compare formats, sizes, sample rates and durations with the flags. A
// part that does not decode is a 400 (the client sent something no server would accept).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace servebench::mock {

struct MediaSeen {
  std::string kind;    // image | audio | video
  std::string format;  // png, jpeg, wav, mp3, webm, mp4 (video by its magic), url (not fetched)
  int width = 0, height = 0;      // images
  int sample_rate = 0, channels = 0, bits = 0;  // audio
  double duration_s = 0;          // WAV: exact from the data size; MP3: from the frame count
  int64_t bytes = 0;              // decoded size
  std::string uuid{};             // vLLM's media "uuid" of the part ("" = none)
  bool stripped = false;          // sent without content ("image_url": null, by uuid)
};

// `payload`: a data URL ("data:image/png;base64,...") or, for input_audio, bare base64 with its
// `format`. An http(s) URL is recorded as format "url".
Result<MediaSeen> inspect_media(std::string_view kind, std::string_view payload,
                                std::string_view audio_format = "");

// JSON array text of the parts, for --record-requests.
std::string media_json(const std::vector<MediaSeen>& media);

}  // namespace servebench::mock
