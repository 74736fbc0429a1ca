// servebench report: recomputes a finished run's summary from its profile_export.jsonl.
//
//   servebench report DIR [--profile-export-prefix P] [--quiet]
//
// Rewrites DIR/profile_export_aiperf.json, .csv and profile_export_console.txt (P.json, P.csv,
// P_console.txt with a prefix), then DIR/report.html from those files (not with --no-report),
// and prints the console table (not with --quiet). Run metadata
// comes from the existing JSON (export/report.h). Exit codes: 0 ok, 1 a --fail-on gate of the
// run fails on the recomputed summary, 2 bad arguments or missing/malformed files, 3 a write
// failure.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <string>

#include "cli/cli_parse.h"
#include "cli/commands.h"
#include "export/report.h"
#include "report_html/report_html.h"

namespace servebench::cli {

int run_report(int argc, char** argv) {
  CLI::App app{"servebench report: recompute a run's summary files from its profile_export.jsonl",
               "servebench report"};
  exporter::ReportOptions options;
  bool quiet = false;
  bool no_report = false;
  app.add_option("dir", options.artifact_dir, "The run's artifact folder")->required();
  app.add_option("--profile-export-prefix", options.profile_export_prefix,
                 "The run's --profile-export-prefix, when it had one");
  app.add_flag("-q,--quiet", quiet, "Do not print the console table");
  app.add_flag("--no-report", no_report, "Do not write report.html");
  if (auto stop = parse_command_line(app, "report", argc, argv)) return *stop;
  options.print_console = !quiet;
  auto out = exporter::report_from_artifacts(options);
  if (!out) {
    std::fprintf(stderr, "servebench report: %s\n", out.error().message.c_str());
    return out.error().is_usage() ? 2 : 3;
  }
  if (!no_report) {
    auto html = report_html::write_report({options.artifact_dir, options.profile_export_prefix});
    if (!html) {
      std::fprintf(stderr, "servebench report: report.html: %s\n", html.error().message.c_str());
      return html.error().is_usage() ? 2 : 3;
    }
    if (!quiet) std::fprintf(stderr, "servebench report: wrote %s\n", html->path.c_str());
  }
  if (out->gate_failed) {
    for (const auto& m : out->gate_messages) {
      std::fprintf(stderr, "servebench report: gate failed: %s\n", m.c_str());
    }
    return 1;
  }
  return 0;
}

}  // namespace servebench::cli
