// Media content parts in each API's shape (the turn's last message carries them):
//   OpenAI chat: [{"type":"text","text":...}, {"type":"image_url","image_url":{"url":...}},
//                 {"type":"input_audio","input_audio":{"data":<base64>,"format":"wav"}},
//                 {"type":"video_url","video_url":{"url":...}}]
//
// Thread safety: pure functions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/media_part.h"

namespace servebench::endpoints {

void append_openai_content_parts(std::string_view text, const std::vector<core::MediaPart>& media,
                                 std::string* out);

// Images, audio clips and videos among `media`.
struct MediaCounts {
  int images = 0, audios = 0, videos = 0;
};
MediaCounts count_media(const std::vector<core::MediaPart>& media);

}  // namespace servebench::endpoints
