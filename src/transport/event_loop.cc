#include "transport/event_loop.h"

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "transport/timer_heap.h"
#include "transport/timer_slots.h"

namespace servebench::transport {

namespace {

constexpr uint32_t kTimerFdTag = 0xFFFFFFFFu;  // epoll data for the timerfd ...
constexpr uint32_t kWakeFdTag = 0xFFFFFFFEu;   // ... and for the eventfd
constexpr int kMaxEvents = 256;

uint32_t to_epoll(uint32_t interest) {
  uint32_t ev = 0;
  if (interest & EventLoop::kReadable) ev |= EPOLLIN | EPOLLRDHUP;
  if (interest & EventLoop::kWritable) ev |= EPOLLOUT;
  return ev;
}

uint32_t from_epoll(uint32_t ev) {
  uint32_t out = 0;
  if (ev & (EPOLLIN | EPOLLRDHUP | EPOLLPRI)) out |= EventLoop::kReadable;
  if (ev & EPOLLOUT) out |= EventLoop::kWritable;
  if (ev & (EPOLLERR | EPOLLHUP)) out |= EventLoop::kError;
  return out;
}

std::string errno_text(const char* what) { return std::string(what) + ": " + std::strerror(errno); }

class EpollEventLoop final : public EventLoop {
 public:
  EpollEventLoop(const core::Clock& clock, int epfd, int tfd, int wfd, bool real_clock)
      : clock_(clock), epfd_(epfd), timerfd_(tfd), wakefd_(wfd), real_clock_(real_clock) {}

  ~EpollEventLoop() override {
    close(epfd_);
    close(timerfd_);
    close(wakefd_);
  }

  Status watch(int fd, uint32_t interest, FdCallback cb) override {
    if (fd < 0) return make_error(ErrorCode::kInvalidArgument, "watch: negative fd");
    if (static_cast<size_t>(fd) >= watches_.size()) watches_.resize(fd + 1);
    Watch& w = watches_[fd];
    if (fd == dispatching_fd_) {
      deferred_cb_ = std::move(cb);
      has_deferred_cb_ = true;
    } else {
      w.cb = std::move(cb);
    }
    if (w.active && w.interest == interest) return core::ok_status();
    epoll_event ev{};
    ev.events = to_epoll(interest);
    if (w.active) {
      ev.data.u64 = (static_cast<uint64_t>(w.gen) << 32) | static_cast<uint32_t>(fd);
      if (epoll_ctl(epfd_, EPOLL_CTL_MOD, fd, &ev) != 0) return make_error(ErrorCode::kIo, errno_text("epoll_ctl MOD"));
    } else {
      ++w.gen;
      ev.data.u64 = (static_cast<uint64_t>(w.gen) << 32) | static_cast<uint32_t>(fd);
      if (epoll_ctl(epfd_, EPOLL_CTL_ADD, fd, &ev) != 0) return make_error(ErrorCode::kIo, errno_text("epoll_ctl ADD"));
      w.active = true;
    }
    w.interest = interest;
    return core::ok_status();
  }

  void unwatch(int fd) override {
    if (fd < 0 || static_cast<size_t>(fd) >= watches_.size()) return;
    Watch& w = watches_[fd];
    if (!w.active) return;
    // EBADF/ENOENT: the fd was already closed (the kernel dropped it); nothing to undo.
    epoll_ctl(epfd_, EPOLL_CTL_DEL, fd, nullptr);
    w.active = false;
    ++w.gen;  // events already fetched for the old registration are dropped
    if (fd == dispatching_fd_) {
      has_deferred_cb_ = false;
      clear_after_dispatch_ = true;
    } else {
      w.cb = nullptr;
    }
  }

  TimerId add_timer(int64_t due_ns, std::function<void()> cb) override {
    const TimerId id = timers_.add(std::move(cb));
    heap_.push({due_ns, ++last_timer_seq_, id});
    if (real_clock_ && (armed_ns_ == 0 || due_ns < armed_ns_)) arm(due_ns);
    return id;
  }

