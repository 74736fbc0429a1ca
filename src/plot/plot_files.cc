#include "plot/plot_files.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "plot/charts.h"
#include "plot/png_canvas.h"
#include "plot/svg_canvas.h"

namespace servebench::plot {
namespace {

namespace fs = std::filesystem;

Status write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) return make_error(ErrorCode::kIo, "cannot write " + path);
  return {};
}

Status write_chart(const Chart& chart, const PlotOptions& o, const Theme& theme,
                   const std::string& stem, PlotResult* result) {
  if (o.svg) {
    SvgCanvas svg(o.width, o.height, theme.background);
    draw_chart(chart, svg, o.width, o.height, theme);
    const std::string path = stem + ".svg";
    if (auto st = write_text(path, svg.finish()); !st) return st;
    result->files.push_back(path);
  }
  if (o.png) {
    auto png = PngCanvas::create(o.width, o.height, theme.background);
    if (!png) return tl::unexpected(png.error());
    draw_chart(chart, **png, o.width, o.height, theme);
    const std::string path = stem + ".png";
    if (auto st = (*png)->write(path); !st) return st;
    result->files.push_back(path);
  }
  return {};
}

// Legend and label names: the folder name, with as many parent folders in front as it takes to
// tell the runs apart; then the part every name shares up to a '-' or '/' (such as
// "mock-model-openai-chat-") is dropped.
void name_runs(std::vector<RunData>* runs) {
  if (runs->size() < 2) return;
  std::vector<std::vector<std::string>> parts;
  size_t longest = 0;
  for (const auto& r : *runs) {
    std::vector<std::string> p;
    for (const auto& e : fs::path(r.dir).lexically_normal())
      if (!e.empty() && e != "/" && e != ".") p.push_back(e.string());
    longest = std::max(longest, p.size());
    parts.push_back(std::move(p));
  }
  for (size_t depth = 1; depth <= longest; ++depth) {
    std::vector<std::string> names;
    for (const auto& p : parts) {
      std::string n;
      for (size_t i = p.size() > depth ? p.size() - depth : 0; i < p.size(); ++i)
        n += (n.empty() ? "" : "/") + p[i];
      names.push_back(n);
    }
    std::vector<std::string> sorted = names;
    std::sort(sorted.begin(), sorted.end());
    const bool unique = std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end();
    if (unique || depth == longest) {
      for (size_t i = 0; i < runs->size(); ++i) (*runs)[i].name = names[i];
      break;
    }
  }
  std::string prefix = runs->front().name;
  for (const auto& r : *runs) {
    size_t n = 0;
    while (n < prefix.size() && n < r.name.size() && prefix[n] == r.name[n]) ++n;
    prefix.resize(n);
  }
  const size_t cut = prefix.find_last_of("-/");
  if (cut == std::string::npos) return;
  for (auto& r : *runs)
    if (r.name.size() > cut + 1) r.name = r.name.substr(cut + 1);
}

}  // namespace

Result<PlotResult> write_plots(const PlotOptions& o) {
  if (o.dirs.empty())
    return make_error(ErrorCode::kInvalidArgument,
                      "no run folder given; pass one or more artifact folders");
  if (o.width < 200 || o.height < 150 || o.width > 8000 || o.height > 8000)
    return make_error(ErrorCode::kInvalidArgument,
                      "--width/--height must be within 200x150 and 8000x8000 pixels");
  if (o.png && !png_available())
    return make_error(ErrorCode::kUnsupported,
                      "PNG output needs cairo (libcairo.so.2); install Debian's libcairo2, or "
                      "use --format svg");
  std::vector<RunData> runs;
  for (const auto& d : o.dirs) {
    auto r = load_run(d);
    if (!r) return tl::unexpected(r.error());
    runs.push_back(std::move(*r));
  }
  name_runs(&runs);
  PlotResult result;
  result.out_dir = o.out_dir.empty() ? (fs::path(o.dirs.front()) / "plots").string() : o.out_dir;
  std::error_code ec;
  fs::create_directories(result.out_dir, ec);
  if (ec || !fs::is_directory(result.out_dir))
    return make_error(ErrorCode::kIo, "cannot create the output folder " + result.out_dir +
                                          "; choose another with -o");
  const std::vector<Chart> charts =
      runs.size() == 1 ? single_run_charts(runs.front()) : multi_run_charts(runs);
  const Theme theme = o.dark ? dark_theme() : light_theme();
  for (const Chart& c : charts)
    if (auto st = write_chart(c, o, theme, (fs::path(result.out_dir) / c.id).string(), &result);
        !st)
      return tl::unexpected(st.error());
  return result;
}

}  // namespace servebench::plot
