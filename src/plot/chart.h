// Chart: a small data model for one static chart (lines, scatter points or histogram bars, one
// or several series) and the one routine that draws it on any Canvas: title, axes with round
// ticks, grid, series in a fixed colour order, legend when there are several series.
//
// What is drawn, by Canvas role (the SVG's element classes):
//   kLines   one "series" polyline per series (points in x order as given);
//   kScatter one "point" circle per point, an "errorbar" polyline per point that has an
//            interval, and a "frontier" polyline when Chart::frontier is set;
//   kBars    one "bar" rect per point with y > 0 (x = bin start, width bar_width); several
//            series share each bin side by side.
//
// Thread safety: pure (draws on the canvas it is given).
#pragma once

#include <string>
#include <vector>

#include "plot/canvas.h"

namespace servebench::plot {

enum class ChartKind { kLines, kScatter, kBars };

struct Series {
  std::string name;
  std::vector<Point> points;
  // Scatter only: per point, the interval [y_low, y_high] and [x_low, x_high] (empty = none).
  std::vector<Point> y_interval;  // {low, high}
  std::vector<Point> x_interval;
  std::vector<std::string> labels;  // scatter only: text beside each point (empty = none)
};

struct Chart {
  std::string id;  // file name stem: ttft_histogram → ttft_histogram.svg / .png
  std::string title, x_label, y_label;
  ChartKind kind = ChartKind::kLines;
  std::vector<Series> series;
  double bar_width = 0;      // kBars: bin width in x units
  bool frontier = false;     // kScatter: connect the Pareto-optimal points (min y for max x)
  bool y_from_zero = false;  // the y axis starts at 0 (always for kBars)
};

struct Theme {
  Color background{1, 1, 1};
  Color foreground{0.13, 0.13, 0.13};
  Color grid{0.88, 0.88, 0.88};
};
Theme light_theme();
Theme dark_theme();

// Draws `chart` filling a width × height canvas.
void draw_chart(const Chart& chart, Canvas& canvas, int width, int height, const Theme& theme);

// Round tick values covering [lo, hi] (about `target` of them, steps of 1, 2 or 5 × 10^k).
std::vector<double> nice_ticks(double lo, double hi, int target);

// Indexes of the points on the Pareto frontier of (x larger is better, y smaller is better),
// in increasing x.
std::vector<size_t> pareto_front(const std::vector<Point>& pts);

}  // namespace servebench::plot
