// Base64 decoding for payloads that arrive encoded: SageMaker capture records, the images an
// image-edit form carries as files. Accepts the standard and the URL-safe alphabets; padding
// ('=') and whitespace (space, CR, LF) are skipped wherever they appear.
//
// Thread safety: a pure function.
#pragma once

#include <string>
#include <string_view>

namespace servebench::core {

// Replaces *out with the decoded bytes; false on a character outside the alphabets (then *out
// holds the bytes decoded before it).
bool decode_base64(std::string_view in, std::string* out);

}  // namespace servebench::core
