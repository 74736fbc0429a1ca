// Subcommand entry points. Each returns the process exit code (0 ok, 1 gate failed, 2 usage or
// input error, 3 runtime failure). argv[0] is the subcommand name.
#pragma once

#include <string>

namespace servebench::cli {

int run_profile(int argc, char** argv);
int run_tokenize(int argc, char** argv);
int run_report(int argc, char** argv);
int run_compare(int argc, char** argv);
int run_plot(int argc, char** argv);
int run_config(int argc, char** argv);
int run_analyze_trace(int argc, char** argv);
int run_merge(int argc, char** argv);
int run_launch(int argc, char** argv);
int run_search(int argc, char** argv);
int run_selftest(int argc, char** argv);
int run_synthesize(int argc, char** argv);
int run_chat(int argc, char** argv);

// The search flags in a profile command line (search_cmd.cc): --search-recipe or --search-sla
// ask for the SLO capacity search; a knob (--ttft-sla-ms, --concurrency-min...) needs one of them.
struct SearchFlags {
  bool requested = false;
  bool recipe = false;  // --search-recipe given
  bool over = false;    // --over given
  std::string knob;     // the first knob given, "" when none
};
SearchFlags search_flags_in(int argc, char** argv);

}  // namespace servebench::cli