  void cancel_timer(TimerId id) override {
    if (timers_.cancel(id)) heap_.cancelled([this](uint64_t i) { return timers_.live(i); });
  }

  void run() override {
    while (!stop_.exchange(false, std::memory_order_acq_rel)) run_once(-1);
  }

  void run_once(int64_t timeout_ns) override {
    const int64_t now = clock_.now_ns();
    const int64_t next_due = next_due_ns();
    int64_t wait_ns = timeout_ns;
    if (next_due != kNoTimer) {
      if (next_due <= now) {
        wait_ns = 0;
      } else if (!real_clock_) {
        wait_ns = (wait_ns < 0) ? next_due - now : std::min(wait_ns, next_due - now);
      }
    }
    if (stop_.load(std::memory_order_relaxed) || posted_pending_.load(std::memory_order_relaxed)) wait_ns = 0;

    epoll_event events[kMaxEvents];
    int n = wait(events, wait_ns);
    for (int i = 0; i < n; ++i) {
      const uint32_t tag = static_cast<uint32_t>(events[i].data.u64);
      if (tag == kTimerFdTag) {
        uint64_t expirations;
        // Fired (unless re-armed since the event was queued: then read finds nothing and the
        // new arming stands). Whatever is due next gets armed at the end of the iteration.
        if (read(timerfd_, &expirations, sizeof expirations) == sizeof expirations) armed_ns_ = 0;
        continue;
      }
      if (tag == kWakeFdTag) {
        uint64_t count;
        [[maybe_unused]] ssize_t r = read(wakefd_, &count, sizeof count);
        continue;
      }
      dispatch(static_cast<int>(tag), static_cast<uint32_t>(events[i].data.u64 >> 32), events[i].events);
    }
    run_posted();
    run_due_timers();
  }

  void request_stop() override {
    stop_.store(true, std::memory_order_release);
    wake();
  }

  void post(std::function<void()> cb) override {
    bool was_empty;
    {
      std::lock_guard<std::mutex> lock(post_mu_);
      was_empty = posted_.empty();
      posted_.push_back(std::move(cb));
      posted_pending_.store(true, std::memory_order_relaxed);
    }
    if (was_empty) wake();
  }

  const core::Clock& clock() const override { return clock_; }

 private:
  static constexpr int64_t kNoTimer = INT64_MAX;

  struct Watch {
    FdCallback cb;
    uint32_t interest = 0;
    uint32_t gen = 0;
    bool active = false;
  };
  void wake() {
    uint64_t one = 1;
    [[maybe_unused]] ssize_t r = write(wakefd_, &one, sizeof one);
  }

