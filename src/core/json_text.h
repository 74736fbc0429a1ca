// JSON string escaping shared by request rendering, exports and the mock server. Appends in
// place (every request body passes through it once, so no temporaries).
//
// UTF-8 is passed through unchanged; '"', '\\' and control characters below 0x20 are escaped
// (\n, \r, \t, \b, \f short forms, \u00XX otherwise), which is all JSON requires.
#pragma once

#include <string>
#include <string_view>

namespace servebench::core {

// Appends `text` as a quoted JSON string to *out.
void append_json_string(std::string_view text, std::string* out);

}  // namespace servebench::core
