// servebench plot: SVG and PNG charts of one or more finished runs, without a browser.
//
//   servebench plot DIR... [-o OUT] [--format svg|png|both] [--width W] [--height H]
//                   [--theme light|dark]
//
// One folder: that run's charts; several: comparison charts (plot/charts.h). OUT defaults to
// <first DIR>/plots. Exit codes: 0 ok, 2 bad arguments or unreadable run folders, 3 a write
// failure.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>

#include "cli/cli_parse.h"
#include "cli/commands.h"
#include "plot/plot_files.h"

namespace servebench::cli {

int run_plot(int argc, char** argv) {
  CLI::App app{"servebench plot: SVG/PNG charts of finished runs (several folders: comparison)",
               "servebench plot"};
  plot::PlotOptions o;
  std::string format = "both", theme = "light";
  app.add_option("dirs,--paths", o.dirs, "Run artifact folders (AIPerf: --paths)")->required();
  app.add_option("-o,--output", o.out_dir, "Output folder (default <first DIR>/plots)");
  app.add_option("--format", format, "svg, png or both")
      ->check(CLI::IsMember({"svg", "png", "both"}));
  app.add_option("--width", o.width, "Image width in pixels (default 900)");
  app.add_option("--height", o.height, "Image height in pixels (default 500)");
  app.add_option("--theme", theme, "light or dark")->check(CLI::IsMember({"light", "dark"}));
  if (auto stop = parse_command_line(app, "plot", argc, argv)) return *stop;
  o.svg = format != "png";
  o.png = format != "svg";
  o.dark = theme == "dark";
  auto r = plot::write_plots(o);
  if (!r) {
    std::fprintf(stderr, "servebench plot: %s\n", r.error().message.c_str());
    return r.error().is_usage() ? 2 : 3;
  }
  std::fprintf(stderr, "servebench plot: %zu file(s) in %s\n", r->files.size(), r->out_dir.c_str());
  return 0;
}

}  // namespace servebench::cli
