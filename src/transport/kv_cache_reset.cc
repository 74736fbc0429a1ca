// KV-cache reset over the control client (see kv_cache_reset.h); libcurl's URL API parses the
// --url values.
#include "transport/kv_cache_reset.h"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <memory>
#include <thread>
#include <unordered_set>

#include <fmt/format.h>

#include "control/control_client.h"
#include "core/interrupt.h"
#include "core/log.h"

namespace servebench::transport {
namespace {

constexpr int64_t kFirstRetryWaitNs = 1'000'000'000;
constexpr int64_t kMaxRetryWaitNs = 8'000'000'000;

struct UrlDeleter {
  void operator()(CURLU* u) const { curl_url_cleanup(u); }
};

std::string get_part(CURLU* u, CURLUPart part, unsigned flags = 0) {
  char* s = nullptr;
  if (curl_url_get(u, part, &s, flags) != CURLUE_OK || !s) return {};
  std::string out(s);
  curl_free(s);
  return out;
}

// The request URL (with user info, for basic auth) and the one shown in messages (without).
struct ControlUrl {
  std::string request;
  std::string shown;
};

Result<ControlUrl> control_url(std::string_view base_url, std::string_view path) {
  SB_TRY(validate_control_path(path));
  std::unique_ptr<CURLU, UrlDeleter> u(curl_url());
  const std::string base(base_url);
  // Like -u/--url: no scheme means http:// (libcurl's own default would be https://).
  const std::string full = base.find("://") == std::string::npos ? "http://" + base : base;
  if (!u || curl_url_set(u.get(), CURLUPART_URL, full.c_str(), 0) != CURLUE_OK) {
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("URL '{}' cannot be parsed; expected e.g. http://localhost:8000", base));
  }
  const std::string scheme = get_part(u.get(), CURLUPART_SCHEME);
  if (scheme != "http" && scheme != "https") {
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("URL '{}' has scheme '{}'; control requests need http:// or https://",
                                  base, scheme));
  }
  curl_url_set(u.get(), CURLUPART_PATH, "/", 0);
  curl_url_set(u.get(), CURLUPART_QUERY, nullptr, 0);
  curl_url_set(u.get(), CURLUPART_FRAGMENT, nullptr, 0);
  auto origin = [&] {
    std::string s = get_part(u.get(), CURLUPART_URL, CURLU_NO_DEFAULT_PORT);
    if (!s.empty() && s.back() == '/') s.pop_back();
    return s;
  };
  ControlUrl out;
  out.request = origin() + std::string(path);
  curl_url_set(u.get(), CURLUPART_USER, nullptr, 0);
  curl_url_set(u.get(), CURLUPART_PASSWORD, nullptr, 0);
  out.shown = origin() + std::string(path);
  return out;
}

// Ctrl-C must not wait out an 8 s backoff: sleeps in short steps, watching the interrupt flag.
void sleep_unless_interrupted(int64_t ns) {
  constexpr int64_t kStepNs = 100'000'000;
  for (int64_t left = ns; left > 0 && !core::interrupt_requested(); left -= kStepNs)
    std::this_thread::sleep_for(std::chrono::nanoseconds(std::min(left, kStepNs)));
}

std::string seconds(int64_t ns) { return fmt::format("{:g} s", static_cast<double>(ns) / 1e9); }

// One attempt; `retryable` tells a transport failure (worth retrying) from an answer.
struct Attempt {
  Result<KvCacheResetResult> result;
  bool retryable = false;
};

Attempt post_once(const std::string& base_url, const std::string& path, int64_t timeout_ns,
                  const std::vector<std::string>& headers, bool verify_tls) {
  auto url = control_url(base_url, path);
  if (!url) return {tl::unexpected(url.error()), false};
  control::ControlRequest req;
  req.method = control::Method::kPost;
  req.url = url->request;
  req.headers = headers;
  req.timeout_ns = timeout_ns;
  req.verify_tls = verify_tls;
  req.keep_body = false;  // drained, never shown: it may echo credentials
  // As AIPerf: no proxy from the environment, no redirects (the control client's defaults).
  auto resp = control::fetch_once(req);
  const std::string& shown = url->shown;
  if (!resp) {
    const Error& e = resp.error();
    if (e.code == ErrorCode::kInterrupted)
      return {make_error(ErrorCode::kInterrupted, fmt::format("KV-cache reset POST {} interrupted", shown)),
              false};
    if (e.code == ErrorCode::kTimeout) {
      return {make_error(ErrorCode::kTimeout,
                         fmt::format("KV-cache reset POST {} got no answer within {} ({}); raise "
                                     "--reset-kv-cache-timeout-seconds or check the server",
                                     shown, seconds(timeout_ns), e.message)),
              true};
    }
    return {make_error(ErrorCode::kNetwork, fmt::format("KV-cache reset POST {} failed: {}; check -u/--url and "
                                                        "that the server is up", shown, e.message)),
            true};
  }
  const int status = resp->http_status;
  if (status < 200 || status >= 300) {
    return {make_error(ErrorCode::kNetwork,
                       fmt::format("KV-cache reset POST {} answered HTTP {}; check --reset-kv-cache-path "
                                   "(vLLM: /reset_prefix_cache, SGLang: /flush_cache) or drop --reset-kv-cache",
                                   shown, status)),
            false};
  }
  return {KvCacheResetResult{shown, status, resp->elapsed_ns, 1}, false};
}

}  // namespace

