#include "report_html/page.h"

#include <gtest/gtest.h>

#include "report_html/assets.h"

namespace servebench::report_html {
namespace {

TEST(Assets, ChartLibraryAndLicenceAreEmbedded) {
  const Assets& a = assets();
  ASSERT_FALSE(a.uplot_js.empty()) << "built without uPlot: run scripts/setup.sh";
  EXPECT_NE(a.uplot_js.find("uPlot"), std::string_view::npos);
  EXPECT_NE(a.uplot_css.find(".uplot"), std::string_view::npos);
  EXPECT_NE(a.uplot_license.find("MIT"), std::string_view::npos);
  EXPECT_EQ(a.uplot_version, "1.6.32");
  EXPECT_NE(a.report_js.find("servebenchReport"), std::string_view::npos);
  EXPECT_NE(a.report_css.find("prefers-color-scheme"), std::string_view::npos);
  EXPECT_NE(a.report_css.find("@media print"), std::string_view::npos);
  // Inlined in <script>/<style> blocks: none may close its block early.
  for (std::string_view s : {a.uplot_js, a.report_js, a.uplot_license})
    EXPECT_EQ(s.find("</script"), std::string_view::npos);
  for (std::string_view s : {a.uplot_css, a.report_css}) EXPECT_EQ(s.find("</style"), std::string_view::npos);
}

TEST(Page, SelfContainedWithTheDataInlined) {
  const std::string page = render_page("run <1> & \"x\"", R"({"kind":"report","s":"</script><b>"})");
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(page.find("<title>run &lt;1&gt; &amp; &quot;x&quot;</title>"), std::string::npos);
  // The data cannot end its script block: "</" is written "<\/" (the same JSON string).
  EXPECT_NE(page.find(R"("s":"<\/script><b>")"), std::string::npos);
  EXPECT_EQ(page.find("</script><b>"), std::string::npos);
  // Nothing is fetched: no external script, stylesheet or URL attribute.
  EXPECT_EQ(page.find("src=\""), std::string::npos);
  EXPECT_EQ(page.find("<link"), std::string::npos);
  EXPECT_NE(page.find("id=\"sb-licences\""), std::string::npos);
}

TEST(Page, HtmlEscape) {
  EXPECT_EQ(html_escape("a<b>&\"c\""), "a&lt;b&gt;&amp;&quot;c&quot;");
}

}  // namespace
}  // namespace servebench::report_html
