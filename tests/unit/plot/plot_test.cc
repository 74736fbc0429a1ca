// Static charts: what draw_chart puts on the canvas (counted through the SVG's classes), tick
// and Pareto helpers, CDF sampling, chart sets for one and several runs, PNG dimensions.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>

#include "plot/chart.h"
#include "plot/charts.h"
#include "plot/png_canvas.h"
#include "plot/run_data.h"
#include "plot/svg_canvas.h"

namespace servebench::plot {
namespace {

size_t count_class(const std::string& svg, const std::string& cls) {
  size_t n = 0;
  for (size_t at = svg.find("class=\"" + cls + "\""); at != std::string::npos;
       at = svg.find("class=\"" + cls + "\"", at + 1))
    ++n;
  return n;
}

std::string draw_svg(const Chart& c) {
  SvgCanvas svg(600, 400, light_theme().background);
  draw_chart(c, svg, 600, 400, light_theme());
  return svg.finish();
}

TEST(Chart, BarsOnePerNonEmptyBinAndSeries) {
  Chart c;
  c.kind = ChartKind::kBars;
  c.bar_width = 1;
  c.series.push_back({"a", {{0, 3}, {1, 0}, {2, 5}, {3, 1}}, {}, {}, {}});
  EXPECT_EQ(count_class(draw_svg(c), "bar"), 3u);
  c.series.push_back({"b", {{0, 1}, {1, 1}, {2, 0}, {3, 0}}, {}, {}, {}});
  const std::string svg = draw_svg(c);
  EXPECT_EQ(count_class(svg, "bar"), 5u);
  EXPECT_EQ(count_class(svg, "legend"), 2u);
}

TEST(Chart, LinesCarryTheirPointCount) {
  Chart c;
  c.kind = ChartKind::kLines;
  c.title = "A <title> & more";
  c.series.push_back({"x", {{0, 1}, {1, 2}, {2, 4}, {3, 8}, {4, 16}}, {}, {}, {}});
  const std::string svg = draw_svg(c);
  EXPECT_EQ(count_class(svg, "series"), 1u);
  EXPECT_NE(svg.find("data-points=\"5\""), std::string::npos);
  EXPECT_NE(svg.find("A &lt;title&gt; &amp; more"), std::string::npos);
  EXPECT_EQ(svg.rfind("<?xml", 0), 0u);
  EXPECT_NE(svg.find("</svg>\n"), std::string::npos);
}

TEST(Chart, ScatterPointsErrorBarsAndFrontier) {
  Chart c;
  c.kind = ChartKind::kScatter;
  c.frontier = true;
  Series s{"runs", {{10, 100}, {20, 150}, {15, 200}}, {}, {}, {}};
  s.y_interval = {{90, 110}, {150, 150}, {180, 220}};  // the second has none
  c.series.push_back(s);
  const std::string svg = draw_svg(c);
  EXPECT_EQ(count_class(svg, "point"), 3u);
  EXPECT_EQ(count_class(svg, "errorbar"), 2u);
  EXPECT_EQ(count_class(svg, "frontier"), 1u);
  EXPECT_NE(svg.find("class=\"frontier\" data-points=\"2\""), std::string::npos);
}

TEST(Chart, NiceTicksAreRoundAndCoverTheRange) {
  const auto t = nice_ticks(0.3, 9.7, 5);
  ASSERT_FALSE(t.empty());
  EXPECT_DOUBLE_EQ(t.front(), 2);
  EXPECT_DOUBLE_EQ(t[1] - t[0], 2);
  EXPECT_LE(t.back(), 9.7);
  EXPECT_TRUE(nice_ticks(1, 1, 5).empty());
}

TEST(Chart, ParetoFrontKeepsUndominatedPoints) {
  // (throughput, latency): (10,100) and (20,150) are optimal; (15,200) is dominated by (20,150).
  const auto f = pareto_front({{10, 100}, {20, 150}, {15, 200}, {5, 120}});
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0], 0u);
  EXPECT_EQ(f[1], 1u);
}

