#include "transport/event_loop.h"

#include <gtest/gtest.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>
#include <thread>
#include <vector>

namespace servebench::transport {
namespace {

std::unique_ptr<EventLoop> make_loop(const core::Clock& clock) {
  auto loop = EventLoop::create(clock);
  EXPECT_TRUE(loop.has_value());
  return std::move(*loop);
}

TEST(EventLoop, CreateLowersTimerSlackOfCallingThread) {
  prctl(PR_SET_TIMERSLACK, 50000UL, 0, 0, 0);
  core::FakeClock clock;
  auto loop = make_loop(clock);
  EXPECT_EQ(prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0), 1);
}

TEST(EventLoop, TimersRunInDueOrderWithTiesInCreationOrder) {
  core::FakeClock clock(1000);
  auto loop = make_loop(clock);
  std::vector<std::string> fired;
  loop->add_timer(1030, [&] { fired.push_back("c30"); });
  loop->add_timer(1010, [&] { fired.push_back("a10"); });
  loop->add_timer(1020, [&] { fired.push_back("b20"); });
  loop->add_timer(1010, [&] { fired.push_back("a10-second"); });
  loop->run_once(0);
  EXPECT_TRUE(fired.empty());
  clock.set_ns(1025);
  loop->run_once(0);
  EXPECT_EQ(fired, (std::vector<std::string>{"a10", "a10-second", "b20"}));
  clock.set_ns(1030);
  loop->run_once(0);
  EXPECT_EQ(fired.back(), "c30");
  EXPECT_EQ(fired.size(), 4u);
}

// Timers reuse the slots of cancelled ones (their ids then do not grow with creation order):
// ties still run in creation order, and a cancelled id stays dead.
TEST(EventLoop, TiesRunInCreationOrderAfterSlotsAreReused) {
  core::FakeClock clock(0);
  auto loop = make_loop(clock);
  std::vector<std::string> fired;
  std::vector<EventLoop::TimerId> old;
  for (int i = 0; i < 3; ++i) old.push_back(loop->add_timer(50, [&] { fired.push_back("old"); }));
  for (EventLoop::TimerId id : old) loop->cancel_timer(id);
  for (const char* name : {"x", "y", "z"}) {
    loop->add_timer(10, [&fired, name] { fired.push_back(name); });
  }
  for (EventLoop::TimerId id : old) loop->cancel_timer(id);  // stale: must not cancel x, y, z
  clock.set_ns(100);
  loop->run_once(0);
  EXPECT_EQ(fired, (std::vector<std::string>{"x", "y", "z"}));
}

TEST(EventLoop, CancelledTimersDoNotRun) {
  core::FakeClock clock;
  auto loop = make_loop(clock);
  int ran = 0;
  auto a = loop->add_timer(10, [&] { ran += 1; });
  loop->add_timer(20, [&] { ran += 10; });
  loop->cancel_timer(a);
  loop->cancel_timer(12345);  // unknown: no-op
  clock.set_ns(100);
  loop->run_once(0);
  EXPECT_EQ(ran, 10);
}

TEST(EventLoop, TimerAddedByCallbackRunsNextIteration) {
  core::FakeClock clock;
  auto loop = make_loop(clock);
  std::vector<int> fired;
  loop->add_timer(5, [&] {
    fired.push_back(1);
    loop->add_timer(0, [&] { fired.push_back(2); });  // already due
  });
  clock.set_ns(10);
  loop->run_once(0);
  EXPECT_EQ(fired, (std::vector<int>{1}));
  loop->run_once(0);
  EXPECT_EQ(fired, (std::vector<int>{1, 2}));
}

TEST(EventLoop, FakeClockRunOnceWaitsNoLongerThanEarliestTimer) {
  // With a fake clock nothing advances time, so run_once(-1) must not block on a pending timer
  // that is already due.
  core::FakeClock clock(50);
  auto loop = make_loop(clock);
  bool ran = false;
  loop->add_timer(40, [&] { ran = true; });
  loop->run_once(-1);
  EXPECT_TRUE(ran);
}

TEST(EventLoop, PostFromAnotherThreadRunsOnLoopThread) {
  auto loop = make_loop(core::SteadyClock::instance());
  std::thread::id ran_on;
  int count = 0;
  std::thread other([&] {
    for (int i = 0; i < 100; ++i) loop->post([&] { ++count; });
    loop->post([&] {
      ran_on = std::this_thread::get_id();
      loop->request_stop();
    });
  });
  loop->run();
  other.join();
  EXPECT_EQ(count, 100);
  EXPECT_EQ(ran_on, std::this_thread::get_id());
}

TEST(EventLoop, RequestStopFromAnotherThreadEndsRun) {
  auto loop = make_loop(core::SteadyClock::instance());
  std::thread other([&] { loop->request_stop(); });
  loop->run();  // returns only because of request_stop
  other.join();
  // A stop is consumed by the run it ended: a later stop-then-run returns at once.
  loop->request_stop();
  loop->run();
  SUCCEED();
}

TEST(EventLoop, RealClockTimerFiresNotEarlyAndInOrder) {
  const core::Clock& clock = core::SteadyClock::instance();
  auto loop = make_loop(clock);
  const int64_t t0 = clock.now_ns();
  std::vector<std::pair<int, int64_t>> fired;
  for (int i : {3, 1, 2}) {
    loop->add_timer(t0 + i * 200'000, [&, i] {
      fired.push_back({i, clock.now_ns()});
      if (fired.size() == 3) loop->request_stop();
    });
  }
  loop->run();
  ASSERT_EQ(fired.size(), 3u);
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(fired[k].first, k + 1);
    EXPECT_GE(fired[k].second, t0 + (k + 1) * 200'000);
  }
}

