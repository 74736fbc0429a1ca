#include "plot/chart.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace servebench::plot {
namespace {

// Colour-blind-safe order (Okabe–Ito).
const Color kPalette[] = {{0.0, 0.45, 0.70},  {0.90, 0.62, 0.0},  {0.0, 0.62, 0.45},
                          {0.80, 0.47, 0.65}, {0.34, 0.71, 0.91}, {0.84, 0.37, 0.0},
                          {0.94, 0.89, 0.26}, {0.5, 0.5, 0.5}};

Color series_color(size_t i) { return kPalette[i % (sizeof(kPalette) / sizeof(kPalette[0]))]; }

struct Range {
  double lo = std::numeric_limits<double>::infinity();
  double hi = -std::numeric_limits<double>::infinity();
  void add(double v) {
    if (!std::isfinite(v)) return;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  void settle(bool from_zero) {
    if (!std::isfinite(lo)) lo = 0, hi = 1;
    if (from_zero) lo = std::min(lo, 0.0);
    if (hi - lo <= 0) {
      const double pad = lo == 0 ? 1 : std::fabs(lo) * 0.1;
      lo -= pad;
      hi += pad;
    }
  }
};

std::string tick_text(double v, double step) {
  const double a = std::fabs(v);
  if (a >= 1e6) return fmt::format("{:.3g}M", v / 1e6);
  if (a >= 1e4) return fmt::format("{:.0f}k", v / 1e3);
  if (step >= 1) return fmt::format("{:.0f}", v);
  const int digits = std::min(6, static_cast<int>(std::ceil(-std::log10(step))));
  return fmt::format("{:.{}f}", v, digits);
}

struct Frame {
  double left, top, right, bottom;
  Range x, y;
  double px(double v) const { return left + (v - x.lo) / (x.hi - x.lo) * (right - left); }
  double py(double v) const { return bottom - (v - y.lo) / (y.hi - y.lo) * (bottom - top); }
};

Frame layout(const Chart& chart, int width, int height) {
  Frame f{70, 44, width - 24.0, height - 56.0, {}, {}};
  if (chart.series.size() > 1) f.right = std::max(f.left + 50, width - 170.0);
  for (const auto& s : chart.series) {
    for (size_t i = 0; i < s.points.size(); ++i) {
      f.x.add(s.points[i].x);
      f.y.add(s.points[i].y);
      if (chart.kind == ChartKind::kBars) f.x.add(s.points[i].x + chart.bar_width);
      if (i < s.y_interval.size()) f.y.add(s.y_interval[i].x), f.y.add(s.y_interval[i].y);
      if (i < s.x_interval.size()) f.x.add(s.x_interval[i].x), f.x.add(s.x_interval[i].y);
    }
  }
  f.x.settle(false);
  f.y.settle(chart.kind == ChartKind::kBars || chart.y_from_zero);
  if (chart.kind == ChartKind::kScatter) {  // room around the points
    const double dx = (f.x.hi - f.x.lo) * 0.08, dy = (f.y.hi - f.y.lo) * 0.08;
    f.x.lo -= dx, f.x.hi += dx, f.y.lo -= dy, f.y.hi += dy;
  } else {
    f.y.hi += (f.y.hi - f.y.lo) * 0.05;
  }
  return f;
}

void draw_axes(const Chart& chart, const Frame& f, Canvas& c, const Theme& t) {
  const auto xt = nice_ticks(f.x.lo, f.x.hi, 6), yt = nice_ticks(f.y.lo, f.y.hi, 5);
  const double xstep = xt.size() > 1 ? xt[1] - xt[0] : 1, ystep = yt.size() > 1 ? yt[1] - yt[0] : 1;
  for (double v : yt) {
    c.polyline({{f.left, f.py(v)}, {f.right, f.py(v)}}, t.grid, 1, "grid");
    c.text(f.left - 6, f.py(v) + 4, tick_text(v, ystep), 11, Anchor::kEnd, t.foreground);
  }
  for (double v : xt) {
    c.polyline({{f.px(v), f.bottom}, {f.px(v), f.bottom + 4}}, t.foreground, 1, "axis");
    c.text(f.px(v), f.bottom + 17, tick_text(v, xstep), 11, Anchor::kMiddle, t.foreground);
  }
  c.polyline({{f.left, f.top}, {f.left, f.bottom}, {f.right, f.bottom}}, t.foreground, 1, "axis");
  c.text((f.left + f.right) / 2, 26, chart.title, 15, Anchor::kMiddle, t.foreground);
  c.text((f.left + f.right) / 2, f.bottom + 38, chart.x_label, 12, Anchor::kMiddle, t.foreground);
  c.text(18, (f.top + f.bottom) / 2, chart.y_label, 12, Anchor::kMiddle, t.foreground, -90);
}

void draw_legend(const Chart& chart, const Frame& f, Canvas& c, const Theme& t) {
  if (chart.series.size() < 2) return;
  double y = f.top + 4;
  for (size_t i = 0; i < chart.series.size(); ++i, y += 18) {
    c.rect(f.right + 14, y, 12, 12, series_color(i), "legend");
    std::string name = chart.series[i].name;
    if (name.size() > 22) name = name.substr(0, 21) + "~";
    c.text(f.right + 32, y + 10, name, 11, Anchor::kStart, t.foreground);
  }
}

void draw_bars(const Chart& chart, const Frame& f, Canvas& c) {
  const size_t n = chart.series.size();
  for (size_t si = 0; si < n; ++si) {
    Color col = series_color(si);
    col.a = n > 1 ? 0.85 : 1.0;
    for (const auto& p : chart.series[si].points) {
      if (!(p.y > 0)) continue;
      const double x0 = f.px(p.x), x1 = f.px(p.x + chart.bar_width);
      const double slot = (x1 - x0) / static_cast<double>(n);
      const double gap = slot > 3 ? 0.5 : 0;
      c.rect(x0 + slot * static_cast<double>(si) + gap, f.py(p.y), slot - 2 * gap,
             f.bottom - f.py(p.y), col, "bar");
    }
  }
}

void draw_scatter(const Chart& chart, const Frame& f, Canvas& c, const Theme& t) {
  for (size_t si = 0; si < chart.series.size(); ++si) {
    const Series& s = chart.series[si];
    const Color col = series_color(si);
    for (size_t i = 0; i < s.points.size(); ++i) {
      const Point p = s.points[i];
      if (i < s.y_interval.size() && s.y_interval[i].x != s.y_interval[i].y)
        c.polyline({{f.px(p.x), f.py(s.y_interval[i].x)}, {f.px(p.x), f.py(s.y_interval[i].y)}},
                   col, 1.5, "errorbar");
      if (i < s.x_interval.size() && s.x_interval[i].x != s.x_interval[i].y)
        c.polyline({{f.px(s.x_interval[i].x), f.py(p.y)}, {f.px(s.x_interval[i].y), f.py(p.y)}},
                   col, 1.5, "errorbar");
      c.circle(f.px(p.x), f.py(p.y), 4.5, col, "point");
      if (i < s.labels.size() && !s.labels[i].empty()) {
        // Labels of points in the right part of the plot go to their left, inside the frame.
        const bool right = f.px(p.x) > f.left + 0.6 * (f.right - f.left);
        c.text(f.px(p.x) + (right ? -7 : 7), f.py(p.y) - 7, s.labels[i], 10,
               right ? Anchor::kEnd : Anchor::kStart, t.foreground);
      }
    }
  }
  if (!chart.frontier) return;
  std::vector<Point> all;
  for (const auto& s : chart.series) all.insert(all.end(), s.points.begin(), s.points.end());
  std::vector<Point> line;
  for (size_t i : pareto_front(all)) line.push_back({f.px(all[i].x), f.py(all[i].y)});
  if (line.size() >= 2) c.polyline(line, {0.5, 0.5, 0.5, 0.8}, 1.5, "frontier");
}

}  // namespace

Theme light_theme() { return Theme{}; }
Theme dark_theme() { return Theme{{0.11, 0.12, 0.14}, {0.88, 0.88, 0.88}, {0.25, 0.26, 0.29}}; }

std::vector<double> nice_ticks(double lo, double hi, int target) {
  std::vector<double> out;
  if (!(hi > lo) || target < 1) return out;
  const double raw = (hi - lo) / target;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = mag;
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    step = m * mag;
    if (step >= raw) break;
  }
  for (double v = std::ceil(lo / step) * step; v <= hi + step * 1e-9; v += step)
    out.push_back(std::fabs(v) < step * 1e-9 ? 0.0 : v);
  return out;
}

