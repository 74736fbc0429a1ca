// HttpClient implementations (libcurl, native HTTP/1.1, and the routing factory) against the
// in-test HTTP server on loopback; every test runs against each implementation. These tests run real
// sockets and the real clock, but never sleep: they wait on the event loop until the client
// reports completion, and the server paces streamed pieces on the client's acknowledgements.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <memory>
#include <string>
#include <vector>

#include "transport/event_loop.h"
#include "transport/http1_client.h"
#include "transport/http_client.h"
#include "unit/transport/test_http_server.h"

namespace servebench::transport {
namespace {

using record::ErrorKind;
using testing::TestHttpServer;

struct Recorder : ResponseHandler {
  int64_t sent_ns = 0;
  int status = 0;
  int64_t headers_ns = 0;
  std::vector<std::pair<std::string, int64_t>> pieces;
  std::string body;
  bool done = false;
  ErrorKind error = ErrorKind::kOther;
  std::string message;
  int64_t end_ns = 0;
  bool reused = false;
  TestHttpServer* ack_server = nullptr;  // ack every piece when set
  std::function<void(Recorder&)> on_done;

  void on_request_sent(int64_t t) override { sent_ns = t; }
  void on_headers(int s, int64_t t) override {
    status = s;
    headers_ns = t;
  }
  void on_body(std::string_view bytes, int64_t t) override {
    pieces.emplace_back(std::string(bytes), t);
    body.append(bytes);
    if (ack_server) ack_server->ack();
  }
  void on_complete(ErrorKind e, std::string_view msg, int64_t t, bool r) override {
    done = true;
    error = e;
    message = std::string(msg);
    end_ns = t;
    reused = r;
    if (on_done) on_done(*this);
  }
};

class HttpClientTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    auto loop = EventLoop::create(core::SteadyClock::instance());
    ASSERT_TRUE(loop.has_value());
    loop_ = std::move(*loop);
    make_client(ClientOptions{});
  }
  void make_client(const ClientOptions& o) {
    client_.reset();
    auto c = GetParam() == "curl"     ? make_curl_client(*loop_, o)
             : GetParam() == "native" ? make_http1_client(*loop_, o)
                                      : make_http_client(*loop_, o);
    ASSERT_TRUE(c.has_value());
    client_ = std::move(*c);
  }
  HttpRequest post(const std::string& url, std::string body = "{\"q\":1}") {
    HttpRequest r;
    r.url = url;
    r.body = std::move(body);
    r.timeout_ns = 20'000'000'000;
    return r;
  }
  // Runs the loop until `pred` holds (10 s safety limit on the real clock).
  template <class P>
  void run_until(P pred) {
    const int64_t limit = loop_->clock().now_ns() + 10'000'000'000;
    while (!pred() && loop_->clock().now_ns() < limit) loop_->run_once(50'000'000);
    ASSERT_TRUE(pred()) << "timed out waiting";
  }

  std::unique_ptr<EventLoop> loop_;
  std::unique_ptr<HttpClient> client_;
};

const char* kSseHead =
    "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n";

TEST_P(HttpClientTest, StreamArrivesInPiecesWithOrderedTimestamps) {
  const std::vector<std::string> events = {"data: {\"a\":1}\n\n", "data: {\"a\":2}\n\n",
                                           "data: [DONE]\n\n"};
  TestHttpServer server([&](TestHttpServer::Conn& c, const TestHttpServer::Request&) {
    c.write(kSseHead);
    for (size_t i = 0; i < events.size(); ++i) {
      c.write_chunk(events[i]);
      server.wait_acks(static_cast<int>(i) + 1);  // next piece only after the client saw this one
    }
    c.end_chunks();
  });
  Recorder rec;
  rec.ack_server = &server;
  const int64_t before = loop_->clock().now_ns();
  ASSERT_TRUE(client_->start(post(server.url("/v1/chat/completions")), &rec).has_value());
  EXPECT_EQ(client_->in_flight(), 1u);
  run_until([&] { return rec.done; });
  EXPECT_EQ(rec.error, ErrorKind::kNone) << rec.message;
  EXPECT_EQ(rec.status, 200);
  EXPECT_EQ(rec.body, events[0] + events[1] + events[2]);
  ASSERT_GE(rec.pieces.size(), 3u);  // paced by acks: at least one read per event
  EXPECT_GE(rec.sent_ns, before);
  EXPECT_LE(rec.sent_ns, rec.headers_ns);
  EXPECT_LE(rec.headers_ns, rec.pieces.front().second);
  for (size_t i = 1; i < rec.pieces.size(); ++i) EXPECT_LE(rec.pieces[i - 1].second, rec.pieces[i].second);
  EXPECT_LT(rec.pieces.front().second, rec.pieces.back().second);
  EXPECT_LE(rec.pieces.back().second, rec.end_ns);
  EXPECT_FALSE(rec.reused);
  EXPECT_EQ(client_->in_flight(), 0u);
}

