#include "server.h"

#include <sys/prctl.h>

#include <csignal>
#include <nlohmann/json.hpp>
#include <thread>

#include "length_rules.h"
#include "session.h"

namespace servebench::mock {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

struct MockServer::Impl {
  ServerState state;
  // Declared after `state`: loops (and the sessions their handlers own) die first.
  std::vector<std::unique_ptr<asio::io_context>> loops;
  std::vector<asio::executor_work_guard<asio::io_context::executor_type>> guards;
  std::optional<tcp::acceptor> acceptor;
  std::optional<asio::signal_set> signals;
  std::optional<asio::steady_timer> accept_backoff;
  size_t next_loop = 0;
  std::string host;
  uint16_t port = 0;

  ~Impl() {
    {
      std::lock_guard<std::mutex> lock(state.admit_mu);
      state.waiting.clear();
    }
    signals.reset();
    accept_backoff.reset();
    acceptor.reset();
    guards.clear();
    loops.clear();
  }

  void accept() {
    asio::io_context& loop = *loops[next_loop++ % loops.size()];
    acceptor->async_accept(loop, [this](boost::system::error_code ec, tcp::socket socket) {
      if (ec == asio::error::operation_aborted) return;
      if (ec) {
        // Out of descriptors or memory: retry shortly instead of spinning on the error.
        accept_backoff->expires_after(std::chrono::milliseconds(10));
        accept_backoff->async_wait([this](boost::system::error_code wec) {
          if (!wec) accept();
        });
        return;
      }
      auto session = std::make_shared<Session>(std::move(socket), state);
      asio::post(session->executor(), [session] { session->start(); });
      accept();
    });
  }
};

MockServer::MockServer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
MockServer::~MockServer() = default;

const std::string& MockServer::host() const { return impl_->host; }
uint16_t MockServer::port() const { return impl_->port; }
int64_t MockServer::running() const {
  return impl_->state.metrics.running.load(std::memory_order_relaxed);
}

Result<std::unique_ptr<MockServer>> MockServer::start(const ServerConfig& config,
                                                      std::unique_ptr<TokenCounter> counter,
                                                      OutputText text) {
  auto impl = std::make_unique<Impl>();
  ServerState& st = impl->state;
  st.config = config;
  if (config.max_concurrency > 0) st.metrics.kv_slots = config.max_concurrency;
  st.counter = std::move(counter);
  st.text = std::move(text);
  st.anchor = core::WallAnchor::capture(core::SteadyClock::instance());
  st.model_json = json_quote(config.model);
  st.models_body = nlohmann::json{{"object", "list"},
                                  {"data",
                                   {{{"id", config.model},
                                     {"object", "model"},
                                     {"created", st.anchor.wall_ns / 1'000'000'000},
                                     {"owned_by", "servebench-mock"},
                                     {"root", config.model},
                                     {"parent", nullptr},
                                     {"max_model_len", kMaxTokensPerRequest}}}}}
                       .dump();
  if (!config.record_requests_path.empty()) {
    auto w = JsonlWriter::open(config.record_requests_path);
    if (!w) return tl::unexpected(w.error());
    st.record = std::move(*w);
  }
  if (!config.ground_truth_path.empty()) {
    auto w = JsonlWriter::open(config.ground_truth_path);
    if (!w) return tl::unexpected(w.error());
    st.truth = std::move(*w);
  }
  for (int i = 0; i < config.threads; ++i) {
    impl->loops.push_back(std::make_unique<asio::io_context>(1));
    impl->guards.push_back(asio::make_work_guard(*impl->loops.back()));
  }
  boost::system::error_code ec;
  const auto address = asio::ip::make_address(config.host, ec);
  if (ec) {
    return make_error(ErrorCode::kInvalidArgument,
                      "servebench-mock: --host '" + config.host +
                          "' is not an IP address (use e.g. 127.0.0.1, 0.0.0.0 or ::1)");
  }
  const tcp::endpoint endpoint(address, config.port);
  tcp::acceptor& acc = impl->acceptor.emplace(*impl->loops[0]);
  acc.open(endpoint.protocol(), ec);
  if (!ec) acc.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) acc.bind(endpoint, ec);
  if (!ec) acc.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) {
    return make_error(ErrorCode::kInvalidArgument,
                      "servebench-mock: cannot listen on " + config.host + ":" +
                          std::to_string(config.port) + ": " + ec.message() +
                          " (choose another --port, or 0 for a free one)");
  }
  impl->accept_backoff.emplace(*impl->loops[0]);
  impl->host = config.host;
  impl->port = acc.local_endpoint().port();
  impl->accept();
  auto server = std::unique_ptr<MockServer>(new MockServer(std::move(impl)));
  // Registered before the listening line is printed, so a SIGTERM right after it is handled.
  MockServer* raw = server.get();
  server->impl_->signals.emplace(*server->impl_->loops[0], SIGINT, SIGTERM);
  server->impl_->signals->async_wait([raw](boost::system::error_code sec, int) {
    if (!sec) raw->stop();
  });
  return server;
}

void MockServer::run() {
  std::vector<std::thread> threads;
  for (size_t i = 1; i < impl_->loops.size(); ++i) {
    threads.emplace_back([loop = impl_->loops[i].get()] {
      prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);  // timers fire within ~1 µs, not 50 µs
      loop->run();
    });
  }
  prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
  impl_->loops[0]->run();
  for (std::thread& t : threads) t.join();
}

void MockServer::stop() {
  for (auto& loop : impl_->loops) loop->stop();
}

}  // namespace servebench::mock
