// servebench compare: headline metrics of two or more runs, each against the first.
//
//   servebench compare A B [C...] [-o compare.html] [--resamples N] [--seed S]
//                      [--fail-on-regression METRIC[.STAT][:THRESHOLD%]]... [--no-html]
//
// Prints the table (values, difference, 95 % bootstrap interval, verdict) and writes the page
// with the overlays. Exit codes: 0 ok, 1 a --fail-on-regression gate failed, 2 bad arguments or
// a run folder without profile_export_aiperf.json, 3 the page could not be written.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "compare/compare.h"
#include "report_html/page.h"

namespace servebench::cli {
namespace {

struct CompareArgs {
  std::vector<std::string> dirs;
  std::string output = "compare.html";
  std::string prefix;
  int resamples = compare::kDefaultResamples;
  uint64_t seed = compare::kDefaultSeed;
  std::vector<std::string> gates;
  bool no_html = false;
};

int usage(const std::string& message) {
  std::fprintf(stderr, "servebench compare: %s\n", message.c_str());
  return 2;
}

bool write_text(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(text.data(), static_cast<std::streamsize>(text.size()));
  f.close();
  return static_cast<bool>(f);
}

}  // namespace

int run_compare(int argc, char** argv) {
  CLI::App app{"servebench compare: compare runs (each against the first) with bootstrap "
               "intervals of the differences",
               "servebench compare"};
  CompareArgs a;
  app.add_option("runs", a.dirs, "Two or more artifact folders; the first is the baseline")
      ->required();
  app.add_option("-o,--output", a.output, "The page to write (default compare.html)");
  app.add_option("--profile-export-prefix", a.prefix, "The runs' --profile-export-prefix");
  app.add_option("--resamples", a.resamples, "Bootstrap resamples per statistic (default 2000)");
  app.add_option("--seed", a.seed, "Bootstrap seed");
  app.add_option("--fail-on-regression", a.gates,
                 "METRIC[.STAT][:THRESHOLD%]: exit 1 when a run is significantly worse than "
                 "the first by more than THRESHOLD % (default STAT p50, threshold 0)")
      ->allow_extra_args(false);  // one value per occurrence: run folders may follow
  app.add_flag("--no-html", a.no_html, "Do not write the page");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::fputs(app.help().c_str(), stdout);
    return 0;
  } catch (const CLI::ParseError& e) {
    return usage(std::string(e.what()) + " (see servebench compare --help)");
  }
  if (a.dirs.size() < 2) return usage("give at least two run folders (the first is the baseline)");
  if (a.resamples < 100 || a.resamples > 1'000'000)
    return usage("--resamples must be between 100 and 1000000");
  std::vector<compare::RegressionGate> gates;
  for (const auto& g : a.gates) {
    auto parsed = compare::parse_gate(g);
    if (!parsed) return usage(parsed.error().message);
    gates.push_back(*parsed);
  }
  std::vector<report_html::RunFiles> runs;
  for (const auto& d : a.dirs) {
    auto run = report_html::read_run_files(d, a.prefix);
    if (!run) return usage(run.error().message + " (is it a servebench or AIPerf artifact folder?)");
    runs.push_back(std::move(*run));
  }
  const std::vector<std::string> labels = compare::run_labels(a.dirs);
  compare::CompareOptions options;
  options.resamples = a.resamples;
  options.seed = a.seed;
  const compare::Comparison c = compare::compare_runs(runs, labels, options);
  auto failed = compare::failed_gates(c, gates);
  if (!failed) return usage(failed.error().message);
  std::fputs(compare::comparison_text(c).c_str(), stdout);
  if (!a.no_html) {
    const std::string page = report_html::render_page(
        "servebench compare: " + labels[0] + " vs " + std::to_string(labels.size() - 1) + " run(s)",
        compare::compare_data_json(runs, c));
    if (!write_text(a.output, page)) {
      std::fprintf(stderr, "servebench compare: cannot write %s\n", a.output.c_str());
      return 3;
    }
    std::printf("Comparison page: %s\n", a.output.c_str());
  }
  for (const auto& m : *failed) std::fprintf(stderr, "servebench compare: regression: %s\n", m.c_str());
  return failed->empty() ? 0 : 1;
}

}  // namespace servebench::cli