class SocketPair : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, fds_), 0); }
  void TearDown() override {
    close(fds_[0]);
    close(fds_[1]);
  }
  int fds_[2];
};

TEST_F(SocketPair, WatchReportsReadableAndWritable) {
  core::FakeClock clock;
  auto loop = make_loop(clock);
  uint32_t seen = 0;
  ASSERT_TRUE(loop->watch(fds_[0], EventLoop::kReadable, [&](int, uint32_t ev) { seen |= ev; }));
  loop->run_once(0);
  EXPECT_EQ(seen, 0u);
  ASSERT_EQ(write(fds_[1], "x", 1), 1);
  loop->run_once(0);
  EXPECT_TRUE(seen & EventLoop::kReadable);
  seen = 0;
  ASSERT_TRUE(loop->watch(fds_[0], EventLoop::kWritable, [&](int, uint32_t ev) { seen |= ev; }));
  loop->run_once(0);
  EXPECT_EQ(seen, EventLoop::kWritable);
  loop->unwatch(fds_[0]);
  seen = 0;
  loop->run_once(0);
  EXPECT_EQ(seen, 0u);
}

TEST_F(SocketPair, CallbackMayRewatchAndUnwatchItself) {
  core::FakeClock clock;
  auto loop = make_loop(clock);
  std::vector<std::string> log;
  ASSERT_EQ(write(fds_[1], "x", 1), 1);
  ASSERT_TRUE(loop->watch(fds_[0], EventLoop::kReadable, [&](int fd, uint32_t) {
    log.push_back("first");
    // Replace our own callback while it runs (what curl's socket callback does).
    ASSERT_TRUE(loop->watch(fd, EventLoop::kReadable, [&](int fd2, uint32_t) {
      log.push_back("second");
      loop->unwatch(fd2);
    }));
  }));
  loop->run_once(0);
  loop->run_once(0);
  loop->run_once(0);  // unwatched: nothing more although the byte is still unread
  EXPECT_EQ(log, (std::vector<std::string>{"first", "second"}));
}

TEST_F(SocketPair, FdClosedAndReusedWhileEventsPendingIsNotMisdelivered) {
  core::FakeClock clock;
  auto loop = make_loop(clock);
  int other_fd = dup(fds_[1]);
  int calls_a = 0, calls_b = 0;
  ASSERT_EQ(write(fds_[1], "x", 1), 1);
  ASSERT_EQ(write(fds_[0], "y", 1), 1);
  // Both fds readable in one epoll batch; the first callback unwatches the second.
  ASSERT_TRUE(loop->watch(fds_[0], EventLoop::kReadable, [&](int, uint32_t) { ++calls_a; loop->unwatch(other_fd); }));
  ASSERT_TRUE(loop->watch(other_fd, EventLoop::kReadable, [&](int, uint32_t) { ++calls_b; loop->unwatch(fds_[0]); }));
  loop->run_once(0);
  EXPECT_EQ(calls_a + calls_b, 1);  // whichever ran first removed the other
  close(other_fd);
}

}  // namespace
}  // namespace servebench::transport
