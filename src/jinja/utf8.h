// UTF-8 helpers for Python's str semantics (length and indexing count code points; case
// changes touch ASCII letters only, which is all chat templates ask of them).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace servebench::jinja {

std::vector<std::string> utf8_chars(std::string_view s);
size_t utf8_length(std::string_view s);
std::string ascii_upper(std::string s);
std::string ascii_lower(std::string s);
std::string ascii_title(const std::string& s);
std::string ascii_capitalize(const std::string& s);

}  // namespace servebench::jinja