TEST(Charts, CdfSamplesBoundedAndMonotone) {
  std::vector<double> v;
  for (int i = 0; i < 2000; ++i) v.push_back((i * 7919) % 2000);
  v.push_back(NAN);
  const auto all = cdf_points(std::vector<double>(v.begin(), v.begin() + 10), 500);
  EXPECT_EQ(all.size(), 10u);
  EXPECT_DOUBLE_EQ(all.back().y, 100);
  const auto some = cdf_points(v, 500);
  ASSERT_EQ(some.size(), 500u);
  for (size_t i = 1; i < some.size(); ++i) EXPECT_GE(some[i].x, some[i - 1].x);
  EXPECT_DOUBLE_EQ(some.front().x, 0);
  EXPECT_DOUBLE_EQ(some.back().x, 1999);
}

RunData fake_run(const std::string& name, int n, double scale) {
  RunData r;
  r.name = name;
  for (int i = 0; i < n; ++i) {
    r.start_s.push_back(i * 0.1);
    r.end_s.push_back(i * 0.1 + 0.05 * scale);
    r.ttft_ms.push_back(10 * scale + i % 7);
    r.itl_ms.push_back(2 * scale);
    r.latency_ms.push_back(50 * scale + i % 11);
    r.isl.push_back(100);
    r.osl.push_back(20 + i % 3);
  }
  r.request_throughput.value = 10 / scale;
  r.latency_p50_ms.value = 50 * scale;
  return r;
}

TEST(Charts, SingleRunSetHasEveryPanel) {
  const auto charts = single_run_charts(fake_run("r", 100, 1));
  std::vector<std::string> ids;
  for (const auto& c : charts) ids.push_back(c.id);
  for (const char* want :
       {"ttft_histogram", "ttft_cdf", "itl_histogram", "itl_cdf", "request_latency_histogram",
        "isl_histogram", "osl_cdf", "ttft_over_time", "request_latency_over_time",
        "request_rate_over_time", "token_throughput_over_time"})
    EXPECT_NE(std::find(ids.begin(), ids.end(), want), ids.end()) << want;
  for (const auto& c : charts) {
    if (c.id != "request_rate_over_time") continue;
    ASSERT_EQ(c.series.size(), 2u);
    for (const auto& s : c.series) {  // rate x bin width adds up to every request
      ASSERT_GE(s.points.size(), 10u);
      const double width = s.points[1].x - s.points[0].x;
      double total = 0;
      for (const auto& p : s.points) total += p.y * width;
      EXPECT_NEAR(total, 100, 1e-6) << s.name;
    }
  }
  for (const auto& c : charts) {
    if (c.id != "ttft_histogram") continue;
    double total = 0;
    for (const auto& p : c.series[0].points) total += p.y;
    EXPECT_DOUBLE_EQ(total, 100);  // every request in one bin
    EXPECT_EQ(c.series[0].points.size(), static_cast<size_t>(kHistogramBins));
  }
}

TEST(Charts, MultiRunSetOverlaysAndParetoWithIntervals) {
  std::vector<RunData> runs = {fake_run("a", 50, 1), fake_run("b", 60, 2), fake_run("c", 70, 3)};
  runs[1].latency_p50_ms.ci_low = 90;
  runs[1].latency_p50_ms.ci_high = 110;
  const auto charts = multi_run_charts(runs);
  bool saw_pareto = false, saw_overlay = false;
  for (const auto& c : charts) {
    if (c.id == "ttft_cdf_overlay") {
      saw_overlay = true;
      ASSERT_EQ(c.series.size(), 3u);
      EXPECT_EQ(c.series[2].points.size(), 70u);
    }
    if (c.id == "pareto_latency_throughput") {
      saw_pareto = true;
      ASSERT_EQ(c.series[0].points.size(), 3u);
      const std::string svg = draw_svg(c);
      EXPECT_EQ(count_class(svg, "point"), 3u);
      EXPECT_EQ(count_class(svg, "errorbar"), 1u);
    }
  }
  EXPECT_TRUE(saw_pareto);
  EXPECT_TRUE(saw_overlay);
}

