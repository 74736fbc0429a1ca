// Canvas: the drawing primitives a chart needs, so one drawing routine (chart.h) renders both
// the SVG (svg_canvas.h, written by hand as XML) and the PNG (png_canvas.h, rasterised by cairo).
// Coordinates are pixels from the top-left corner. Each primitive carries a `role` ("point",
// "bar", "series", "axis", ...) that the SVG writer emits as the element's class, so tests and
// scripts can count what was drawn.
#pragma once

#include <string>
#include <vector>

namespace servebench::plot {

struct Color {
  double r = 0, g = 0, b = 0, a = 1;
};

struct Point {
  double x = 0, y = 0;
};

enum class Anchor { kStart, kMiddle, kEnd };

class Canvas {
 public:
  virtual ~Canvas() = default;
  virtual void polyline(const std::vector<Point>& pts, Color stroke, double width,
                        const char* role) = 0;
  virtual void rect(double x, double y, double w, double h, Color fill, const char* role) = 0;
  virtual void circle(double cx, double cy, double r, Color fill, const char* role) = 0;
  // `rotate_deg` -90 for a vertical axis label. Font size in pixels.
  virtual void text(double x, double y, const std::string& s, double size, Anchor anchor,
                    Color color, double rotate_deg = 0) = 0;
};

}  // namespace servebench::plot