TEST_P(HttpClientTest, RequestIsSentAsGiven) {
  TestHttpServer server([](TestHttpServer::Conn& c, const TestHttpServer::Request&) {
    TestHttpServer::respond_fixed(c, "{}");
  });
  HttpRequest r = post(server.url("/v1/completions?x=1"), std::string(5000, 'b'));
  r.headers = {"Authorization: Bearer k", "X-Request-ID: abc"};
  Recorder rec;
  ASSERT_TRUE(client_->start(r, &rec).has_value());
  run_until([&] { return rec.done; });
  auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_EQ(reqs[0].method, "POST");
  EXPECT_EQ(reqs[0].path, "/v1/completions?x=1");
  EXPECT_EQ(reqs[0].body, std::string(5000, 'b'));
  EXPECT_TRUE(reqs[0].has_header("Authorization: Bearer k"));
  EXPECT_TRUE(reqs[0].has_header("X-Request-ID: abc"));
  EXPECT_TRUE(reqs[0].has_header("Content-Type: application/json"));
  EXPECT_FALSE(reqs[0].has_header("Expect:"));  // no 100-continue round trip
  EXPECT_EQ(rec.body, "{}");
}

TEST_P(HttpClientTest, KeepAliveReusesOneConnection) {
  TestHttpServer server([](TestHttpServer::Conn& c, const TestHttpServer::Request&) {
    TestHttpServer::respond_fixed(c, "{\"ok\":true}");
  });
  std::vector<Recorder> recs(5);
  size_t next = 0;
  std::function<void()> start_next = [&] {
    Recorder& r = recs[next++];
    if (next < recs.size()) r.on_done = [&](Recorder&) { start_next(); };  // from on_complete
    ASSERT_TRUE(client_->start(post(server.url("/")), &r).has_value());
  };
  start_next();
  run_until([&] { return recs.back().done; });
  EXPECT_EQ(server.accepts(), 1);
  EXPECT_FALSE(recs[0].reused);
  for (size_t i = 1; i < recs.size(); ++i) {
    EXPECT_TRUE(recs[i].reused) << i;
    EXPECT_EQ(recs[i].error, ErrorKind::kNone);
  }
}

TEST_P(HttpClientTest, FreshConnectionEveryTime) {
  TestHttpServer server([](TestHttpServer::Conn& c, const TestHttpServer::Request&) {
    TestHttpServer::respond_fixed(c, "{}");
  });
  for (int i = 0; i < 3; ++i) {
    Recorder rec;
    HttpRequest r = post(server.url("/"));
    r.fresh_connection = true;
    ASSERT_TRUE(client_->start(r, &rec).has_value());
    run_until([&] { return rec.done; });
    EXPECT_FALSE(rec.reused);
    EXPECT_EQ(rec.error, ErrorKind::kNone);
  }
  EXPECT_EQ(server.accepts(), 3);
}

