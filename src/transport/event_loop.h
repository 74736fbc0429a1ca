// EventLoop: one per worker thread. epoll for sockets, one timerfd armed at the earliest due
// timer (absolute steady ns, sub-millisecond resolution; the owning thread sets
// PR_SET_TIMERSLACK to 1 ns), an eventfd for wake-ups from other threads.
//
// Thread safety: everything runs on the thread that calls run(); only post() and
// request_stop() may be called from other threads.
//
// create() lowers the CALLING thread's timer slack to 1 ns (prctl PR_SET_TIMERSLACK; the
// default 50 us would make every timerfd/epoll wake-up up to 50 us late), so create the loop on
// the thread that will run it.
//
// Clocks: with core::SteadyClock (CLOCK_MONOTONIC) timers are armed on the timerfd at their
// absolute due time, so a blocked epoll_wait wakes exactly then. With any other clock (tests'
// FakeClock) no timerfd is armed: run_once() runs the timers whose due time has passed on that
// clock, and waits at most until the earliest due time as that clock measures it.
//
// Cost: watch() on an fd already watched with the same interest makes no system call (it only
// swaps the callback); a changed interest is one EPOLL_CTL_MOD. The timerfd is re-armed only
// when the earliest due time changes. post() writes the eventfd only when its queue was empty.
// Callbacks may watch/unwatch any fd (including the one being dispatched), add and cancel
// timers and post.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

#include "core/clock.h"
#include "core/result.h"

namespace servebench::transport {

class EventLoop {
 public:
  using TimerId = uint64_t;
  // events: bitmask of kReadable | kWritable | kError (EPOLL semantics).
  using FdCallback = std::function<void(int fd, uint32_t events)>;
  static constexpr uint32_t kReadable = 1;
  static constexpr uint32_t kWritable = 2;
  static constexpr uint32_t kError = 4;

  static Result<std::unique_ptr<EventLoop>> create(const core::Clock& clock);
  virtual ~EventLoop() = default;

  // Fd watching (used by HttpClient implementations). Re-watching an fd updates its interest.
  virtual Status watch(int fd, uint32_t interest, FdCallback cb) = 0;
  virtual void unwatch(int fd) = 0;

  // Timers at absolute steady time `due_ns`; callbacks run on the loop thread, in due order.
  virtual TimerId add_timer(int64_t due_ns, std::function<void()> cb) = 0;
  virtual void cancel_timer(TimerId id) = 0;

  // Timers whose due time has passed run in due order (ties: creation order); a timer added by a
  // callback with a due time already passed runs in the next iteration, so timers cannot starve
  // I/O. cancel_timer on a fired or unknown id is a no-op.
  // Runs until request_stop(). Returns after the current iteration completes.
  virtual void run() = 0;
  // Runs one iteration, waiting at most timeout_ns for events (tests and custom drivers).
  virtual void run_once(int64_t timeout_ns) = 0;
  // Thread-safe: makes run() return soon.
  virtual void request_stop() = 0;
  // Thread-safe: wakes the loop and runs `cb` on the loop thread.
  virtual void post(std::function<void()> cb) = 0;

  virtual const core::Clock& clock() const = 0;
};

}  // namespace servebench::transport
