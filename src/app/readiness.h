// Waiting for the model (AIPerf's --wait-for-model-timeout/-mode/-interval): before anything
// is sent, probe the server until it is ready or the timeout passes, so a benchmark can start
// the moment a freshly launched server can serve.
//   models     GET <url>/v1/models answers 2xx with the model's id in its "data" list
//   inference  one request to the benchmark endpoint with a 1-token body answers 2xx
//   both       models, then inference
// Probes go through the control client (control/control_client.h): their own connection, not
// recorded, the benchmark's credential and -H headers. Every --url must be ready. A probe that
// fails is retried every `interval_ns` until `timeout_ns` has passed since the first probe; the
// error then says what the last probe saw.
//
// Thread safety: blocking; one call at a time per options object. The process interrupt flag
// (core/interrupt.h) stops the wait (ErrorCode::kInterrupted).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "config/parity_options.h"
#include "control/control_client.h"
#include "core/clock.h"
#include "core/result.h"

namespace servebench::app {

struct ReadinessOptions {
  std::vector<std::string> base_urls;      // --url values (models probe: <url>/v1/models)
  std::vector<std::string> endpoint_urls;  // full benchmark URLs (inference probe), same order
  std::string model;
  config::WaitMode mode = config::WaitMode::kInference;
  int64_t timeout_ns = 0;
  int64_t interval_ns = 5'000'000'000;
  std::string inference_body;              // a 1-token request for the endpoint
  std::vector<std::string> headers;        // credentials and -H lines
  bool verify_tls = true;
};

// Test seams: the fetch and the wait between probes.
using FetchFn = std::function<Result<control::ControlResponse>(const control::ControlRequest&)>;
using WaitFn = std::function<void(int64_t ns)>;

struct ReadinessReport {
  int attempts = 0;      // probes of the last URL made before it was ready
  int64_t waited_ns = 0; // from the first probe to ready
};

// Ok when every URL is ready. Errors: kTimeout (one line: URL, mode, timeout and what the last
// probe saw), kInterrupted.
Result<ReadinessReport> wait_for_model(const ReadinessOptions& options, const core::Clock& clock,
                                       FetchFn fetch = nullptr, WaitFn wait = nullptr);

// True when a /v1/models answer lists `model` (OpenAI's {"data": [{"id": ...}]}).
bool models_list_has(const std::string& body, const std::string& model);

}  // namespace servebench::app
