// Google Benchmark: CPU per HTTP/1.1 response head (http1::parse_head), the part of every
// response the load engine parses before the body: nginx's head (5 fields), vLLM's (uvicorn,
// 4 fields plus chunked framing) and a long one (20 fields of proxy and tracing headers).
#include <benchmark/benchmark.h>

#include <string>

#include "transport/http1_fields.h"

namespace {

const std::string kNginx =
    "HTTP/1.1 200 OK\r\nServer: nginx/1.22.1\r\nDate: Mon, 07 Dec 2026 13:35:10 GMT\r\n"
    "Content-Type: text/event-stream\r\nContent-Length: 748\r\nConnection: keep-alive\r\n\r\n";
const std::string kUvicorn =
    "HTTP/1.1 200 OK\r\ndate: Mon, 07 Dec 2026 13:35:10 GMT\r\nserver: uvicorn\r\n"
    "content-type: text/event-stream; charset=utf-8\r\ntransfer-encoding: chunked\r\n\r\n";

std::string long_head() {
  std::string s = kNginx.substr(0, kNginx.size() - 2);
  for (int i = 0; i < 15; ++i)
    s += "X-Trace-Header-" + std::to_string(i) + ": 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01\r\n";
  return s + "\r\n";
}

void run(benchmark::State& state, const std::string& head) {
  for (auto _ : state) {
    int status = 0;
    servebench::transport::http1::Framing framing;
    std::string error;
    benchmark::DoNotOptimize(servebench::transport::http1::parse_head(head, &status, &framing, &error));
    benchmark::DoNotOptimize(framing);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * head.size()));
}

void BM_HeadNginx(benchmark::State& state) { run(state, kNginx); }
void BM_HeadUvicorn(benchmark::State& state) { run(state, kUvicorn); }
void BM_HeadLong(benchmark::State& state) { run(state, long_head()); }
BENCHMARK(BM_HeadNginx);
BENCHMARK(BM_HeadUvicorn);
BENCHMARK(BM_HeadLong);

}  // namespace

BENCHMARK_MAIN();
