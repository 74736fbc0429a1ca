#include "app/signal_watcher.h"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "core/interrupt.h"

namespace servebench::app {
namespace {

std::atomic<int> g_signals{0};
constexpr int64_t kSetupGraceNs = 700'000'000;  // for a set-up step that does not poll the flag
constexpr long kTickNs = 50'000'000;

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

sigset_t watched() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  return set;
}

const char* signal_name(int sig) { return sig == SIGTERM ? "SIGTERM" : "SIGINT"; }

}  // namespace

int interrupt_level() {
  if (!core::interrupt_requested()) return 0;
  return std::max(1, g_signals.load(std::memory_order_relaxed));
}

SignalWatcher::SignalWatcher(std::string program) : program_(std::move(program)) {
  const sigset_t set = watched();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  thread_ = std::thread([this] { loop(); });
}

SignalWatcher::~SignalWatcher() {
  stop_.store(true);
  thread_.join();
}

void SignalWatcher::loop() {
  const sigset_t set = watched();
  const timespec tick{0, kTickNs};
  while (!stop_.load()) {
    const int sig = sigtimedwait(&set, nullptr, &tick);
    if (sig == SIGINT || sig == SIGTERM) on_signal(sig);
    if (setup_deadline_ns_ != 0 && stage_.load() == Stage::kSetup &&
        now_ns() >= setup_deadline_ns_) {
      std::fprintf(stderr, "%s: interrupted during set-up (%s); nothing was sent\n",
                   program_.c_str(), signal_name(core::interrupt_signal()));
      _exit(128 + core::interrupt_signal());
    }
  }
}

void SignalWatcher::on_signal(int sig) {
  ++count_;
  core::request_interrupt(sig);
  g_signals.store(count_, std::memory_order_relaxed);
  const int first = core::interrupt_signal();
  switch (stage_.load()) {
    case Stage::kSetup:
      if (count_ == 1) {
        setup_deadline_ns_ = now_ns() + kSetupGraceNs;
        return;
      }
      std::fprintf(stderr, "%s: interrupted during set-up (%s); nothing was sent\n",
                   program_.c_str(), signal_name(first));
      _exit(128 + first);
    case Stage::kLoad:
      if (count_ == 1)
        std::fprintf(stderr,
                     "\n%s: interrupted; draining in-flight requests (Ctrl-C again to stop now)\n",
                     program_.c_str());
      return;  // the run library forwards each level to the runner
    case Stage::kExport:
      if (count_ == 1) {
        std::fprintf(stderr,
                     "\n%s: interrupted; finishing the artifacts (Ctrl-C again to stop now)\n",
                     program_.c_str());
        return;
      }
      std::fprintf(stderr, "%s: stopped while writing artifacts; they may be incomplete\n",
                   program_.c_str());
      _exit(128 + first);
  }
}

}  // namespace servebench::app
