// SignalWatcher in a forked child (it owns the process's SIGINT/SIGTERM): what each stage does
// with one and with two signals, observed through the child's exit status.
#include "app/signal_watcher.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "core/interrupt.h"

namespace servebench::app {
namespace {

// Child: a watcher in `stage`, `signals` SIGINTs to itself, then it reports what it saw:
// exit 10 + interrupt_level() if the watcher let it live for `live_ms`.
int child_status(Stage stage, int signals, int sig = SIGINT, int live_ms = 300) {
  const pid_t pid = fork();
  if (pid == 0) {
    SignalWatcher watcher("test");
    watcher.set_stage(stage);
    for (int i = 0; i < signals; ++i) {
      kill(getpid(), sig);
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(live_ms));
    _exit(10 + interrupt_level());
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
}

TEST(SignalWatcher, LoadStageCountsSignalsAndNeverExits) {
  EXPECT_EQ(child_status(Stage::kLoad, 0), 10);
  EXPECT_EQ(child_status(Stage::kLoad, 1), 11);
  EXPECT_EQ(child_status(Stage::kLoad, 2), 12)
      << "the run library forwards the second as 'stop now'";
}

TEST(SignalWatcher, SetUpExitsWithTheSignalsCodeWhenSetUpDoesNotStop) {
  EXPECT_EQ(child_status(Stage::kSetup, 1, SIGTERM, 1500), 143)
      << "set-up ignored the flag: exit after the grace";
  EXPECT_EQ(child_status(Stage::kSetup, 2, SIGINT, 0), 130) << "a second Ctrl-C exits at once";
}

TEST(SignalWatcher, ExportFinishesOnOneSignalAndStopsOnTwo) {
  EXPECT_EQ(child_status(Stage::kExport, 1, SIGINT, 1000), 11);
  EXPECT_EQ(child_status(Stage::kExport, 2), 130);
}

TEST(SignalWatcher, AFlagWithoutASignalIsLevelOne) {
  core::reset_interrupt_for_test();
  EXPECT_EQ(interrupt_level(), 0);
  core::request_interrupt(SIGINT);
  EXPECT_EQ(interrupt_level(), 1);
  core::reset_interrupt_for_test();
}

}  // namespace
}  // namespace servebench::app
