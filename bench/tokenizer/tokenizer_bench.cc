// Tokenizer speed: single-threaded encode throughput on the vendored Moby Dick text (1.26 MB),
// load time of real tokenizer.json files, and resident memory added by a load.
//   build/bin/bench_tokenizer [--benchmark_filter=Encode]
// Compare with the reference: node bench/tokenizer/reference_bench.js (same text, same files).
#include <benchmark/benchmark.h>

#include <fstream>
#include <string>
#include <unistd.h>

#include "tokenizer/fixtures.h"
#include "tokenizer/tokenizer.h"

namespace servebench::tokenizer {
namespace {

std::string spec_for(const std::string& family) {
  return family == "builtin" ? "builtin" : testing::family_paths().at(family);
}

const std::string& moby() {
  static const std::string text = testing::read_file(testing::source_dir() + "/data/corpus/mobydick.txt");
  return text;
}

size_t rss_bytes() {
  std::ifstream in("/proc/self/statm");
  size_t pages = 0, rss = 0;
  in >> pages >> rss;
  return rss * static_cast<size_t>(::sysconf(_SC_PAGESIZE));
}

// Whole text as one encode call (HF: tokenizer.encode(text)), cold per-thread cache each time
// would be unrealistic: the cache is part of the design, so iterations after the first reuse it.
void BM_Encode(benchmark::State& state, const std::string& family) {
  auto tok = load_tokenizer(spec_for(family));
  if (!tok) {
    state.SkipWithError(tok.error().message.c_str());
    return;
  }
  const std::string& text = moby();
  size_t tokens = 0;
  for (auto _ : state) {
    auto ids = (*tok)->encode(text, false);
    tokens = ids.size();
    benchmark::DoNotOptimize(ids.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
  state.counters["tokens/s"] = benchmark::Counter(static_cast<double>(tokens) * state.iterations(),
                                                  benchmark::Counter::kIsRate);
  state.counters["tokens"] = static_cast<double>(tokens);
}

// First encode after a fresh load: the per-thread word cache starts empty.
void BM_EncodeCold(benchmark::State& state, const std::string& family) {
  const std::string& text = moby();
  size_t tokens = 0;
  for (auto _ : state) {
    state.PauseTiming();
    auto tok = family == "builtin" ? load_tokenizer(testing::family_paths().at("gpt4o"))
                                   : load_tokenizer(spec_for(family));
    state.ResumeTiming();
    if (!tok) {
      state.SkipWithError(tok.error().message.c_str());
      return;
    }
    tokens = (*tok)->encode(text, false).size();
    state.PauseTiming();
    tok = {};
    state.ResumeTiming();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
  state.counters["tokens/s"] = benchmark::Counter(static_cast<double>(tokens) * state.iterations(),
                                                  benchmark::Counter::kIsRate);
}

// Encode line by line (many short texts, as prompts are).
void BM_EncodeLines(benchmark::State& state, const std::string& family) {
  auto tok = load_tokenizer(spec_for(family));
  if (!tok) {
    state.SkipWithError(tok.error().message.c_str());
    return;
  }
  std::vector<std::string_view> lines;
  const std::string& text = moby();
  for (size_t pos = 0; pos < text.size();) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    lines.emplace_back(text.data() + pos, nl - pos + (nl < text.size()));
    pos = nl + 1;
  }
  size_t tokens = 0;
  for (auto _ : state) {
    tokens = 0;
    for (auto l : lines) tokens += (*tok)->count(l);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
  state.counters["tokens/s"] = benchmark::Counter(static_cast<double>(tokens) * state.iterations(),
                                                  benchmark::Counter::kIsRate);
}

void BM_Load(benchmark::State& state, const std::string& family) {
  std::string spec = spec_for(family);
  size_t before = rss_bytes();
  std::shared_ptr<const Tokenizer> keep;
  for (auto _ : state) {
    auto tok = load_tokenizer(spec);
    if (!tok) {
      state.SkipWithError(tok.error().message.c_str());
      return;
    }
    keep = *tok;
  }
  state.counters["rss_MB_after_load"] = static_cast<double>(rss_bytes() - before) / 1e6;
}

const char* kFamilies[] = {"builtin", "qwen3", "llama3", "gpt4o", "gpt2", "deepseek_v3", "gemma3",
                           "mistral_legacy", "bert", "unigram"};

int register_all() {
  for (const char* f : kFamilies) {
    benchmark::RegisterBenchmark((std::string("Encode/") + f).c_str(), BM_Encode, std::string(f))
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark((std::string("EncodeLines/") + f).c_str(), BM_EncodeLines, std::string(f))
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark((std::string("EncodeCold/") + f).c_str(), BM_EncodeCold, std::string(f))
        ->Unit(benchmark::kMillisecond)
        ->Iterations(3);
  }
  for (const char* f : {"builtin", "qwen3", "llama3", "gemma3"}) {
    benchmark::RegisterBenchmark((std::string("Load/") + f).c_str(), BM_Load, std::string(f))
        ->Unit(benchmark::kMillisecond)
        ->Iterations(3);
  }
  return 0;
}
const int kRegistered = register_all();

}  // namespace
}  // namespace servebench::tokenizer

BENCHMARK_MAIN();
