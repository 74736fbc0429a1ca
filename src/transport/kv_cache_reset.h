// KV-cache reset: AIPerf's --reset-kv-cache control hook. Before any load (so before warmup),
// POST an empty body to {origin}{path} for every unique origin (scheme://host:port) of the
// configured --url values, e.g. vLLM's /reset_prefix_cache, SGLang's /flush_cache.
//
// AIPerf's semantics, which these functions follow:
// - success is any 2xx; a non-2xx answer is a failure and is never retried;
// - a transport failure (connect refused, DNS, TLS, timeout, reset) is retried with backoff
//   (wait 1 s, then 2, 4, 8, 8, ... s) while the next attempt would start inside the retry budget
//   (default 60 s), each attempt bounded by its own timeout (default 30 s);
// - a failure is fatal to the run: the caller aborts before sending load;
// - control traffic uses its own connection (never the benchmark pool), no proxy from the
//   environment, and is not recorded; it carries the same auth headers as benchmark requests;
// - the path must be relative (start with '/'), and must not hold "://".
// The response body is drained and never shown (it may echo credentials); messages name the
// URL without user info. The POSTs go through the control client (control/control_client.h);
// a raised interrupt flag (core/interrupt.h) aborts an attempt (within about a second) or a
// backoff wait (within 100 ms) with ErrorCode::kInterrupted, never retried.
//
// Thread safety: the functions are blocking and re-entrant (one control client per call).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/clock.h"
#include "core/result.h"

namespace servebench::transport {

inline constexpr std::string_view kDefaultResetKvCachePath = "/reset_prefix_cache";
inline constexpr int64_t kDefaultControlTimeoutNs = 30'000'000'000;     // AIPerf: 30 s per POST
inline constexpr int64_t kDefaultResetRetryBudgetNs = 60'000'000'000;   // AIPerf: 60 s

struct KvCacheResetResult {
  std::string url;        // the URL posted to, without user info
  int http_status = 0;    // 2xx
  int64_t elapsed_ns = 0; // the successful attempt's time, request to complete response
  int attempts = 1;       // attempts made for this URL (1 = no retry)
};

// Checks a --reset-kv-cache-path value: "/..." with no "://", no whitespace or control
// characters. Error (kInvalidArgument) names `flag`.
Status validate_control_path(std::string_view path, std::string_view flag = "--reset-kv-cache-path");

// "scheme://host[:port]" of an http(s) URL (a URL without a scheme is taken as http://);
// user info, path, query and fragment dropped, a default port omitted. Error (kInvalidArgument)
// for other schemes or an unparsable URL.
Result<std::string> url_origin(std::string_view url);

// One POST with an empty body to url_origin(base_url) + path (no retry). Success: any 2xx.
// Errors, one line naming the URL: kNetwork for a non-2xx answer or a transport failure,
// kTimeout when no complete answer came within timeout_ns; kInvalidArgument for a bad URL or
// path. `headers` are "Name: value" lines (Authorization, --header values).
Result<KvCacheResetResult> reset_kv_cache(const std::string& base_url, const std::string& path,
                                          int64_t timeout_ns, const std::vector<std::string>& headers,
                                          bool verify_tls = true);

struct KvCacheResetOptions {
  std::string path = std::string(kDefaultResetKvCachePath);
  int64_t timeout_ns = kDefaultControlTimeoutNs;     // per attempt
  int64_t retry_budget_ns = kDefaultResetRetryBudgetNs;  // 0: a single attempt per URL
  std::vector<std::string> headers;
  bool verify_tls = true;
};

// The wait before retry number `retry` (1 = the first retry) after a transport failure at
// `now_ns`, or -1 when AIPerf gives up: the backoff is 1 s doubling to at most 8 s, and no retry
// starts at or after `deadline_ns` (first attempt's start + budget).
int64_t reset_retry_wait_ns(int retry, int64_t now_ns, int64_t deadline_ns);

// Test seam: how reset_kv_cache_all waits between attempts.
using SleepFn = std::function<void(int64_t ns)>;

// The whole hook: reset_kv_cache on each unique origin of `urls` in order, retrying transport
// failures per reset_retry_wait_ns, stopping at the first URL that fails. Returns one result per
// unique origin. `clock`/`sleep` default to the steady clock and a real sleep.
Result<std::vector<KvCacheResetResult>> reset_kv_cache_all(const std::vector<std::string>& urls,
                                                           const KvCacheResetOptions& options,
                                                           const core::Clock* clock = nullptr,
                                                           const SleepFn& sleep = {});

}  // namespace servebench::transport
