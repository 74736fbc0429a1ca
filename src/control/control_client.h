// The one blocking HTTP client for everything that is not load: tokenizer downloads from the
// hub, the KV-cache reset, the telemetry scrapes. Load never goes through it (it has its own
// event-loop clients in src/transport/).
//
// Why a module of its own (sb_control, depending on core and libcurl only): the tokenizer may not
// include transport (DESIGN: tokenizer, dataset and endpoints never include load or transport),
// yet hub downloads and the transport's KV-cache reset need the same client. Both link this
// small library instead; it owns libcurl's one process-wide initialization
// (curl_global_init_once), which transport's load clients call too.
//
// Control traffic differs from load on purpose: its own connection (never the benchmark pool),
// no proxy from the environment unless a request asks for one, no redirects unless asked,
// bounded answer size, and every transfer aborts when the process's interrupt flag is raised
// (core/interrupt.h), so Ctrl-C during a hub download or a reset stops within about a second
// (libcurl's progress callback, which watches the flag, runs about once a second while idle).
//
// Thread safety: a ControlClient is used by one thread at a time; several clients may run on
// several threads at once. fetch() blocks until the transfer completes or fails.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace servebench::control {

// libcurl's process-wide initialization, once, by whichever piece needs libcurl first.
void curl_global_init_once();

enum class Method { kGet, kPost, kPut };  // kPut sends `body` like a POST

struct ControlRequest {
  Method method = Method::kGet;
  std::string url;                      // http:// or https://, user info allowed (basic auth)
  std::vector<std::string> headers;     // "Name: value" lines
  std::string body;                     // POST only; sent as is, no Content-Type added for ""
  int64_t timeout_ns = 30'000'000'000;  // whole transfer, connect included
  int64_t connect_timeout_ns = 0;       // 0: timeout_ns
  bool verify_tls = true;
  bool use_env_proxy = false;  // true: honour http_proxy & co. (libcurl's own rules)
  int max_redirects = 0;       // > 0: follow up to this many redirects
  bool keep_body = true;       // false: the answer's body is drained, never stored
  int64_t max_body_bytes = int64_t{512} << 20;  // a larger answer fails (kNetwork)
  // keep_body false: > 0 fails an answer whose body passes this many bytes (kNetwork), so a
  // body streamed to disk through on_body is capped too; 0 drains without a cap.
  int64_t max_streamed_bytes = 0;
  std::string user_agent = "servebench";
  // Called with each piece of the body as it arrives, on the fetching thread, before it is
  // stored (a streamed answer: `servebench chat` times its SSE events here). May be empty.
  std::function<void(std::string_view)> on_body;
};

// One header line of an answer; `response` counts the answers of a redirect chain from 0.
struct ControlHeader {
  int response = 0;
  std::string name;   // lower case
  std::string value;  // trimmed
};

struct ControlResponse {
  int http_status = 0;                 // of the last answer
  std::string body;                    // of the last answer ("" when keep_body is false)
  std::vector<ControlHeader> headers;  // every answer's headers, in arrival order
  int64_t elapsed_ns = 0;              // request to complete answer (steady clock)

  // The last answer's first value of `lower_name`; "" when absent.
  std::string header(std::string_view lower_name) const;
};

class ControlClient {
 public:
  ControlClient();
  ~ControlClient();
  ControlClient(const ControlClient&) = delete;
  ControlClient& operator=(const ControlClient&) = delete;

  // Any HTTP status is a response (the caller judges it). Errors carry libcurl's one-line
  // description without the URL (callers name the URL they showed, without user info):
  // kTimeout (no complete answer within timeout_ns), kNetwork (connect, DNS, TLS, reset, an
  // answer over max_body_bytes), kInvalidArgument (a URL libcurl cannot use), kInterrupted.
  Result<ControlResponse> fetch(const ControlRequest& request);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;  // keeps the connection for the next fetch to the same origin
};

// One fetch with a client of its own (no connection reuse).
Result<ControlResponse> fetch_once(const ControlRequest& request);

}  // namespace servebench::control
