// The HTML page: one self-contained file with the embedded chart library (uPlot, its licence in
// a text block), the page's script and styles, and the data inlined as JSON. No network: the
// page loads nothing.
//
// Thread safety: pure function.
#pragma once

#include <string>

namespace servebench::report_html {

// `data_json` is a report or compare data object (report_data.h, compare/); `title` is the
// page title (escaped here).
std::string render_page(const std::string& title, const std::string& data_json);

// `text` with &, <, >, " escaped for HTML.
std::string html_escape(const std::string& text);

}  // namespace servebench::report_html
