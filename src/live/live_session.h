// LiveSession: everything that watches a run while it goes — LiveStats fed by the run's hooks,
// the terminal display (dashboard, simple line or plain periodic lines) on its own thread, and
// the live API server (api_server.h) — attached to a run through app::RunHooks.
//
// Display modes: kDashboard on a terminal redraws a multi-line frame at 4 Hz; kSimple on a
// terminal rewrites one line at 4 Hz; either without a terminal prints one plain progress line
// every `plain_interval_ns` (and one at the end); kNone prints nothing. The display thread
// publishes the snapshot (LiveStats::publish) each tick, so the API sees figures at most 250 ms
// old. Neither thread touches the workers.
//
// Thread safety: construct, attach and destroy from the thread that runs the benchmark; the
// hooks it installs run where app::RunHooks says.
#pragma once

#include <condition_variable>
#include <cstdio>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "app/run.h"
#include "config/benchmark_config.h"
#include "core/result.h"
#include "live/api_server.h"
#include "live/live_stats.h"

namespace servebench::live {

enum class Display { kNone, kDashboard, kSimple, kPlain };

// The display for --ui-type on a terminal or not: auto → dashboard on a terminal, plain lines
// otherwise (none with -q); dashboard/simple without a terminal → plain lines.
Display choose_display(config::UiType ui, bool tty, int verbosity);

struct LiveSessionOptions {
  Display display = Display::kNone;
  std::FILE* out = stderr;
  int width = 80;
  bool color = true;
  int64_t frame_interval_ns = 250'000'000;
  int64_t plain_interval_ns = 5'000'000'000;
  std::optional<int64_t> api_port;
  std::string api_host = "127.0.0.1";
  std::string config_json;  // /api/config (already redacted)
  bool has_warmup = false;
  LiveOptions stats;
};

// Options from a validated config and the process's stderr.
LiveSessionOptions live_options_from(const config::BenchmarkConfig& cfg);

class LiveSession {
 public:
  // Starts the API server when asked (usage error when it cannot listen) and the display thread.
  static Result<std::unique_ptr<LiveSession>> start(LiveSessionOptions options,
                                                    const core::Clock& clock);
  ~LiveSession();  // final frame or line, then stops both threads
  LiveSession(const LiveSession&) = delete;
  LiveSession& operator=(const LiveSession&) = delete;

  // Chains the session's handlers after any already in `hooks`. Does nothing when there is
  // neither a display nor an API (the run then pays nothing for the session).
  void attach(app::RunHooks* hooks);
  bool active() const { return options_.display != Display::kNone || api_ != nullptr; }
  // The API's port (the bound one when 0 was asked); 0 without an API.
  int api_port() const { return api_ ? api_->port() : 0; }
  LiveStats& stats() { return stats_; }

 private:
  LiveSession(LiveSessionOptions options, const core::Clock& clock);
  void loop();
  void draw(bool final_frame);
  bool frame_due() const;
  ApiResponse route(const std::string& path) const;

  const LiveSessionOptions options_;
  const core::Clock& clock_;
  LiveStats stats_;
  std::unique_ptr<ApiServer> api_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;  // guarded by mu_
  // Display thread only (and the destructor after the join).
  int frame_lines_ = 0;
  int64_t last_plain_ns_ = 0;
  std::thread thread_;
};

}  // namespace servebench::live
