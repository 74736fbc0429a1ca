// KV-cache reset over a blocking libcurl easy handle (see kv_cache_reset.h).
#include "transport/kv_cache_reset.h"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <memory>
#include <thread>
#include <unordered_set>

#include <fmt/format.h>

#include "core/log.h"
#include "transport/curl_error_kind.h"

namespace servebench::transport {
namespace {

constexpr int64_t kNsPerMs = 1'000'000;
constexpr int64_t kFirstRetryWaitNs = 1'000'000'000;
constexpr int64_t kMaxRetryWaitNs = 8'000'000'000;

struct UrlDeleter {
  void operator()(CURLU* u) const { curl_url_cleanup(u); }
};
struct EasyDeleter {
  void operator()(CURL* e) const { curl_easy_cleanup(e); }
};
struct SlistDeleter {
  void operator()(curl_slist* l) const { curl_slist_free_all(l); }
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
  if (auto ok = validate_control_path(path); !ok) return tl::unexpected(ok.error());
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

bool has_header(const std::vector<std::string>& headers, std::string_view name) {
  for (const auto& h : headers) {
    if (h.size() <= name.size() || h[name.size()] != ':') continue;
    bool same = true;
    for (size_t i = 0; i < name.size() && same; ++i)
      same = std::tolower(static_cast<unsigned char>(h[i])) == std::tolower(static_cast<unsigned char>(name[i]));
    if (same) return true;
  }
  return false;
}

size_t discard_body(char*, size_t size, size_t n, void*) { return size * n; }

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
  curl_global_init_once();
  std::unique_ptr<CURL, EasyDeleter> easy(curl_easy_init());
  if (!easy) return {make_error(ErrorCode::kInternal, "curl_easy_init failed"), false};
  CURL* e = easy.get();
  curl_slist* list = nullptr;
  for (const auto& h : headers) list = curl_slist_append(list, h.c_str());
  // An empty body: no Content-Type unless the caller sets one (curl would claim a form), no
  // Expect: 100-continue.
  if (!has_header(headers, "content-type")) list = curl_slist_append(list, "Content-Type:");
  list = curl_slist_append(list, "Expect:");
  std::unique_ptr<curl_slist, SlistDeleter> header_list(list);
  char error_buf[CURL_ERROR_SIZE] = {0};
  const long timeout_ms = static_cast<long>(std::max<int64_t>(1, (timeout_ns + kNsPerMs - 1) / kNsPerMs));
  curl_easy_setopt(e, CURLOPT_URL, url->request.c_str());
  curl_easy_setopt(e, CURLOPT_POST, 1L);
  curl_easy_setopt(e, CURLOPT_POSTFIELDS, "");
  curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE, 0L);
  curl_easy_setopt(e, CURLOPT_HTTPHEADER, header_list.get());
  curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, timeout_ms);
  curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, timeout_ms);
  curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(e, CURLOPT_PROXY, "");  // as AIPerf: control traffic ignores *_proxy variables
  curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, verify_tls ? 1L : 0L);
  curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, verify_tls ? 2L : 0L);
  curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, &discard_body);
  curl_easy_setopt(e, CURLOPT_ERRORBUFFER, error_buf);
  const int64_t t0 = core::SteadyClock::instance().now_ns();
  const CURLcode rc = curl_easy_perform(e);
  const int64_t elapsed = core::SteadyClock::instance().now_ns() - t0;
  const std::string& shown = url->shown;
  if (rc != CURLE_OK) {
    const std::string detail = error_buf[0] ? error_buf : curl_easy_strerror(rc);
    if (rc == CURLE_OPERATION_TIMEDOUT) {
      return {make_error(ErrorCode::kTimeout,
                         fmt::format("KV-cache reset POST {} got no answer within {} ({}); raise "
                                     "--reset-kv-cache-timeout-seconds or check the server",
                                     shown, seconds(timeout_ns), detail)),
              true};
    }
    return {make_error(ErrorCode::kNetwork, fmt::format("KV-cache reset POST {} failed: {}; check -u/--url and "
                                                        "that the server is up", shown, detail)),
            true};
  }
  long status = 0;
  curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &status);
  if (status < 200 || status >= 300) {
    return {make_error(ErrorCode::kNetwork,
                       fmt::format("KV-cache reset POST {} answered HTTP {}; check --reset-kv-cache-path "
                                   "(vLLM: /reset_prefix_cache, SGLang: /flush_cache) or drop --reset-kv-cache",
                                   shown, status)),
            false};
  }
  return {KvCacheResetResult{shown, static_cast<int>(status), elapsed, 1}, false};
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
  auto u = control_url(url, "/");
  if (!u) return tl::unexpected(u.error());
  u->shown.pop_back();  // the "/" path
  return u->shown;
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
  if (auto ok = validate_control_path(options.path); !ok) return tl::unexpected(ok.error());
  const core::Clock& clk = clock ? *clock : core::SteadyClock::instance();
  // One POST per origin: several --url values on one server share its cache.
  std::vector<std::string> origins;
  std::unordered_set<std::string> seen;
  for (const auto& url : urls) {
    auto origin = url_origin(url);
    if (!origin) return tl::unexpected(origin.error());
    if (seen.insert(*origin).second) origins.push_back(url);
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
        std::this_thread::sleep_for(std::chrono::nanoseconds(wait));
      }
    }
  }
  return out;
}

}  // namespace servebench::transport