TEST_P(HttpClientTest, ManyConcurrentTransfers) {
  TestHttpServer server([](TestHttpServer::Conn& c, const TestHttpServer::Request& req) {
    c.write(kSseHead);
    c.write_chunk("data: " + req.body + "\n\n");
    c.end_chunks();
  });
  std::vector<Recorder> recs(40);
  for (size_t i = 0; i < recs.size(); ++i) {
    ASSERT_TRUE(client_->start(post(server.url("/"), "{\"i\":" + std::to_string(i) + "}"), &recs[i]).has_value());
  }
  EXPECT_EQ(client_->in_flight(), recs.size());
  run_until([&] { return client_->in_flight() == 0; });
  for (size_t i = 0; i < recs.size(); ++i) {
    EXPECT_EQ(recs[i].error, ErrorKind::kNone);
    EXPECT_EQ(recs[i].body, "data: {\"i\":" + std::to_string(i) + "}\n\n");
  }
}

TEST_P(HttpClientTest, ResetMidStreamIsStreamReset) {
  TestHttpServer server([&](TestHttpServer::Conn& c, const TestHttpServer::Request&) {
    c.write(kSseHead);
    c.write_chunk("data: {\"a\":1}\n\n");
    server.wait_acks(1);
    c.reset();
  });
  Recorder rec;
  rec.ack_server = &server;
  ASSERT_TRUE(client_->start(post(server.url("/")), &rec).has_value());
  run_until([&] { return rec.done; });
  EXPECT_EQ(rec.error, ErrorKind::kStreamReset) << rec.message;
  EXPECT_EQ(rec.body, "data: {\"a\":1}\n\n");
  EXPECT_EQ(rec.status, 200);
}

TEST_P(HttpClientTest, CloseBeforeAnyResponseIsStreamReset) {
  TestHttpServer server([](TestHttpServer::Conn& c, const TestHttpServer::Request&) { c.close(); });
  Recorder rec;
  ASSERT_TRUE(client_->start(post(server.url("/")), &rec).has_value());
  run_until([&] { return rec.done; });
  EXPECT_EQ(rec.error, ErrorKind::kStreamReset) << rec.message;
}

TEST_P(HttpClientTest, RefusedIsConnectError) {
  Recorder rec;
  const std::string url = "http://127.0.0.1:" + std::to_string(testing::unused_loopback_port()) + "/";
  ASSERT_TRUE(client_->start(post(url), &rec).has_value());
  EXPECT_FALSE(rec.done);  // never completed from inside start()
  run_until([&] { return rec.done; });
  EXPECT_EQ(rec.error, ErrorKind::kConnect) << rec.message;
  EXPECT_FALSE(rec.message.empty());
}

TEST_P(HttpClientTest, StallHitsRequestTimeout) {
  TestHttpServer server([&](TestHttpServer::Conn& c, const TestHttpServer::Request&) {
    c.write(kSseHead);
    server.wait_acks(1 << 29);  // stall until the server shuts down
  });
  Recorder rec;
  HttpRequest r = post(server.url("/"));
  r.timeout_ns = 150'000'000;
  const int64_t t0 = loop_->clock().now_ns();
  ASSERT_TRUE(client_->start(r, &rec).has_value());
  run_until([&] { return rec.done; });
  EXPECT_EQ(rec.error, ErrorKind::kTimeout) << rec.message;
  EXPECT_GE(rec.end_ns - t0, 150'000'000);
  EXPECT_EQ(rec.status, 200);
}

TEST_P(HttpClientTest, CancelMidStreamReportsBeforeReturning) {
  TestHttpServer server([&](TestHttpServer::Conn& c, const TestHttpServer::Request&) {
    c.write(kSseHead);
    c.write_chunk("data: {\"a\":1}\n\n");
    server.wait_acks(1 << 29);
  });
  Recorder rec;
  rec.ack_server = &server;
  auto id = client_->start(post(server.url("/")), &rec);
  ASSERT_TRUE(id.has_value());
  run_until([&] { return !rec.pieces.empty(); });
  client_->cancel(*id);
  EXPECT_TRUE(rec.done);
  EXPECT_EQ(rec.error, ErrorKind::kCancelled);
  EXPECT_EQ(client_->in_flight(), 0u);
  client_->cancel(*id);  // unknown now: ignored
}

