// Google Benchmark: CPU per SSE event on the receive path without the network -- SseParser
// framing alone, and framing + chat EventParser (simdjson) into a RequestRecord, over a
// recorded vLLM-style stream fed in socket-sized reads; and the chat EventParser alone on single
// events, with its fast path (openai_fast_event.h) and on the general path only.
#include <benchmark/benchmark.h>

#include <string>

#include "endpoints/endpoint.h"
#include "endpoints/openai_fast_event.h"
#include "transport/sse_parser.h"

namespace {

// `usage_objects`: every chunk carries a usage object, as vLLM's continuous_usage_stats writes
// it, instead of "usage":null.
std::string make_stream(int events, bool usage_objects = false) {
  std::string s;
  for (int i = 0; i < events; ++i) {
    s += "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1732000000,"
         "\"model\":\"meta-llama/Llama-3.1-8B-Instruct\",\"choices\":[{\"index\":0,\"delta\":"
         "{\"content\":\" word\"},\"logprobs\":null,\"finish_reason\":null}],\"usage\":";
    s += usage_objects ? "{\"prompt_tokens\":512,\"total_tokens\":" + std::to_string(513 + i) +
                             ",\"completion_tokens\":" + std::to_string(1 + i) +
                             ",\"prompt_tokens_details\":{\"cached_tokens\":448}}}\n\n"
                       : std::string("null}\n\n");
  }
  s += "data: [DONE]\n\n";
  return s;
}

void BM_SseFramingOnly(benchmark::State& state) {
  const std::string stream = make_stream(1000);
  const size_t read_size = static_cast<size_t>(state.range(0));
  int64_t events = 0;
  for (auto _ : state) {
    servebench::transport::SseParser p;
    for (size_t off = 0; off < stream.size(); off += read_size) {
      p.feed(std::string_view(stream).substr(off, read_size), 1, [&](const servebench::transport::SseEvent& ev) {
        benchmark::DoNotOptimize(ev.data.data());
        ++events;
      });
    }
  }
  state.counters["ns_per_event"] = benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_SseFramingOnly)->Arg(16384)->Arg(512);

void BM_SseFramingAndChatParse(benchmark::State& state) {
  const std::string stream = make_stream(1000, state.range(1) != 0);
  const size_t read_size = static_cast<size_t>(state.range(0));
  auto parser = servebench::endpoints::make_event_parser("chat");
  int64_t events = 0;
  for (auto _ : state) {
    servebench::transport::SseParser p;
    servebench::record::RequestRecord rec;
    for (size_t off = 0; off < stream.size(); off += read_size) {
      p.feed(std::string_view(stream).substr(off, read_size), 1, [&](const servebench::transport::SseEvent& ev) {
        parser->parse_event(ev.data, ev.recv_ns, &rec);
        ++events;
      });
    }
    benchmark::DoNotOptimize(rec.output_text.data());
  }
  state.counters["ns_per_event"] = benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
// Args: read size, usage object on every chunk (0/1).
BENCHMARK(BM_SseFramingAndChatParse)->Args({16384, 0})->Args({512, 0})->Args({16384, 1});

// The mock server's events: content (180 bytes), usage-only, and content the fast path leaves
// to the general one (non-ASCII text).
const char* const kMockEvents[] = {
    R"({"id":"chatcmpl-0","object":"chat.completion.chunk","created":1,"model":"mock-model","choices":[{"index":0,"delta":{"content":" the"},"logprobs":null,"finish_reason":null}]})",
    R"({"id":"chatcmpl-0","object":"chat.completion.chunk","created":1,"model":"mock-model","choices":[],"usage":{"prompt_tokens":1,"total_tokens":3,"completion_tokens":2}})",
    R"({"id":"chatcmpl-0","object":"chat.completion.chunk","created":1,"model":"mock-model","choices":[{"index":0,"delta":{"content":" )"
    "\xC3\xA9t\xC3\xA9"  // "été"
    R"("},"logprobs":null,"finish_reason":null}]})",
};

// One event parsed again and again into a record that is reset every 1000 events.
void BM_ChatEventParse(benchmark::State& state) {
  const std::string_view event = kMockEvents[state.range(0)];
  auto parser = servebench::endpoints::make_openai_event_parser(
      state.range(1) != 0 ? servebench::endpoints::OpenAiParsePath::kFastFirst
                          : servebench::endpoints::OpenAiParsePath::kGeneralOnly);
  servebench::record::RequestRecord rec;
  rec.chunks.reserve(1000);
  rec.output_text.reserve(16000);
  int64_t events = 0;
  for (auto _ : state) {
    if (rec.chunks.size() == 1000) {
      rec.chunks.clear();
      rec.output_text.clear();
    }
    parser->parse_event(event, 1, &rec);
    ++events;
  }
  state.counters["ns_per_event"] = benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
// Args: event (0 content, 1 usage, 2 non-ASCII content), fast path (0/1).
BENCHMARK(BM_ChatEventParse)->ArgsProduct({{0, 1, 2}, {0, 1}});

}  // namespace

BENCHMARK_MAIN();
