// SignalWatcher: takes SIGINT and SIGTERM for the whole process on one thread, so no code runs
// in signal context, and raises the process interrupt flag (core/interrupt.h) that set-up
// loops and the run library poll. Construct it before any other thread exists: it blocks both
// signals in the calling thread and every thread created later inherits the mask; a signal that
// arrives before a run starts stays pending here and interrupts the run as it begins.
//
// What a signal does depends on the stage the owner reports:
//   - set-up: stop (set-up loops poll the flag); if the process is still in set-up 0.7 s later
//     (a step that does not poll), or on a second signal, it exits at once with 128 + signal
//     and one line: nothing was sent, nothing to write.
//   - load: the run library drains in-flight requests briefly, then cancels them; a second
//     signal cancels at once. Artifacts are written either way.
//   - export: the artifacts are finished; a second signal exits at once.
//
// Thread safety: set_stage from any thread. One watcher per process.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>

namespace servebench::app {

enum class Stage { kSetup, kLoad, kExport };

class SignalWatcher {
 public:
  explicit SignalWatcher(std::string program);
  ~SignalWatcher();
  SignalWatcher(const SignalWatcher&) = delete;
  SignalWatcher& operator=(const SignalWatcher&) = delete;

  void set_stage(Stage stage) { stage_.store(stage); }

 private:
  void loop();
  void on_signal(int sig);

  const std::string program_;
  std::atomic<Stage> stage_{Stage::kSetup};
  std::atomic<bool> stop_{false};
  int count_ = 0;                  // watcher thread only
  int64_t setup_deadline_ns_ = 0;  // watcher thread only; 0 = none
  std::thread thread_;
};

// How many interrupts the process has seen: 0, or the number of signals taken (a flag raised
// without a signal, e.g. by a test, counts as 1). The run library forwards each to the runner.
int interrupt_level();

}  // namespace servebench::app