TEST_P(HttpClientTest, CancelFromInsideOnBodyCompletesAfterCallback) {
  TestHttpServer server([&](TestHttpServer::Conn& c, const TestHttpServer::Request&) {
    c.write(kSseHead);
    c.write_chunk("data: {\"a\":1}\n\n");
    server.wait_acks(1 << 29);
  });
  struct Canceller : Recorder {
    HttpClient* client = nullptr;
    HttpClient::TransferId id = 0;
    bool done_inside_callback = false;
    void on_body(std::string_view b, int64_t t) override {
      Recorder::on_body(b, t);
      client->cancel(id);
      done_inside_callback = done;  // must still be false: this callback's state is in use
    }
  } rec;
  rec.client = client_.get();
  auto id = client_->start(post(server.url("/")), &rec);
  ASSERT_TRUE(id.has_value());
  rec.id = *id;
  run_until([&] { return rec.done; });
  EXPECT_EQ(rec.error, ErrorKind::kCancelled);
  EXPECT_EQ(rec.pieces.size(), 1u);
  EXPECT_FALSE(rec.done_inside_callback);
  EXPECT_EQ(client_->in_flight(), 0u);
}

TEST_P(HttpClientTest, HttpErrorStatusIsACompleteResponse) {
  TestHttpServer server([](TestHttpServer::Conn& c, const TestHttpServer::Request&) {
    TestHttpServer::respond_fixed(c, "{\"error\":\"no such model\"}", 404);
  });
  Recorder rec;
  ASSERT_TRUE(client_->start(post(server.url("/nope")), &rec).has_value());
  run_until([&] { return rec.done; });
  EXPECT_EQ(rec.error, ErrorKind::kNone);
  EXPECT_EQ(rec.status, 404);
  EXPECT_EQ(rec.body, "{\"error\":\"no such model\"}");
}

TEST_P(HttpClientTest, StartFromInsideOnBodyRuns) {
  TestHttpServer server([](TestHttpServer::Conn& c, const TestHttpServer::Request&) {
    TestHttpServer::respond_fixed(c, "{}");
  });
  struct Starter : Recorder {
    HttpClient* client = nullptr;
    HttpRequest next;
    Recorder* second = nullptr;
    void on_body(std::string_view b, int64_t t) override {
      Recorder::on_body(b, t);
      if (second) {
        EXPECT_TRUE(client->start(next, second).has_value());
        second = nullptr;
      }
    }
  } first;
  Recorder second;
  first.client = client_.get();
  first.next = post(server.url("/2"));
  first.second = &second;
  ASSERT_TRUE(client_->start(post(server.url("/1")), &first).has_value());
  run_until([&] { return first.done && second.done; });
  EXPECT_EQ(second.error, ErrorKind::kNone);
  EXPECT_EQ(second.body, "{}");
}

TEST_P(HttpClientTest, StickyGroupsKeepTheirOwnConnections) {
  TestHttpServer server([](TestHttpServer::Conn& c, const TestHttpServer::Request&) {
    TestHttpServer::respond_fixed(c, "{}");
  });
  auto run_one = [&](uint64_t group) {
    Recorder rec;
    HttpRequest r = post(server.url("/"));
    r.connection_group = group;
    EXPECT_TRUE(client_->start(r, &rec).has_value());
    run_until([&] { return rec.done; });
    return server.requests().back().conn_id;
  };
  const int a1 = run_one(1);
  const int b1 = run_one(2);  // sequential: pooled mode would reuse a1's connection
  EXPECT_NE(a1, b1);
  EXPECT_EQ(run_one(2), b1);
  EXPECT_EQ(run_one(1), a1);
  EXPECT_EQ(server.accepts(), 2);
  client_->release_group(1);
  EXPECT_NE(run_one(1), a1);  // released: a new connection
}

