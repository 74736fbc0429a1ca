// Synthetic prompt building: 100,000 prompts of 512 ± 128 tokens with the builtin tokenizer,
// exact length by construction (issue 6 target: < 3 s including the corpus pass).
#include <benchmark/benchmark.h>

#include "dataset/conversations.h"
#include "dataset/exact_prompts.h"
#include "dataset/synthetic_prompts.h"

namespace {

namespace sd = servebench::dataset;

void BM_Build100kPrompts(benchmark::State& state) {
  auto corpus = sd::load_corpus(sd::default_corpus_path());
  auto tok = servebench::tokenizer::load_tokenizer("builtin");
  if (!corpus || !tok) {
    state.SkipWithError("corpus or builtin tokenizer missing");
    return;
  }
  sd::SyntheticPromptOptions o;
  o.num_entries = state.range(0);
  o.isl_mean_tokens = 512;
  o.isl_stddev_tokens = 128;
  o.seed = 42;
  int64_t tokens = 0;
  for (auto _ : state) {
    auto r = sd::build_synthetic_prompts(*corpus, **tok, o);
    if (!r) state.SkipWithError(r.error().message.c_str());
    for (const auto& p : *r) tokens += p.input_tokens;
    benchmark::DoNotOptimize(r);
  }
  state.counters["prompts/s"] = benchmark::Counter(static_cast<double>(o.num_entries) * state.iterations(),
                                                   benchmark::Counter::kIsRate);
  state.counters["tokens/s"] = benchmark::Counter(static_cast<double>(tokens), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Build100kPrompts)->Arg(100'000)->Unit(benchmark::kMillisecond)->Iterations(2);

// The path `servebench profile` takes: conversations (here single-turn, 512 ± 128 tokens).
void BM_Build100kConversations(benchmark::State& state) {
  auto corpus = sd::load_corpus(sd::default_corpus_path());
  auto tok = servebench::tokenizer::load_tokenizer("builtin");
  if (!corpus || !tok) {
    state.SkipWithError("corpus or builtin tokenizer missing");
    return;
  }
  sd::ConversationOptions o;
  o.num_conversations = state.range(0);
  o.isl_mean = 512;
  o.isl_stddev = 128;
  o.seed = 42;
  for (auto _ : state) {
    auto builder = sd::ExactPromptBuilder::create(*corpus, **tok);
    if (!builder) state.SkipWithError(builder.error().message.c_str());
    auto r = sd::build_synthetic_conversations(*builder, **tok, o);
    if (!r) state.SkipWithError(r.error().message.c_str());
    benchmark::DoNotOptimize(r);
  }
  state.counters["prompts/s"] = benchmark::Counter(static_cast<double>(o.num_conversations) * state.iterations(),
                                                   benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Build100kConversations)->Arg(100'000)->Unit(benchmark::kMillisecond)->Iterations(2);

void BM_BuilderCreate(benchmark::State& state) {
  auto corpus = sd::load_corpus(sd::default_corpus_path());
  auto tok = servebench::tokenizer::load_tokenizer("builtin");
  if (!corpus || !tok) {
    state.SkipWithError("corpus or builtin tokenizer missing");
    return;
  }
  for (auto _ : state) benchmark::DoNotOptimize(sd::ExactPromptBuilder::create(*corpus, **tok));
}
BENCHMARK(BM_BuilderCreate)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace

BENCHMARK_MAIN();
