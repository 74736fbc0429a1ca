#include "media_shapes.h"

#include <fmt/format.h>

namespace servebench::mock {
namespace {

using simdjson::dom::element;

Error bad(std::string message) { return Error{ErrorCode::kInvalidArgument, std::move(message)}; }

Status add(std::string_view kind, std::string_view payload, std::string_view format,
           std::vector<MediaSeen>* media) {
  auto seen = inspect_media(kind, payload, format);
  if (!seen) return tl::unexpected(seen.error());
  media->push_back(std::move(*seen));
  return {};
}

Status audio_part(element part, std::vector<MediaSeen>* media) {
  std::string_view data, format = "wav";
  if (part["input_audio"]["data"].get(data) != simdjson::SUCCESS)
    return tl::unexpected(bad("input_audio part needs 'input_audio.data'"));
  if (part["input_audio"]["format"].get(format) != simdjson::SUCCESS) format = "wav";
  return add("audio", data, format, media);
}

Status anthropic_image(element part, std::vector<MediaSeen>* media) {
  std::string_view type, data, media_type;
  element source;
  if (part["source"].get(source) != simdjson::SUCCESS || source["type"].get(type) != simdjson::SUCCESS)
    return tl::unexpected(bad("image block needs a 'source' with a 'type'"));
  if (type == "url") {
    if (source["url"].get(data) != simdjson::SUCCESS) return tl::unexpected(bad("url source needs 'url'"));
    return add("image", data, "", media);
  }
  if (type != "base64" || source["data"].get(data) != simdjson::SUCCESS ||
      source["media_type"].get(media_type) != simdjson::SUCCESS)
    return tl::unexpected(bad("image source must be {type: base64, media_type, data} or {type: url, url}"));
  return add("image", fmt::format("data:{};base64,{}", media_type, data), "", media);
}

Status chat_part(std::string_view type, element part, std::vector<MediaSeen>* media) {
  std::string_view url;
  const char* holder = type == "image_url" ? "image_url" : "video_url";
  if (part[holder]["url"].get(url) != simdjson::SUCCESS)
    return tl::unexpected(bad(fmt::format("{} part needs '{}.url'", type, holder)));
  return add(type == "image_url" ? "image" : "video", url, "", media);
}

Status one_part(MediaApi api, element part, std::vector<MediaSeen>* media) {
  std::string_view type;
  if (part["type"].get(type) != simdjson::SUCCESS) return {};
  if (type == "input_audio" && api != MediaApi::kAnthropic) return audio_part(part, media);
  switch (api) {
    case MediaApi::kResponses:
      if (type == "input_image") {
        std::string_view url;
        if (part["image_url"].get(url) != simdjson::SUCCESS)
          return tl::unexpected(bad("input_image part needs a string 'image_url'"));
        return add("image", url, "", media);
      }
      if (type == "image_url" || type == "video_url" || type == "input_video")
        return tl::unexpected(bad(fmt::format("the Responses API takes no '{}' part", type)));
      return {};
    case MediaApi::kAnthropic:
      if (type == "image") return anthropic_image(part, media);
      if (type != "text") return tl::unexpected(bad(fmt::format("unsupported content block type '{}'", type)));
      return {};
    case MediaApi::kChat:
      if (type == "image_url" || type == "video_url") return chat_part(type, part, media);
      return {};
  }
  return {};
}

}  // namespace

Status collect_content_media(MediaApi api, element content, std::vector<MediaSeen>* media) {
  if (!content.is_array()) return {};
  const simdjson::dom::array parts = content.get_array().value_unsafe();
  for (element part : parts) {
    if (!part.is_object()) continue;
    if (auto st = one_part(api, part, media); !st) return st;
  }
  return {};
}

Status collect_img_tags(std::string_view input, std::vector<MediaSeen>* media) {
  size_t at = 0;
  while ((at = input.find("<img src='", at)) != std::string_view::npos) {
    at += 10;
    const size_t end = input.find("'/>", at);
    if (end == std::string_view::npos) return tl::unexpected(bad("unterminated <img src='...'/> tag"));
    if (auto st = add("image", input.substr(at, end - at), "", media); !st) return st;
    at = end + 3;
  }
  return {};
}

}  // namespace servebench::mock