Status validate_control_path(std::string_view path, std::string_view flag) {
  if (path.empty() || path[0] != '/') {
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("{} '{}' must be a relative path starting with '/', e.g. /reset_prefix_cache",
                                  flag, path));
  }
  if (path.find("://") != std::string_view::npos) {
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("{} '{}' must be a path, not a URL; it is joined to each --url's "
                                  "scheme://host:port", flag, path));
  }
  for (char c : path) {
    if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7F) {
      return make_error(ErrorCode::kInvalidArgument,
                        fmt::format("{} '{}' holds whitespace or a control character; percent-encode it",
                                    flag, path));
    }
  }
  return core::ok_status();
}

Result<std::string> url_origin(std::string_view url) {
  SB_TRY_ASSIGN(ControlUrl u, control_url(url, "/"));
  u.shown.pop_back();  // the "/" path
  return u.shown;
}

Result<KvCacheResetResult> reset_kv_cache(const std::string& base_url, const std::string& path,
                                          int64_t timeout_ns, const std::vector<std::string>& headers,
                                          bool verify_tls) {
  return post_once(base_url, path, timeout_ns, headers, verify_tls).result;
}

int64_t reset_retry_wait_ns(int retry, int64_t now_ns, int64_t deadline_ns) {
  int64_t wait = kFirstRetryWaitNs;
  for (int i = 1; i < retry && wait < kMaxRetryWaitNs; ++i) wait *= 2;
  wait = std::min(wait, kMaxRetryWaitNs);
  return now_ns + wait >= deadline_ns ? -1 : wait;
}

Result<std::vector<KvCacheResetResult>> reset_kv_cache_all(const std::vector<std::string>& urls,
                                                           const KvCacheResetOptions& options,
                                                           const core::Clock* clock, const SleepFn& sleep) {
  SB_TRY(validate_control_path(options.path));
  const core::Clock& clk = clock ? *clock : core::SteadyClock::instance();
  // One POST per origin: several --url values on one server share its cache.
  std::vector<std::string> origins;
  std::unordered_set<std::string> seen;
  for (const auto& url : urls) {
    SB_TRY_ASSIGN(std::string origin, url_origin(url));
    if (seen.insert(std::move(origin)).second) origins.push_back(url);
  }
  std::vector<KvCacheResetResult> out;
  for (const auto& url : origins) {
    const int64_t deadline = clk.now_ns() + std::max<int64_t>(0, options.retry_budget_ns);
    for (int attempt = 1;; ++attempt) {
      Attempt a = post_once(url, options.path, options.timeout_ns, options.headers, options.verify_tls);
      if (a.result) {
        a.result->attempts = attempt;
        SB_LOG_DEBUG("KV-cache reset: POST {} -> HTTP {} in {:.1f} ms{}", a.result->url, a.result->http_status,
                    static_cast<double>(a.result->elapsed_ns) / 1e6,
                    attempt > 1 ? fmt::format(" (attempt {})", attempt) : "");
        out.push_back(std::move(*a.result));
        break;
      }
      const int64_t wait = a.retryable ? reset_retry_wait_ns(attempt, clk.now_ns(), deadline) : -1;
      if (wait < 0) {
        Error err = a.result.error();
        if (attempt > 1) err.message += fmt::format(" (after {} attempts)", attempt);
        return tl::unexpected(err);
      }
      SB_LOG_WARN("{}; retrying in {}", a.result.error().message, seconds(wait));
      if (sleep) {
        sleep(wait);
      } else {
        sleep_unless_interrupted(wait);
      }
      if (core::interrupt_requested())
        return make_error(ErrorCode::kInterrupted, fmt::format("KV-cache reset interrupted ({})",
                                                               a.result.error().message));
    }
  }
  return out;
}

}  // namespace servebench::transport
