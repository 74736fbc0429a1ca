// The files the report page embeds, compiled into the binary (CMakeLists.txt: uPlot's minified
// script and stylesheet and its MIT licence from the pinned npm package, and the page's own
// report.js and report.css from assets/).
//
// Thread safety: immutable static data.
#pragma once

#include <string_view>

namespace servebench::report_html {

struct Assets {
  std::string_view uplot_js;       // empty when the build had no uPlot (then no charts)
  std::string_view uplot_css;
  std::string_view uplot_license;
  std::string_view uplot_version;  // the pinned version, e.g. "1.6.32"
  std::string_view report_js;
  std::string_view report_css;
};

const Assets& assets();

}  // namespace servebench::report_html
