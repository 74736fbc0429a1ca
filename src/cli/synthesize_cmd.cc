// `servebench synthesize -o FILE [profile prompt flags]`: writes the synthetic workload that
// `servebench profile` would send with the same flags and seed as a multi_turn JSONL file, which
// `servebench profile --input-file FILE` replays with the same prompts (app/synthesize.h).
// Seed: --random-seed, else 42. Exit 0 written, 2 bad flags or an unwritable file.
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "app/synthesize.h"
#include "cli/commands.h"
#include "config/cli_options.h"
#include "yaml_config/yaml_config.h"

namespace servebench::cli {
namespace {

constexpr uint64_t kDefaultSeed = 42;  // AIPerf's synthesize default

int fail(const std::string& msg) {
  std::fprintf(stderr, "servebench synthesize: %s\n", msg.c_str());
  return 2;
}

void usage() {
  std::puts(
      "usage: servebench synthesize -o FILE.jsonl [profile prompt flags]\n\n"
      "Writes the synthetic prompts `servebench profile` would send with the same flags as a\n"
      "multi_turn JSONL file (one conversation per line); `servebench profile --input-file FILE`\n"
      "replays the same texts (add --dataset-sampling-strategy shuffle and the same\n"
      "--random-seed for the same order).\n\n"
      "  -o, --output FILE        the file to write (\"-\" for standard output)\n"
      "  prompt flags             -m, --tokenizer, --isl, --isl-stddev, --osl, --osl-stddev,\n"
      "                           --num-dataset-entries, --num-sessions, --session-turns-mean,\n"
      "                           --session-turn-delay-mean, --sequence-distribution,\n"
      "                           --prefix-prompt-pool-size, --prefix-prompt-length, -f FILE.yaml...\n"
      "  --random-seed N          the seed (default 42)");
}

}  // namespace

int run_synthesize(int argc, char** argv) {
  std::string output;
  std::vector<std::string> rest = {"profile"};
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "-h" || a == "--help") {
      usage();
      return 0;
    }
    if (a == "-o" || a == "--output") {
      if (i + 1 >= argc) return fail(a + " needs a file name (e.g. -o workload.jsonl)");
      output = argv[++i];
    } else if (a.rfind("--output=", 0) == 0) {
      output = a.substr(9);
    } else {
      rest.push_back(a);
    }
  }
  if (output.empty()) return fail("-o/--output FILE is required (e.g. -o workload.jsonl)");
  std::vector<const char*> raw;
  for (const auto& a : rest) raw.push_back(a.c_str());
  auto expanded = yaml_config::expand_profile_argv(static_cast<int>(raw.size()), raw.data());
  if (!expanded) return fail(expanded.error().message);
  std::vector<const char*> args;
  for (const auto& a : *expanded) args.push_back(a.c_str());
  auto parsed = config::parse_profile_args(static_cast<int>(args.size()), args.data());
  if (!parsed) return fail(parsed.error().message);
  if (!parsed->sweep.empty()) return fail("--" + parsed->sweep.front().name + " takes one value here");
  const uint64_t seed = parsed->config.random_seed.value_or(kDefaultSeed);
  auto file = app::synthesize_workload(parsed->config, seed);
  if (!file) return fail(file.error().message);
  if (output == "-") {
    std::fwrite(file->jsonl.data(), 1, file->jsonl.size(), stdout);
  } else {
    std::ofstream out(output, std::ios::binary | std::ios::trunc);
    out << file->jsonl;
    if (!out.flush()) return fail("cannot write '" + output + "'; check the folder and permissions");
  }
  std::fprintf(stderr,
               "servebench synthesize: %lld conversation(s), %lld turn(s) (seed %llu, tokenizer %s) "
               "→ %s; replay: servebench profile --input-file %s --custom-dataset-type multi_turn\n",
               static_cast<long long>(file->conversations), static_cast<long long>(file->turns),
               static_cast<unsigned long long>(seed), file->tokenizer.c_str(),
               output == "-" ? "stdout" : output.c_str(), output == "-" ? "FILE" : output.c_str());
  return 0;
}

}  // namespace servebench::cli
