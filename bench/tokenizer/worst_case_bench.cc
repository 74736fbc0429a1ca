// Worst-case tokenizer input: one huge pre-tokenized piece (no whitespace) against prose of the
// same size. A broken or adversarial server can stream such a text; counting it must not cost
// much more than counting prose. One encode per benchmark (the input is megabytes).
//   build/bin/bench_tokenizer_worst [--benchmark_filter=builtin]
//   SERVEBENCH_WORST_MB=10 build/bin/bench_tokenizer_worst   (input size, default 10 MB)
// Report MB/s as bytes_per_second; the "tokens" counter lets runs be compared for equality.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>

#include "tokenizer/fixtures.h"
#include "tokenizer/tokenizer.h"

namespace servebench::tokenizer {
namespace {

size_t input_bytes() {
  const char* v = std::getenv("SERVEBENCH_WORST_MB");
  double mb = v && *v ? std::atof(v) : 10.0;
  return static_cast<size_t>(mb * 1e6);
}

// Repeats `unit` to `n` bytes, cut back to a UTF-8 character boundary.
std::string repeat_to(const std::string& unit, size_t n) {
  std::string s;
  s.reserve(n + unit.size());
  while (s.size() < n) s += unit;
  s.resize(n);
  while (!s.empty() && (static_cast<unsigned char>(s.back()) & 0xC0) == 0x80) s.pop_back();
  if (!s.empty() && static_cast<unsigned char>(s.back()) >= 0xC0) s.pop_back();
  return s;
}

std::string random_letters(size_t n) {
  std::string s(n, 'a');
  uint64_t x = 0x9E3779B97F4A7C15ull;  // xorshift: same text on every run
  for (char& c : s) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    c = static_cast<char>('a' + x % 26);
  }
  return s;
}

std::string make_input(const std::string& kind) {
  size_t n = input_bytes();
  if (kind == "repeated_char") return std::string(n, 'a');
  if (kind == "random_letters") return random_letters(n);
  if (kind == "emoji") return repeat_to("\xF0\x9F\x98\x80", n);  // U+1F600
  return repeat_to(testing::read_file(testing::source_dir() + "/data/corpus/mobydick.txt"), n);
}

void BM_Worst(benchmark::State& state, const std::string& family, const std::string& kind) {
  std::string spec = family == "builtin" ? "builtin" : testing::family_paths().at(family);
  auto tok = load_tokenizer(spec);
  if (!tok) {
    state.SkipWithError(tok.error().message.c_str());
    return;
  }
  const std::string text = make_input(kind);
  size_t tokens = 0;
  for (auto _ : state) tokens = (*tok)->count(text);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
  state.counters["tokens"] = static_cast<double>(tokens);
}

int register_all() {
  // Byte-level BPE (o200k builtin, Llama-3, Qwen3), SentencePiece-style BPE with byte fallback
  // (Llama-2 / Mistral), and Unigram.
  for (const char* f : {"builtin", "llama3", "qwen3", "mistral_legacy", "unigram"}) {
    for (const char* k : {"prose", "repeated_char", "random_letters", "emoji"}) {
      benchmark::RegisterBenchmark((std::string("Worst/") + f + "/" + k).c_str(), BM_Worst,
                                   std::string(f), std::string(k))
          ->Unit(benchmark::kMillisecond)
          ->Iterations(1);
    }
  }
  return 0;
}
const int kRegistered = register_all();

}  // namespace
}  // namespace servebench::tokenizer

BENCHMARK_MAIN();