std::string write_run(const std::string& name, double tput, double p50, bool aggregate) {
  namespace fs = std::filesystem;
  const fs::path dir =
      fs::temp_directory_path() / ("sb-plot-run-" + std::to_string(getpid()) + "-" + name);
  fs::create_directories(dir / "aggregate");
  std::ofstream(dir / "profile_export.jsonl") << "";
  std::ofstream(dir / "profile_export_aiperf.json")
      << "{\"request_throughput\":{\"unit\":\"requests/sec\",\"avg\":" << tput
      << "},\"request_latency\":{\"unit\":\"ms\",\"p50\":" << p50 << "}}";
  if (aggregate)
    std::ofstream(dir / "aggregate" / "profile_export_aiperf_aggregate.json")
        << "{\"request_latency\":{\"p50\":{\"mean\":" << p50 << ",\"ci_low\":" << p50 - 5
        << ",\"ci_high\":" << p50 + 5 << "}},\"request_throughput\":{\"mean\":" << tput
        << ",\"ci_low\":" << tput - 1 << ",\"ci_high\":" << tput + 1 << "}}";
  return dir.string();
}

TEST(RunData, SummaryAndMultiRunIntervalsFeedTheParetoChart) {
  const std::string a = write_run("a", 12.5, 80, true), b = write_run("b", 20, 120, false);
  auto ra = load_run(a);
  ASSERT_TRUE(ra.has_value()) << ra.error().message;
  EXPECT_DOUBLE_EQ(ra->request_throughput.value, 12.5);
  EXPECT_DOUBLE_EQ(ra->latency_p50_ms.ci_low, 75);
  EXPECT_DOUBLE_EQ(ra->request_throughput.ci_high, 13.5);
  auto rb = load_run(b);
  ASSERT_TRUE(rb.has_value());
  EXPECT_FALSE(rb->latency_p50_ms.has_interval());
  for (const auto& c : multi_run_charts({*ra, *rb})) {
    if (c.id != "pareto_latency_throughput") continue;
    const std::string svg = draw_svg(c);
    EXPECT_EQ(count_class(svg, "point"), 2u);
    EXPECT_EQ(count_class(svg, "errorbar"), 2u);  // run a: one vertical, one horizontal
    EXPECT_EQ(count_class(svg, "frontier"), 1u);  // both are optimal (b: more throughput)
  }
  std::filesystem::remove_all(a);
  std::filesystem::remove_all(b);
  auto missing = load_run(a);
  ASSERT_FALSE(missing.has_value());
  EXPECT_TRUE(missing.error().is_usage());
  EXPECT_NE(missing.error().message.find("profile_export.jsonl not found"), std::string::npos);
}

TEST(PngCanvas, WritesAPngOfTheAskedSize) {
  if (!png_available()) GTEST_SKIP() << "libcairo.so.2 not installed";
  auto png = PngCanvas::create(321, 123, light_theme().background);
  ASSERT_TRUE(png.has_value()) << png.error().message;
  Chart c;
  c.kind = ChartKind::kLines;
  c.title = "png";
  c.series.push_back({"x", {{0, 1}, {1, 2}}, {}, {}, {}});
  draw_chart(c, **png, 321, 123, light_theme());
  const std::string path =
      (std::filesystem::temp_directory_path() / ("sb-plot-" + std::to_string(getpid()) + ".png"))
          .string();
  ASSERT_TRUE((*png)->write(path).has_value());
  std::ifstream in(path, std::ios::binary);
  std::string head(24, '\0');
  in.read(head.data(), 24);
  std::filesystem::remove(path);
  EXPECT_EQ(head.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  EXPECT_EQ(head.substr(12, 4), "IHDR");
  auto be32 = [&](size_t at) {
    return (static_cast<uint32_t>(static_cast<unsigned char>(head[at])) << 24) |
           (static_cast<uint32_t>(static_cast<unsigned char>(head[at + 1])) << 16) |
           (static_cast<uint32_t>(static_cast<unsigned char>(head[at + 2])) << 8) |
           static_cast<uint32_t>(static_cast<unsigned char>(head[at + 3]));
  };
  EXPECT_EQ(be32(16), 321u);
  EXPECT_EQ(be32(20), 123u);
}

}  // namespace
}  // namespace servebench::plot
