// --uuid-and-strip (vLLM's multimodal cache): every image part gets a UUID naming its content,
// and within one session an image sent before goes again without its bytes,
// {"type":"image_url","image_url":null,"uuid":"..."}, which vLLM serves from its cache.
//
// Thread safety: pure functions; the seen set belongs to one session (one worker).
#pragma once

#include <string>
#include <unordered_set>
#include <vector>

#include "core/media_part.h"

namespace servebench::core {

// Sets the uuid of every image part: "img-" and 32 hex digits of a hash of its bytes (or URL),
// so equal images share it. Other parts are left alone.
void stamp_image_uuids(std::vector<MediaPart>* parts);

// Marks the image parts whose uuid is in `seen` as stripped (and drops their bytes, which are
// not sent), and adds the others' uuids to `seen`. Parts without a uuid are left alone.
void strip_seen_images(std::vector<MediaPart>* parts, std::unordered_set<std::string>* seen);

}  // namespace servebench::core
