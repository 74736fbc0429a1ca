// servebench: parses the subcommand, runs it, maps the exit code. Nothing else lives here.
#include <cstdio>
#include <cstring>
#include <string_view>

#include "cli/commands.h"
#include "shard/build_info.h"

#ifndef SERVEBENCH_VERSION
#define SERVEBENCH_VERSION "0.0.0"
#endif

namespace {

void print_usage(std::FILE* out) {
  std::fprintf(out,
               "servebench %s: benchmark client for LLM inference servers\n\n"
               "usage: servebench <command> [options]\n\n"
               "commands:\n"
               "  profile    run a benchmark against an OpenAI-compatible server (AIPerf flags)\n"
               "  tokenize   encode or decode text with a tokenizer, or count its tokens\n"
               "  report     recompute a run's summary files and report.html from its files\n"
               "  compare    compare runs: differences with bootstrap intervals, compare.html\n"
               "  plot       SVG/PNG charts of one run, or comparison charts of several\n"
               "  config     YAML config files: init from a template, validate, expand a sweep\n"
               "  analyze-trace  ISL/OSL, rate and prefix-cache hit rate of a mooncake trace\n"
               "  merge      one run's artifacts from the folders of its shards (--shard I/N)\n"
               "  launch     print a Kubernetes Indexed Job or a Slurm batch script for shards\n"
               "  search     the highest concurrency or request rate that meets SLOs\n"
               "  selftest   this machine's client limits: lag, timing error, CPU per request\n"
               "  synthesize write the synthetic prompts of a profile run to a replayable file\n"
               "  chat       talk to a chat endpoint, with each turn's TTFT, tokens/s and latency\n\n"
               "run 'servebench <command> --help' for a command's options\n",
               SERVEBENCH_VERSION);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    print_usage(stderr);
    return 2;
  }
  const std::string_view cmd = argv[1];
  if (cmd == "-h" || cmd == "--help" || cmd == "help") {
    print_usage(stdout);
    return 0;
  }
  if (cmd == "--version" || cmd == "version") {
    std::fputs(servebench::shard::build_info_text().c_str(), stdout);
    return 0;
  }
  if (cmd == "profile") return servebench::cli::run_profile(argc - 1, argv + 1);
  if (cmd == "tokenize") return servebench::cli::run_tokenize(argc - 1, argv + 1);
  if (cmd == "report") return servebench::cli::run_report(argc - 1, argv + 1);
  if (cmd == "compare") return servebench::cli::run_compare(argc - 1, argv + 1);
  if (cmd == "plot") return servebench::cli::run_plot(argc - 1, argv + 1);
  if (cmd == "config") return servebench::cli::run_config(argc - 1, argv + 1);
  if (cmd == "analyze-trace") return servebench::cli::run_analyze_trace(argc - 1, argv + 1);
  if (cmd == "merge") return servebench::cli::run_merge(argc - 1, argv + 1);
  if (cmd == "launch") return servebench::cli::run_launch(argc - 1, argv + 1);
  if (cmd == "search") return servebench::cli::run_search(argc - 1, argv + 1);
  if (cmd == "selftest") return servebench::cli::run_selftest(argc - 1, argv + 1);
  if (cmd == "synthesize") return servebench::cli::run_synthesize(argc - 1, argv + 1);
  if (cmd == "chat") return servebench::cli::run_chat(argc - 1, argv + 1);
  std::fprintf(stderr, "servebench: unknown command '%s' (expected profile, tokenize, report, compare, plot, config, analyze-trace, merge, launch, search, selftest, synthesize or chat; see --help)\n",
               argv[1]);
  return 2;
}
