// EventLoop: one per worker thread. epoll for sockets, one timerfd armed at the earliest due
// timer (absolute steady ns, sub-millisecond resolution; the owning thread sets
// PR_SET_TIMERSLACK to 1 ns), an eventfd for wake-ups from other threads.
//
// Thread safety: everything runs on the thread that calls run(); only wake() and
// request_stop() may be called from other threads.
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