TEST_P(HttpClientTest, ServerClosingIdleKeepAliveConnectionsIsHarmless) {
  // The server answers with keep-alive semantics, then closes each connection: a pooled
  // connection is dead by the time the next request wants it and must be replaced or retried.
  TestHttpServer server([](TestHttpServer::Conn& c, const TestHttpServer::Request&) {
    TestHttpServer::respond_fixed(c, "{}");
    c.close();
  });
  for (int i = 0; i < 4; ++i) {
    Recorder rec;
    ASSERT_TRUE(client_->start(post(server.url("/")), &rec).has_value());
    run_until([&] { return rec.done; });
    EXPECT_EQ(rec.error, ErrorKind::kNone) << i << ": " << rec.message;
    EXPECT_EQ(rec.body, "{}");
  }
  EXPECT_EQ(server.accepts(), 4);
}

TEST_P(HttpClientTest, HttpsGoesThroughTls) {
  // A TLS client hello to a plain HTTP server: libcurl reports a TLS failure; the native
  // client does not take https:// at all (the routing client hands it to libcurl).
  TestHttpServer server([](TestHttpServer::Conn& c, const TestHttpServer::Request&) { c.close(); },
                        "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n");
  HttpRequest r = post("https://127.0.0.1:" + std::to_string(server.port()) + "/");
  Recorder rec;
  auto id = client_->start(r, &rec);
  if (GetParam() == "native") {
    EXPECT_FALSE(id.has_value());
    return;
  }
  ASSERT_TRUE(id.has_value());
  run_until([&] { return rec.done; });
  EXPECT_EQ(rec.error, ErrorKind::kTls) << rec.message;
}

TEST_P(HttpClientTest, LargeRequestAndResponseBodies) {
  // 8 MiB up (more than the socket buffers: partial writes) and 6 MiB down in 64 KiB chunks.
  std::string up(8 << 20, 'u');
  for (size_t i = 0; i < up.size(); i += 4099) up[i] = static_cast<char>('a' + i % 26);
  std::string down(6 << 20, 'd');
  for (size_t i = 0; i < down.size(); i += 7919) down[i] = static_cast<char>('A' + i % 26);
  TestHttpServer server([&](TestHttpServer::Conn& c, const TestHttpServer::Request& req) {
    c.write(kSseHead);
    for (size_t off = 0; off < down.size(); off += 65536) c.write_chunk(down.substr(off, 65536));
    c.end_chunks();
  });
  Recorder rec;
  ASSERT_TRUE(client_->start(post(server.url("/big"), up), &rec).has_value());
  run_until([&] { return rec.done; });
  EXPECT_EQ(rec.error, ErrorKind::kNone) << rec.message;
  EXPECT_TRUE(rec.body == down) << rec.body.size();
  auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_TRUE(reqs[0].body == up) << reqs[0].body.size();
  EXPECT_GT(rec.sent_ns, 0);
}

TEST_P(HttpClientTest, ConnectTimeoutIsConnectError) {
  // A listener whose accept queue is full drops further SYNs, so a connect never completes.
  int lfd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(lfd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  ASSERT_EQ(::listen(lfd, 0), 0);
  socklen_t len = sizeof addr;
  ::getsockname(lfd, reinterpret_cast<sockaddr*>(&addr), &len);
  std::vector<int> fillers;
  for (int i = 0; i < 3; ++i) {  // fill the queue (non-blocking connects)
    int f = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    ::connect(f, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    fillers.push_back(f);
  }
  ClientOptions o;
  o.connect_timeout_ns = 100'000'000;
  make_client(o);
  Recorder rec;
  HttpRequest r = post("http://127.0.0.1:" + std::to_string(ntohs(addr.sin_port)) + "/");
  const int64_t t0 = loop_->clock().now_ns();
  ASSERT_TRUE(client_->start(r, &rec).has_value());
  run_until([&] { return rec.done; });
  EXPECT_EQ(rec.error, ErrorKind::kConnect) << rec.message;
  EXPECT_GE(rec.end_ns - t0, 100'000'000);
  for (int f : fillers) ::close(f);
  ::close(lfd);
}

INSTANTIATE_TEST_SUITE_P(Impl, HttpClientTest, ::testing::Values("curl", "native", "auto"),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

}  // namespace
}  // namespace servebench::transport
