#include "report_html/page.h"

#include "report_html/assets.h"

namespace servebench::report_html {
namespace {

// A script block must not contain "</": JSON may escape it as "<\/", and the embedded
// scripts and licence are checked for it (assets_test).
std::string script_safe(const std::string& json) {
  std::string out;
  out.reserve(json.size() + 16);
  for (size_t i = 0; i < json.size(); ++i) {
    out.push_back(json[i]);
    if (json[i] == '<' && i + 1 < json.size() && json[i + 1] == '/') out.push_back('\\');
  }
  return out;
}

}  // namespace

std::string html_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out.push_back(c);
    }
  }
  return out;
}

std::string render_page(const std::string& title, const std::string& data_json) {
  const Assets& a = assets();
  std::string page;
  page.reserve(data_json.size() + a.uplot_js.size() + a.report_js.size() + 8192);
  page += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
          "<meta name=\"color-scheme\" content=\"light dark\">\n<title>";
  page += html_escape(title);
  page += "</title>\n<style>";
  page += a.uplot_css;
  page += "</style>\n<style>";
  page += a.report_css;
  page += "</style>\n</head>\n<body>\n<div id=\"sb-root\"><noscript>This report draws its "
          "panels with JavaScript; enable it to see them.</noscript></div>\n"
          "<script id=\"sb-data\" type=\"application/json\">";
  page += script_safe(data_json);
  page += "</script>\n<script id=\"sb-licences\" type=\"text/plain\">uPlot ";
  page += a.uplot_version;
  page += " (https://github.com/leeoniya/uPlot), embedded under its licence:\n";
  page += a.uplot_license;
  page += "</script>\n<script>";
  page += a.uplot_js;
  page += "</script>\n<script>";
  page += a.report_js;
  page += "</script>\n</body>\n</html>\n";
  return page;
}

}  // namespace servebench::report_html
