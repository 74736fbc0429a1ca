// transport_loadgen: closed-loop load through one EventLoop + HttpClient (the libcurl path) on
// one thread, for benchmark 1 (requests/s and client CPU per request next to wrk) and
// benchmark 2 (client CPU per SSE event). Not a Google Benchmark binary: it needs a server.
//
//   transport_loadgen --url http://127.0.0.1:8080/v1/chat/completions --connections 64
//                     --duration-s 5 [--body FILE] [--parse] [--http2] [--fresh] [--method GET] [--curl]
//
// --parse runs every response through SseParser and the chat EventParser into a fresh
// RequestRecord (what a worker does), so the numbers include framing and JSON parsing.
// Prints one line of key=value results; CPU is getrusage(RUSAGE_SELF) user+system.
#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "endpoints/endpoint.h"
#include "transport/event_loop.h"
#include "transport/http1_client.h"
#include "transport/http_client.h"
#include "transport/sse_parser.h"

namespace sb = servebench;
using sb::transport::EventLoop;
using sb::transport::HttpClient;
using sb::transport::HttpRequest;

namespace {

struct Options {
  std::string url = "http://127.0.0.1:8080/v1/chat/completions";
  int connections = 64;
  double duration_s = 5;
  std::string body =
      "{\"messages\":[{\"role\":\"user\",\"content\":\"hello\"}],\"model\":\"mock-model\","
      "\"stream\":true,\"stream_options\":{\"include_usage\":true},\"max_completion_tokens\":4}";
  bool parse = false;
  bool http2 = false;
  bool fresh = false;
  std::string method = "POST";
  bool curl = false;  // force libcurl (default: make_http_client, native HTTP/1.1 for http://)
};

int64_t cpu_ns() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  auto tv = [](const timeval& t) { return int64_t(t.tv_sec) * 1'000'000'000 + int64_t(t.tv_usec) * 1000; };
  return tv(ru.ru_utime) + tv(ru.ru_stime);
}

class Runner;

struct Slot : sb::transport::ResponseHandler {
  Runner* runner = nullptr;
  sb::transport::SseParser sse;
  sb::record::RequestRecord rec;
  void on_headers(int status, int64_t) override { rec.http_status = status; }
  void on_body(std::string_view bytes, int64_t recv_ns) override;
  void on_complete(sb::record::ErrorKind e, std::string_view msg, int64_t, bool) override;
};

class Runner {
 public:
  Runner(const Options& o, EventLoop& loop, HttpClient& client)
      : opts_(o), loop_(loop), client_(client), parser_(sb::endpoints::make_event_parser("chat")) {
    request_.url = o.url;
    request_.method = o.method;
    if (o.method != "GET") request_.body = o.body;
    request_.headers = {"Content-Type: application/json"};
    request_.fresh_connection = o.fresh;
    slots_.resize(o.connections);
    for (Slot& s : slots_) s.runner = this;
  }

  void run() {
    const int64_t t0 = loop_.clock().now_ns();
    deadline_ns_ = t0 + static_cast<int64_t>(opts_.duration_s * 1e9);
    // Warm-up: one round on every connection, not counted.
    warming_ = true;
    for (Slot& s : slots_) start(&s);
    while (client_.in_flight() > 0) loop_.run_once(-1);
    warming_ = false;
    completed_ = errors_ = events_ = 0;
    const int64_t c0 = cpu_ns();
    const int64_t w0 = loop_.clock().now_ns();
    deadline_ns_ = w0 + static_cast<int64_t>(opts_.duration_s * 1e9);
    for (Slot& s : slots_) start(&s);
    while (client_.in_flight() > 0) loop_.run_once(-1);
    const int64_t w1 = loop_.clock().now_ns();
    const int64_t c1 = cpu_ns();
    const double secs = (w1 - w0) / 1e9;
    std::printf(
        "requests=%lld errors=%lld seconds=%.3f rps=%.0f cpu_us_per_request=%.2f events=%lld "
        "cpu_ns_per_event=%.0f cpu_util=%.2f\n",
        static_cast<long long>(completed_), static_cast<long long>(errors_), secs, completed_ / secs,
        completed_ ? (c1 - c0) / 1e3 / completed_ : 0.0, static_cast<long long>(events_),
        events_ ? double(c1 - c0) / events_ : 0.0, (c1 - c0) / 1e9 / secs);
  }

  void on_body(Slot* s, std::string_view bytes, int64_t recv_ns) {
    if (!opts_.parse) return;
    s->sse.feed(bytes, recv_ns, [&](const sb::transport::SseEvent& ev) {
      ++events_;
      parser_->parse_event(ev.data, ev.recv_ns, &s->rec);
    });
  }

  void on_complete(Slot* s, sb::record::ErrorKind e, std::string_view msg) {
    if (e != sb::record::ErrorKind::kNone || s->rec.http_status != 200) {
      if (errors_++ < 3) std::fprintf(stderr, "error: %s (status %d)\n", std::string(msg).c_str(), s->rec.http_status);
    }
    ++completed_;
    if (loop_.clock().now_ns() < deadline_ns_ && !warming_) start(s);
  }

 private:
  void start(Slot* s) {
    s->sse.reset();
    s->rec.chunks.clear();
    s->rec.output_text.clear();
    s->rec.reasoning_text.clear();
    s->rec.http_status = 0;
    auto id = client_.start(request_, s);
    if (!id) {
      std::fprintf(stderr, "start failed: %s\n", id.error().message.c_str());
      std::exit(1);
    }
  }

  Options opts_;
  EventLoop& loop_;
  HttpClient& client_;
  std::unique_ptr<sb::endpoints::EventParser> parser_;
  HttpRequest request_;
  std::vector<Slot> slots_;
  int64_t deadline_ns_ = 0;
  bool warming_ = false;
  long long completed_ = 0, errors_ = 0, events_ = 0;
};

void Slot::on_body(std::string_view bytes, int64_t recv_ns) { runner->on_body(this, bytes, recv_ns); }
void Slot::on_complete(sb::record::ErrorKind e, std::string_view msg, int64_t, bool) {
  runner->on_complete(this, e, msg);
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "%s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--url") o.url = next();
    else if (a == "--connections") o.connections = std::atoi(next().c_str());
    else if (a == "--duration-s") o.duration_s = std::atof(next().c_str());
    else if (a == "--body") {
      std::ifstream in(next());
      std::stringstream ss;
      ss << in.rdbuf();
      o.body = ss.str();
    } else if (a == "--parse") o.parse = true;
    else if (a == "--http2") o.http2 = true;
    else if (a == "--fresh") o.fresh = true;
    else if (a == "--method") o.method = next();
    else if (a == "--curl") o.curl = true;
    else {
      std::fprintf(stderr, "unknown option %s (see the header of transport_loadgen.cc)\n", a.c_str());
      return 2;
    }
  }
  auto loop = EventLoop::create(sb::core::SteadyClock::instance());
  if (!loop) return 3;
  sb::transport::ClientOptions co;
  co.http_version = o.http2 ? 2 : 1;
  co.verify_tls = false;
  co.native_http1 = !o.curl;
  auto client = sb::transport::make_http_client(**loop, co);
  if (!client) return 3;
  Runner r(o, **loop, **client);
  r.run();
  return 0;
}
