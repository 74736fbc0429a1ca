#include "app/server_profiler.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/log.h"
#include "transport/kv_cache_reset.h"

namespace servebench::app {

ServerProfiler::ServerProfiler(ServerProfilerOptions options, FetchFn fetch)
    : options_(std::move(options)), fetch_(std::move(fetch)) {
  if (!fetch_) fetch_ = [](const control::ControlRequest& rq) { return control::fetch_once(rq); };
  for (const auto& u : options_.urls) {
    auto origin = transport::url_origin(u);
    if (!origin) continue;  // --url was validated; an unusable one has nothing to profile
    if (std::find(origins_.begin(), origins_.end(), *origin) == origins_.end())
      origins_.push_back(*origin);
  }
}

Result<int> ServerProfiler::post(const std::string& origin, const std::string& path) {
  control::ControlRequest rq;
  rq.method = control::Method::kPost;
  rq.url = origin + path;
  rq.headers = options_.headers;
  rq.timeout_ns = options_.timeout_ns;
  rq.verify_tls = options_.verify_tls;
  rq.keep_body = false;
  auto r = fetch_(rq);
  if (!r) return make_error(r.error().code, fmt::format("POST {}: {}", rq.url, r.error().message));
  if (r->http_status < 200 || r->http_status > 299)
    return make_error(ErrorCode::kNetwork, fmt::format("POST {}: HTTP {}", rq.url, r->http_status));
  return r->http_status;
}

Status ServerProfiler::start() {
  for (const auto& origin : origins_) {
    auto r = post(origin, options_.start_path);
    if (!r) {
      for (auto& w : stop()) SB_LOG_WARN("{}", w);  // the ones already started, reverse order
      return make_error(ErrorCode::kNetwork,
                        "--server-profiler start failed, no profiling load was sent: " +
                            r.error().message);
    }
    ++started_;
    SB_LOG_INFO("server profiler started: POST {}{} -> HTTP {}", origin, options_.start_path, *r);
  }
  return {};
}

std::vector<std::string> ServerProfiler::stop() {
  std::vector<std::string> warnings;
  for (size_t i = started_; i-- > 0;) {
    auto r = post(origins_[i], options_.stop_path);
    if (!r) warnings.push_back("--server-profiler stop failed: " + r.error().message);
    else SB_LOG_INFO("server profiler stopped: POST {}{} -> HTTP {}", origins_[i], options_.stop_path, *r);
  }
  started_ = 0;
  return warnings;
}

RunHooks ServerProfiler::wrap(const RunHooks& hooks, bool start_in_hook) {
  RunHooks out = hooks;
  if (start_in_hook) {
    out.load_started = [this, inner = hooks.load_started](const PhaseInfo& info) {
      if (auto st = start(); !st) warnings_.push_back(st.error().message);
      if (inner) inner(info);
    };
  }
  out.after_grace = [this, inner = hooks.after_grace](const PhaseInfo& info) {
    for (auto& w : stop()) warnings_.push_back(std::move(w));
    if (inner) inner(info);
  };
  return out;
}

}  // namespace servebench::app
