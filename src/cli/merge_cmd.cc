// servebench merge: one run's artifacts from the folders of its shards (shard/merge.h).
//
//   servebench merge DIR... -o OUT [--profile-export-prefix P] [--quiet] [--no-report]
//
// Writes OUT/profile_export.jsonl (every shard's records), profile_export_aiperf.json, .csv,
// the console table, inputs.json, shards.json and report.html, and prints each shard's client
// health, start skew and clock offset. Exit codes: 0 ok, 1 a --fail-on gate of the run fails on
// the merged summary, 2 bad arguments or shards that are not one plan, 3 a write failure.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <string>
#include <vector>

#include "cli/cli_parse.h"
#include "cli/commands.h"
#include "report_html/report_html.h"
#include "shard/merge.h"

namespace servebench::cli {

int run_merge(int argc, char** argv) {
  CLI::App app{"servebench merge: one run's artifacts from the folders of its shards",
               "servebench merge"};
  shard::MergeOptions options;
  bool quiet = false;
  bool no_report = false;
  app.add_option("dirs", options.shard_dirs, "The shards' artifact folders (each has shard.json)")
      ->required();
  app.add_option("-o,--output", options.output_dir, "Folder for the merged artifacts")->required();
  app.add_option("--profile-export-prefix", options.profile_export_prefix,
                 "The shards' --profile-export-prefix, when they had one");
  app.add_flag("-q,--quiet", quiet, "Do not print the console table and the shard table");
  app.add_flag("--no-report", no_report, "Do not write report.html");
  if (auto stop = parse_command_line(app, "merge", argc, argv)) return *stop;
  options.print_console = !quiet;
  auto out = shard::merge_shards(options);
  if (!out) {
    std::fprintf(stderr, "servebench merge: %s\n", out.error().message.c_str());
    return out.error().is_usage() ? 2 : 3;
  }
  if (!quiet) std::fputs(shard::health_table(*out).c_str(), stdout);
  if (!no_report) {
    auto html = report_html::write_report({options.output_dir, options.profile_export_prefix});
    if (!html) {
      std::fprintf(stderr, "servebench merge: report.html: %s\n", html.error().message.c_str());
      return html.error().is_usage() ? 2 : 3;
    }
  }
  std::fprintf(stderr, "servebench merge: %zu shards, %lld records; artifacts in %s\n",
               out->shards.size(), static_cast<long long>(out->records), options.output_dir.c_str());
  if (out->exported.gate_failed) {
    for (const auto& m : out->exported.gate_messages)
      std::fprintf(stderr, "servebench merge: gate failed: %s\n", m.c_str());
    return 1;
  }
  return 0;
}

}  // namespace servebench::cli
