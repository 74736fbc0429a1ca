#include "live/live_session.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <utility>

#include "core/secrets.h"
#include "live/live_json.h"
#include "live/render.h"

namespace servebench::live {

Display choose_display(config::UiType ui, bool tty, int verbosity) {
  switch (ui) {
    case config::UiType::kNone:
      return Display::kNone;
    case config::UiType::kDashboard:
      return tty ? Display::kDashboard : Display::kPlain;
    case config::UiType::kSimple:
      return tty ? Display::kSimple : Display::kPlain;
    case config::UiType::kAuto:
      break;
  }
  if (tty) return Display::kDashboard;
  return verbosity > 0 ? Display::kPlain : Display::kNone;
}

LiveSessionOptions live_options_from(const config::BenchmarkConfig& cfg) {
  LiveSessionOptions o;
  const bool tty = ::isatty(STDERR_FILENO) == 1;
  o.display = choose_display(cfg.ui, tty, cfg.verbosity);
  winsize ws{};
  if (tty && ::ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) o.width = ws.ws_col;
  o.color = tty;
  o.api_port = cfg.api_port;
  o.api_host = cfg.api_host;
  if (cfg.api_port) o.config_json = core::secrets::scrub(config::to_json(cfg));
  if (cfg.parity.stats_interval_ns) {  // --stats-interval (0: no progress lines)
    o.plain_interval_ns = *cfg.parity.stats_interval_ns;
    if (o.plain_interval_ns == 0 && o.display == Display::kPlain) o.display = Display::kNone;
  }
  o.has_warmup = cfg.has_warmup();
  o.stats.expected_requests = cfg.effective_request_count().value_or(-1);
  o.stats.duration_ns = cfg.benchmark_duration_ns.value_or(0);
  return o;
}

Result<std::unique_ptr<LiveSession>> LiveSession::start(LiveSessionOptions options,
                                                        const core::Clock& clock) {
  std::unique_ptr<LiveSession> s(new LiveSession(std::move(options), clock));
  if (s->options_.api_port) {
    LiveSession* self = s.get();
    auto api = ApiServer::start(s->options_.api_host, static_cast<int>(*s->options_.api_port),
                                [self](const std::string& path) { return self->route(path); });
    if (!api) return tl::unexpected(api.error());
    s->api_ = std::move(*api);
  }
  if (s->active()) s->thread_ = std::thread([p = s.get()] { p->loop(); });
  return s;
}

LiveSession::LiveSession(LiveSessionOptions options, const core::Clock& clock)
    : options_(std::move(options)), clock_(clock), stats_(options_.stats, clock) {}

LiveSession::~LiveSession() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
  api_.reset();  // before the stats it reads
  if (options_.display != Display::kNone) {
    stats_.publish();
    draw(true);
  }
}

void LiveSession::attach(app::RunHooks* hooks) {
  if (!active()) return;
  auto chain = [](std::function<void(const app::PhaseInfo&)>& slot, auto mine) {
    slot = [prev = std::move(slot), mine](const app::PhaseInfo& info) {
      if (prev) prev(info);
      mine(info);
    };
  };
  chain(hooks->before_load, [this](const app::PhaseInfo&) {
    if (options_.has_warmup) stats_.set_phase(LivePhase::kWarmup);
  });
  chain(hooks->load_started, [this](const app::PhaseInfo& info) {
    stats_.set_phase(LivePhase::kProfiling, info.load_start_ns);
  });
  chain(hooks->load_ended,
        [this](const app::PhaseInfo&) { stats_.set_phase(LivePhase::kDraining); });
  chain(hooks->after_grace, [this](const app::PhaseInfo&) { stats_.set_phase(LivePhase::kDone); });
  hooks->records = [prev = std::move(hooks->records), this](const auto& batch) {
    if (prev) prev(batch);
    stats_.add(batch);
  };
  hooks->progress = [prev = std::move(hooks->progress), this](int64_t issued) {
    if (prev) prev(issued);
    stats_.set_issued(issued);
  };
}

void LiveSession::loop() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!stop_) {
    cv_.wait_for(lock, std::chrono::nanoseconds(options_.frame_interval_ns));
    if (stop_) break;
    if (!frame_due()) continue;
    lock.unlock();
    stats_.publish();
    draw(false);
    lock.lock();
  }
}

// Plain progress lines come every plain_interval_ns: without the API nothing reads the figures
// in between, and each publish sorts the window's samples (up to kMaxWindowSamples).
bool LiveSession::frame_due() const {
  if (api_ != nullptr || options_.display != Display::kPlain || last_plain_ns_ == 0) return true;
  return clock_.now_ns() - last_plain_ns_ >= options_.plain_interval_ns;
}

void LiveSession::draw(bool final_frame) {
  const LiveSnapshot s = stats_.snapshot();
  if (s.phase == LivePhase::kSetup) return;  // nothing to show before the load
  std::string out;
  switch (options_.display) {
    case Display::kNone:
      return;
    case Display::kDashboard: {
      // Move to the start of the previous frame and clear below it, then draw the new one.
      if (frame_lines_ > 0) out += "\x1b[" + std::to_string(frame_lines_) + "F\x1b[J";
      const std::string frame =
          fit_lines(render_frame(s, {options_.width, options_.color}), options_.width - 1);
      frame_lines_ = static_cast<int>(std::count(frame.begin(), frame.end(), '\n'));
      out += frame;
      break;
    }
    case Display::kSimple: {
      std::string line = render_line(s);
      if (options_.width > 1 && static_cast<int>(line.size()) >= options_.width)
        line.resize(static_cast<size_t>(options_.width - 1));
      out = "\r" + line + "\x1b[K";
      if (final_frame) out += "\n";
      break;
    }
    case Display::kPlain: {
      const int64_t now = clock_.now_ns();
      if (!final_frame && last_plain_ns_ != 0 && now - last_plain_ns_ < options_.plain_interval_ns)
        return;
      if (last_plain_ns_ == 0 && !final_frame) {  // the first line after a full interval
        last_plain_ns_ = now;
        return;
      }
      last_plain_ns_ = now;
      out = "servebench: " + render_line(s) + "\n";
      break;
    }
  }
  std::fputs(out.c_str(), options_.out);
  std::fflush(options_.out);
}

ApiResponse LiveSession::route(const std::string& path) const {
  const LiveSnapshot s = stats_.snapshot();
  if (path == "/healthz") return {200, "application/json", "{\"status\":\"ok\"}"};
  if (path == "/api/progress") return {200, "application/json", progress_json(s)};
  if (path == "/api/metrics") return {200, "application/json", metrics_json(s)};
  if (path == "/api/config")
    return {200, "application/json", core::secrets::scrub(options_.config_json)};
  if (path == "/metrics")
    return {200, "text/plain; version=0.0.4; charset=utf-8", prometheus_text(s)};
  return {404, "application/json", "{\"error\":\"not found\"}"};
}

}  // namespace servebench::live
