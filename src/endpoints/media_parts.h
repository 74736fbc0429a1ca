// Media content parts in each API's shape (the turn's last message carries them):
//   OpenAI chat: [{"type":"text","text":...}, {"type":"image_url","image_url":{"url":...}},
//                 {"type":"input_audio","input_audio":{"data":<base64>,"format":"wav"}},
//                 {"type":"video_url","video_url":{"url":...}}]
//   OpenAI responses: [{"type":"input_text","text":...}, {"type":"input_image","image_url":...},
//                 {"type":"input_audio","input_audio":{"data":<base64>,"format":"wav"}}]
//                 (no video: the registry refuses it before t0)
//   Anthropic messages: [{"type":"text","text":...}, {"type":"image","source":{"type":"base64",
//                 "media_type":"image/png","data":<base64>}} or {"type":"image","source":
//                 {"type":"url","url":...}}] (images only)
//   NIM embeddings `input`: "text <img src='<data URL>'/>" per text and image when the counts
//                 match, else the texts then "<img src='...'/>" per image (images only)
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

void append_responses_content_parts(std::string_view text, const std::vector<core::MediaPart>& media,
                                    std::string* out);
void append_anthropic_content_parts(std::string_view text, const std::vector<core::MediaPart>& media,
                                    std::string* out);
// The `input` array's elements (without brackets) for `texts` and the images of `media`.
void append_nim_embedding_inputs(const std::vector<std::string_view>& texts,
                                 const std::vector<core::MediaPart>& media, std::string* out);

// Images, audio clips and videos among `media`.
struct MediaCounts {
  int images = 0, audios = 0, videos = 0;
};
MediaCounts count_media(const std::vector<core::MediaPart>& media);

}  // namespace servebench::endpoints
