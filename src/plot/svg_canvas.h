// SvgCanvas: a Canvas that writes an SVG 1.1 document (well-formed XML, text escaped). Every
// element gets class="<role>" and polylines also data-points="<n>".
//
// Thread safety: one canvas per thread.
#pragma once

#include <string>

#include "plot/canvas.h"

namespace servebench::plot {

class SvgCanvas : public Canvas {
 public:
  SvgCanvas(int width, int height, Color background);
  void polyline(const std::vector<Point>& pts, Color stroke, double width,
                const char* role) override;
  void rect(double x, double y, double w, double h, Color fill, const char* role) override;
  void circle(double cx, double cy, double r, Color fill, const char* role) override;
  void text(double x, double y, const std::string& s, double size, Anchor anchor, Color color,
            double rotate_deg) override;
  // The finished document.
  std::string finish() const;

 private:
  std::string body_;
  const int width_, height_;
};

// XML text escaping (&, <, >, ", ').
std::string xml_escape(const std::string& s);

}  // namespace servebench::plot