  int wait(epoll_event* events, int64_t wait_ns) {
    int n;
    if (wait_ns < 0) {
      n = epoll_wait(epfd_, events, kMaxEvents, -1);
    } else if (wait_ns == 0) {
      n = epoll_wait(epfd_, events, kMaxEvents, 0);
    } else {
      timespec ts{static_cast<time_t>(wait_ns / 1'000'000'000), static_cast<long>(wait_ns % 1'000'000'000)};
      n = epoll_pwait2(epfd_, events, kMaxEvents, &ts, nullptr);
      if (n < 0 && errno == ENOSYS) {
        n = epoll_wait(epfd_, events, kMaxEvents, static_cast<int>((wait_ns + 999'999) / 1'000'000));
      }
    }
    return n < 0 ? 0 : n;  // EINTR: just another iteration
  }

  void dispatch(int fd, uint32_t gen, uint32_t epoll_events) {
    if (static_cast<size_t>(fd) >= watches_.size()) return;
    Watch& w = watches_[fd];
    if (!w.active || w.gen != gen || !w.cb) return;
    dispatching_fd_ = fd;
    w.cb(fd, from_epoll(epoll_events));
    dispatching_fd_ = -1;
    Watch& after = watches_[fd];  // the vector may have grown during the callback
    if (has_deferred_cb_) {
      after.cb = std::move(deferred_cb_);
      has_deferred_cb_ = false;
    } else if (clear_after_dispatch_) {
      after.cb = nullptr;
    }
    clear_after_dispatch_ = false;
  }

  void run_posted() {
    if (!posted_pending_.load(std::memory_order_relaxed)) return;
    std::vector<std::function<void()>> batch;
    {
      std::lock_guard<std::mutex> lock(post_mu_);
      batch.swap(posted_);
      posted_pending_.store(false, std::memory_order_relaxed);
    }
    for (auto& cb : batch) cb();
  }

  int64_t next_due_ns() {
    while (!heap_.empty() && !timers_.live(heap_.top().id)) heap_.pop(true);
    return heap_.empty() ? kNoTimer : heap_.top().due_ns;
  }

  void run_due_timers() {
    const int64_t now = clock_.now_ns();
    const uint64_t last_existing = last_timer_seq_;
    while (!heap_.empty()) {
      const TimerHeap::Entry top = heap_.top();
      if (top.due_ns > now) break;
      if (!timers_.live(top.id)) {
        heap_.pop(true);
        continue;
      }
      if (top.seq > last_existing) break;  // added by a callback in this pass: next iteration
      heap_.pop(false);
      std::function<void()> cb = timers_.take(top.id);
      cb();
    }
    if (real_clock_) {
      const int64_t next = next_due_ns();
      if (next == kNoTimer) {
        if (armed_ns_ != 0) arm(0);
      } else if (next != armed_ns_) {
        arm(next);
      }
    }
  }

  // Arms the timerfd at absolute CLOCK_MONOTONIC `due_ns` (0 disarms). A due time already
  // passed fires immediately.
  void arm(int64_t due_ns) {
    itimerspec its{};
    if (due_ns > 0) {
      its.it_value.tv_sec = due_ns / 1'000'000'000;
      its.it_value.tv_nsec = due_ns % 1'000'000'000;
    }
    timerfd_settime(timerfd_, TFD_TIMER_ABSTIME, &its, nullptr);
    armed_ns_ = due_ns;
  }

  const core::Clock& clock_;
  int epfd_;
  int timerfd_;
  int wakefd_;
  bool real_clock_;
  std::vector<Watch> watches_;
  int dispatching_fd_ = -1;
  FdCallback deferred_cb_;
  bool has_deferred_cb_ = false;
  bool clear_after_dispatch_ = false;

  TimerHeap heap_;
  TimerSlots timers_;
  uint64_t last_timer_seq_ = 0;  // creation order: ties in due time, timers added while running
  int64_t armed_ns_ = 0;

  std::atomic<bool> stop_{false};
  std::mutex post_mu_;
  std::vector<std::function<void()>> posted_;
  std::atomic<bool> posted_pending_{false};
};

}  // namespace

Result<std::unique_ptr<EventLoop>> EventLoop::create(const core::Clock& clock) {
  // 1 ns timer slack for this thread: see the header.
  prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
  int epfd = epoll_create1(EPOLL_CLOEXEC);
  if (epfd < 0) return make_error(ErrorCode::kIo, errno_text("epoll_create1"));
  int tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
  int wfd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (tfd < 0 || wfd < 0) {
    std::string msg = errno_text("timerfd/eventfd");
    close(epfd);
    if (tfd >= 0) close(tfd);
    if (wfd >= 0) close(wfd);
    return make_error(ErrorCode::kIo, msg);
  }
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.u64 = kTimerFdTag;
  epoll_ctl(epfd, EPOLL_CTL_ADD, tfd, &ev);
  ev.data.u64 = kWakeFdTag;
  epoll_ctl(epfd, EPOLL_CTL_ADD, wfd, &ev);
  const bool real_clock = dynamic_cast<const core::SteadyClock*>(&clock) != nullptr;
  return std::unique_ptr<EventLoop>(std::make_unique<EpollEventLoop>(clock, epfd, tfd, wfd, real_clock));
}

}  // namespace servebench::transport
