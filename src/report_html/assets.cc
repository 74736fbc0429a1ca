// Embeds the report's assets with .incbin (paths and a digest of their contents come from
// CMake; the digest is in the source so that compiler caches see a changed file).
#include "report_html/assets.h"

#include <cstddef>

#ifndef SB_REPORT_JS
#error "SB_REPORT_JS must be defined by the build"
#endif

extern "C" const char sb_report_assets_digest[] = SB_ASSETS_DIGEST;

#define SB_INCBIN(sym, path)      \
  ".global " #sym "\n"            \
  ".type " #sym ", @object\n"     \
  ".balign 16\n" #sym ":\n"       \
  ".incbin \"" path "\"\n"        \
  ".global " #sym "_end\n"        \
  ".type " #sym "_end, @object\n" #sym "_end:\n" \
  ".byte 0\n"

__asm__(".section .rodata\n" SB_INCBIN(sb_uplot_js, SB_UPLOT_JS) SB_INCBIN(sb_uplot_css, SB_UPLOT_CSS)
            SB_INCBIN(sb_uplot_license, SB_UPLOT_LICENSE) SB_INCBIN(sb_report_js, SB_REPORT_JS)
                SB_INCBIN(sb_report_css, SB_REPORT_CSS) ".previous\n");

#define SB_DECLARE(sym)             \
  extern "C" const char sym[];      \
  extern "C" const char sym##_end[];
SB_DECLARE(sb_uplot_js)
SB_DECLARE(sb_uplot_css)
SB_DECLARE(sb_uplot_license)
SB_DECLARE(sb_report_js)
SB_DECLARE(sb_report_css)

namespace servebench::report_html {
namespace {

std::string_view view(const char* begin, const char* end) {
  return std::string_view(begin, static_cast<size_t>(end - begin));
}

}  // namespace

const Assets& assets() {
  static const Assets kAssets = [] {
    Assets a;
    if (SB_HAVE_UPLOT) {
      a.uplot_js = view(sb_uplot_js, sb_uplot_js_end);
      a.uplot_css = view(sb_uplot_css, sb_uplot_css_end);
      a.uplot_license = view(sb_uplot_license, sb_uplot_license_end);
    }
    a.uplot_version = SB_UPLOT_VERSION;
    a.report_js = view(sb_report_js, sb_report_js_end);
    a.report_css = view(sb_report_css, sb_report_css_end);
    return a;
  }();
  return kAssets;
}

}  // namespace servebench::report_html
