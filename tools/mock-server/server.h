// MockServer: the HTTP/1.1 server of servebench-mock (Boost.Asio + Boost.Beast), one event loop
// per thread, accepted connections spread round-robin over the loops, steady timers (never
// sleeping threads) for every token event.
//
// Lifecycle: start() binds and listens (so port() is known before run()); run() blocks the
// calling thread, running config.threads loops until stop() or SIGINT/SIGTERM; the destructor
// closes every connection and flushes the record files.
//
// Thread safety: stop() may be called from any thread; everything else from the owner.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/result.h"
#include "options.h"
#include "text_source.h"

namespace servebench::mock {

class MockServer {
 public:
  static Result<std::unique_ptr<MockServer>> start(const ServerConfig& config,
                                                   std::unique_ptr<TokenCounter> counter,
                                                   OutputText text);
  ~MockServer();
  MockServer(const MockServer&) = delete;
  MockServer& operator=(const MockServer&) = delete;

  const std::string& host() const;
  uint16_t port() const;
  // Requests being generated now (the DCGM mode's load signal); any thread.
  int64_t running() const;
  void run();
  void stop();

  struct Impl;

 private:
  explicit MockServer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace servebench::mock