std::vector<size_t> pareto_front(const std::vector<Point>& pts) {
  std::vector<size_t> idx(pts.size());
  for (size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  // Larger x first; a point is on the front when its y beats every point with larger x.
  std::sort(idx.begin(), idx.end(), [&](size_t a, size_t b) {
    return pts[a].x != pts[b].x ? pts[a].x > pts[b].x : pts[a].y < pts[b].y;
  });
  std::vector<size_t> front;
  double best = std::numeric_limits<double>::infinity();
  for (size_t i : idx) {
    if (pts[i].y < best) {
      front.push_back(i);
      best = pts[i].y;
    }
  }
  std::reverse(front.begin(), front.end());
  return front;
}

void draw_chart(const Chart& chart, Canvas& canvas, int width, int height, const Theme& theme) {
  const Frame f = layout(chart, width, height);
  draw_axes(chart, f, canvas, theme);
  switch (chart.kind) {
    case ChartKind::kBars:
      draw_bars(chart, f, canvas);
      break;
    case ChartKind::kScatter:
      draw_scatter(chart, f, canvas, theme);
      break;
    case ChartKind::kLines:
      for (size_t i = 0; i < chart.series.size(); ++i) {
        std::vector<Point> px;
        px.reserve(chart.series[i].points.size());
        for (const auto& p : chart.series[i].points) px.push_back({f.px(p.x), f.py(p.y)});
        canvas.polyline(px, series_color(i), 1.5, "series");
        if (px.size() == 1) canvas.circle(px[0].x, px[0].y, 3, series_color(i), "marker");
      }
      break;
  }
  draw_legend(chart, f, canvas, theme);
}

}  // namespace servebench::plot
