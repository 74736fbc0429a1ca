#include "app/load_monitor.h"

#include <algorithm>
#include <chrono>

#include "app/signal_watcher.h"

namespace servebench::app {
namespace {
// How often interrupts and the duration's end are checked: well under the second a user waits
// for Ctrl-C to act, and negligible work for a thread that never touches the workers.
constexpr auto kTick = std::chrono::milliseconds(20);
}  // namespace

LoadMonitor::LoadMonitor(load::Runner* runner, const RunHooks& hooks, PhaseInfo info,
                         std::optional<int64_t> duration_ns, const core::Clock& clock)
    : runner_(runner),
      hooks_(hooks),
      duration_ns_(duration_ns),
      clock_(clock),
      info_(std::move(info)) {
  forward_interrupts();  // an interrupt raised before the load reaches the runner before it starts
  thread_ = std::thread([this] { loop(); });
}

LoadMonitor::~LoadMonitor() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void LoadMonitor::on_phase_start(record::Phase phase, int64_t start_ns) {
  if (phase != record::Phase::kProfiling) return;
  {
    std::lock_guard<std::mutex> lock(mu_);
    profiling_start_ns_ = start_ns;
  }
  cv_.notify_all();
}

void LoadMonitor::forward_interrupts() {
  // Two levels matter to the runner: drain, then cancel at once.
  const int want = std::min(2, interrupt_level());
  for (; forwarded_ < want; ++forwarded_) runner_->interrupt();
}

void LoadMonitor::loop() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!stop_) {
    cv_.wait_for(lock, kTick);
    if (stop_) break;
    const int64_t t0 = profiling_start_ns_;
    lock.unlock();
    forward_interrupts();
    if (hooks_.progress) hooks_.progress(runner_->issued());
    if (t0 != 0 && !started_called_) {
      started_called_ = true;
      info_.load_start_ns = t0;
      info_.at_ns = t0;
      if (hooks_.load_started) hooks_.load_started(info_);
    }
    if (started_called_ && !ended_called_ && duration_ns_ &&
        clock_.now_ns() >= t0 + *duration_ns_) {
      ended_called_ = true;
      info_.load_end_ns = t0 + *duration_ns_;
      info_.at_ns = info_.load_end_ns;
      info_.interrupted = forwarded_ > 0;
      if (hooks_.load_ended) hooks_.load_ended(info_);
    }
    lock.lock();
  }
}

PhaseInfo LoadMonitor::finish(int64_t end_ns, bool interrupted) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
  int64_t t0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    t0 = profiling_start_ns_;
  }
  if (!started_called_) {
    started_called_ = true;
    info_.load_start_ns = t0;  // 0: the profiling phase never started
    info_.at_ns = t0 != 0 ? t0 : end_ns;
    if (hooks_.load_started) hooks_.load_started(info_);
  }
  info_.interrupted = interrupted;
  if (hooks_.progress) hooks_.progress(runner_->issued());
  if (!ended_called_) {
    ended_called_ = true;
    info_.load_end_ns = end_ns;
    info_.at_ns = end_ns;
    if (hooks_.load_ended) hooks_.load_ended(info_);
  }
  return info_;
}

}  // namespace servebench::app
