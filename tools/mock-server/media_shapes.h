// servebench-mock: media parts in the shapes of the APIs other than OpenAI chat (whose parts
// request_parse.cc reads), each decoded by media_check.h and recorded with the request:
//   responses: {"type":"input_image","image_url":"<data URL or URL>"},
//              {"type":"input_audio","input_audio":{"data":..,"format":..}}
//   Anthropic messages: {"type":"image","source":{"type":"base64","media_type":..,"data":..}}
//              or {"type":"image","source":{"type":"url","url":..}}
//   NIM embeddings: "<img src='<data URL>'/>" inside an `input` string
//   chat embeddings: OpenAI chat's parts (image_url, input_audio, video_url)
// A part that does not decode, or a block of a kind the API does not take (audio in Anthropic
// messages, video in responses), is an error (→ HTTP 400), as a real server would answer.
//
// Thread safety: pure functions.
#pragma once

#include <simdjson.h>

#include <string_view>
#include <vector>

#include "core/result.h"
#include "media_check.h"

namespace servebench::mock {

enum class MediaApi { kResponses, kAnthropic, kChat };

// The media parts of a message `content` (a string has none).
Status collect_content_media(MediaApi api, simdjson::dom::element content, std::vector<MediaSeen>* media);
// The images of one NIM embeddings input ("<img src='...'/>" tags).
Status collect_img_tags(std::string_view input, std::vector<MediaSeen>* media);

}  // namespace servebench::mock
