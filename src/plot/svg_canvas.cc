#include "plot/svg_canvas.h"

#include <fmt/format.h>

#include <cmath>

namespace servebench::plot {
namespace {

std::string rgb(Color c) {
  auto ch = [](double v) {
    return static_cast<int>(std::lround(std::fmin(1.0, std::fmax(0.0, v)) * 255));
  };
  return fmt::format("#{:02x}{:02x}{:02x}", ch(c.r), ch(c.g), ch(c.b));
}

std::string opacity(Color c, const char* attr) {
  return c.a < 1.0 ? fmt::format(" {}=\"{:.3g}\"", attr, c.a) : "";
}

}  // namespace

std::string xml_escape(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (const char ch : s) {
    switch (ch) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        // Control characters are not allowed in XML 1.0.
        if (static_cast<unsigned char>(ch) >= 0x20 || ch == '\t' || ch == '\n') out += ch;
    }
  }
  return out;
}

SvgCanvas::SvgCanvas(int width, int height, Color background) : width_(width), height_(height) {
  rect(0, 0, width, height, background, "background");
}

void SvgCanvas::polyline(const std::vector<Point>& pts, Color stroke, double width,
                         const char* role) {
  std::string p;
  p.reserve(pts.size() * 16);
  for (const auto& q : pts) p += fmt::format("{:.1f},{:.1f} ", q.x, q.y);
  if (!p.empty()) p.pop_back();
  body_ += fmt::format(
      "<polyline class=\"{}\" data-points=\"{}\" points=\"{}\" fill=\"none\" stroke=\"{}\"{} "
      "stroke-width=\"{:.2g}\" stroke-linejoin=\"round\"/>\n",
      role, pts.size(), p, rgb(stroke), opacity(stroke, "stroke-opacity"), width);
}

void SvgCanvas::rect(double x, double y, double w, double h, Color fill, const char* role) {
  body_ += fmt::format(
      "<rect class=\"{}\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" "
      "fill=\"{}\"{}/>\n",
      role, x, y, std::fmax(0.0, w), std::fmax(0.0, h), rgb(fill), opacity(fill, "fill-opacity"));
}

void SvgCanvas::circle(double cx, double cy, double r, Color fill, const char* role) {
  body_ +=
      fmt::format("<circle class=\"{}\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{:.1f}\" fill=\"{}\"{}/>\n",
                  role, cx, cy, r, rgb(fill), opacity(fill, "fill-opacity"));
}

void SvgCanvas::text(double x, double y, const std::string& s, double size, Anchor anchor,
                     Color color, double rotate_deg) {
  const char* a = anchor == Anchor::kStart ? "start" : anchor == Anchor::kMiddle ? "middle" : "end";
  const std::string rot =
      rotate_deg != 0 ? fmt::format(" transform=\"rotate({:.0f} {:.1f} {:.1f})\"", rotate_deg, x, y)
                      : "";
  body_ += fmt::format(
      "<text class=\"label\" x=\"{:.1f}\" y=\"{:.1f}\" font-family=\"DejaVu Sans, Arial, "
      "sans-serif\" font-size=\"{:.0f}\" text-anchor=\"{}\" fill=\"{}\"{}>{}</text>\n",
      x, y, size, a, rgb(color), rot, xml_escape(s));
}

std::string SvgCanvas::finish() const {
  return fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{0}\" height=\"{1}\" "
      "viewBox=\"0 0 {0} {1}\">\n{2}</svg>\n",
      width_, height_, body_);
}

}  // namespace servebench::plot
