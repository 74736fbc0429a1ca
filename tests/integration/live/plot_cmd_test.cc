// servebench plot on real runs against servebench-mock: every SVG parses as XML (python3's
// xml.etree) with the expected number of points/bars, every PNG has the asked size; several
// runs give overlays and a Pareto chart with one point per run; bad folders are one-line usage
// errors.
#include <map>

#include "integration/profile/harness.h"

namespace servebench::itest {
namespace {


// Parses an SVG with python3 and prints "<class> <count>" lines and each series' data-points.
std::map<std::string, int> svg_classes(const std::string& scratch, const std::string& svg) {
  const std::string script =
      "import sys, xml.etree.ElementTree as ET, collections\n"
      "root = ET.parse(sys.argv[1]).getroot()\n"
      "c = collections.Counter(e.get('class') for e in root.iter() if e.get('class'))\n"
      "for k, v in c.items(): print(k, v)\n"
      "for e in root.iter():\n"
      "  if e.get('class') in ('series', 'frontier'): print('points:' + e.get('class'), "
      "e.get('data-points'))\n";
  const std::string script_path = scratch + "/svg_count.py";
  std::ofstream(script_path) << script;
  const Proc p = run_process(scratch, {"/usr/bin/python3", script_path, svg});
  std::map<std::string, int> out;
  EXPECT_EQ(p.exit_code, 0) << svg << ": " << p.err;
  std::istringstream in(p.out);
  std::string k;
  int v;
  while (in >> k >> v) out[k] += v;
  return out;
}

std::pair<uint32_t, uint32_t> png_size(const std::string& path) {
  const std::string head = read_file(path).substr(0, 24);
  if (head.size() < 24 || head.compare(0, 8, std::string("\x89PNG\r\n\x1a\n", 8)) != 0 ||
      head.compare(12, 4, "IHDR") != 0)
    return {0, 0};
  auto be32 = [&](size_t at) {
    uint32_t v = 0;
    for (size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(head[at + i]);
    return v;
  };
  return {be32(16), be32(20)};
}

std::string profile_run(const std::string& dir, const Server& mock, const std::string& rate,
                        const std::string& count) {
  auto r = run_profile(dir, {"-m", "mock-model", "--tokenizer", "simple", "-u", mock.url(),
                             "--streaming", "--request-rate", rate, "--request-count", count});
  EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
  return r.artifact_dir;
}

TEST(PlotCommand, SingleRunChartsAreValidSvgAndPng) {
  const std::string dir = make_temp_dir("plot-one");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--ttft-ms", "5", "--itl-ms", "1"}));
  const std::string run = profile_run(dir, mock, "100", "60");
  ASSERT_FALSE(run.empty());
  const std::string out = dir + "/plots";
  const Proc p = run_process(dir, {bin_dir() + "/servebench", "plot", run, "-o", out, "--width", "640",
                               "--height", "360"});
  ASSERT_EQ(p.exit_code, 0) << p.err;
  const std::vector<Json> records = read_jsonl(run + "/profile_export.jsonl");
  ASSERT_EQ(records.size(), 60u);
  const std::map<std::string, std::string> kTags = {{"ttft", "time_to_first_token"},
                                                    {"itl", "inter_token_latency"},
                                                    {"request_latency", "request_latency"},
                                                    {"isl", "input_sequence_length"},
                                                    {"osl", "output_sequence_length"}};
  for (const char* id :
       {"ttft_histogram", "ttft_cdf", "itl_histogram", "itl_cdf", "request_latency_histogram",
        "request_latency_cdf", "isl_histogram", "isl_cdf", "osl_histogram", "osl_cdf",
        "ttft_over_time", "request_latency_over_time", "request_rate_over_time",
        "token_throughput_over_time"}) {
    const std::string svg = out + "/" + id + ".svg", png = out + "/" + id + ".png";
    ASSERT_TRUE(fs::exists(svg)) << svg;
    const auto classes = svg_classes(dir, svg);
    const auto [w, h] = png_size(png);
    EXPECT_EQ(w, 640u) << png;
    EXPECT_EQ(h, 360u) << png;
    const std::string name = id;
    if (name.find("_cdf") != std::string::npos) {
      EXPECT_EQ(classes.at("series"), 1);
      // One CDF point per request that has the metric (ITL needs two output tokens).
      const std::string tag = name.substr(0, name.find("_cdf"));
      int with_metric = 0;
      for (const auto& rec : records) with_metric += rec["metrics"].contains(kTags.at(tag)) ? 1 : 0;
      EXPECT_GE(with_metric, 50) << id;
      EXPECT_EQ(classes.at("points:series"), with_metric) << id;
    } else if (name.find("_histogram") != std::string::npos) {
      EXPECT_GE(classes.at("bar"), 1) << id;
      EXPECT_LE(classes.at("bar"), 40) << id;
    } else {
      EXPECT_GE(classes.at("series"), 1) << id;
    }
  }
}

TEST(PlotCommand, SeveralRunsGiveOverlaysAndAParetoPointPerRun) {
  const std::string dir = make_temp_dir("plot-multi");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--ttft-ms", "5", "--itl-ms", "1"}));
  std::vector<std::string> runs;
  for (const auto& [rate, count] :
       {std::pair{"50", "30"}, std::pair{"100", "40"}, std::pair{"200", "50"}}) {
    const std::string sub = dir + "/r" + rate;
    fs::create_directories(sub);
    runs.push_back(profile_run(sub, mock, rate, count));
    ASSERT_FALSE(runs.back().empty());
  }
  std::vector<std::string> argv = {bin_dir() + "/servebench", "plot"};
  argv.insert(argv.end(), runs.begin(), runs.end());
  argv.insert(argv.end(), {"-o", dir + "/cmp", "--format", "svg"});
  const Proc p = run_process(dir, argv);
  ASSERT_EQ(p.exit_code, 0) << p.err;
  const auto pareto = svg_classes(dir, dir + "/cmp/pareto_latency_throughput.svg");
  EXPECT_EQ(pareto.at("point"), 3);
  const auto overlay = svg_classes(dir, dir + "/cmp/ttft_cdf_overlay.svg");
  EXPECT_EQ(overlay.at("series"), 3);
  EXPECT_EQ(overlay.at("points:series"), 30 + 40 + 50);
  EXPECT_EQ(overlay.at("legend"), 3);
  EXPECT_TRUE(fs::exists(dir + "/cmp/ttft_histogram_by_run.svg"));
  EXPECT_FALSE(fs::exists(dir + "/cmp/ttft_histogram_by_run.png"));  // --format svg
}

TEST(PlotCommand, BadInputIsAOneLineUsageError) {
  const std::string dir = make_temp_dir("plot-bad");
  Proc p = run_process(dir, {bin_dir() + "/servebench", "plot", dir + "/missing"});
  EXPECT_EQ(p.exit_code, 2);
  EXPECT_NE(p.err.find("profile_export.jsonl not found"), std::string::npos) << p.err;
  EXPECT_EQ(std::count(p.err.begin(), p.err.end(), '\n'), 1);
  p = run_process(dir, {bin_dir() + "/servebench", "plot", dir, "--format", "gif"});
  EXPECT_EQ(p.exit_code, 2);
  p = run_process(dir, {bin_dir() + "/servebench", "plot"});
  EXPECT_EQ(p.exit_code, 2);
}

}  // namespace
}  // namespace servebench::itest
