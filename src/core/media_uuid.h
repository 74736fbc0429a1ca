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

// Appends `parts` to `out`: an image whose uuid is in `seen` as a stripped part (its uuid and
// kind only: its bytes are neither copied nor sent), the others whole, their uuids added to
// `seen`. Parts without a uuid are copied whole.
void copy_stripping_seen_images(const std::vector<MediaPart>& parts, std::unordered_set<std::string>* seen,
                                std::vector<MediaPart>* out);

}  // namespace servebench::core
