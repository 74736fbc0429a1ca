#include "load/runner.h"

#include <sys/resource.h>

#include <barrier>
#include <thread>

#include "core/log.h"

namespace servebench::load {

uint64_t raise_fd_limit() {
  rlimit lim{};
  if (getrlimit(RLIMIT_NOFILE, &lim) != 0) return 0;
  if (lim.rlim_cur < lim.rlim_max) {
    rlimit want = lim;
    want.rlim_cur = lim.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &want) == 0) lim = want;
  }
  return static_cast<uint64_t>(lim.rlim_cur);
}

Runner::Runner(const Plan& plan, const WorkerSettings& settings, int workers, const core::Clock& clock,
               RecordSink sink)
    : plan_(plan), settings_(settings), workers_(std::max(1, workers)), clock_(clock), sink_(std::move(sink)) {}

Runner::~Runner() = default;

int64_t Runner::issued() const {
  // Like interrupt(): pool_ is read only while ready_ is set (workers running), under the lock.
  std::lock_guard<std::mutex> lock(ready_mu_);
  if (!ready_.load()) return 0;
  int64_t n = 0;
  for (const auto& w : pool_) n += w->issued_total();
  return n;
}

void Runner::interrupt() {
  interrupted_.store(true, std::memory_order_relaxed);
  std::lock_guard<std::mutex> lock(ready_mu_);
  if (!ready_.load()) return;  // workers check the flag when their phase starts
  for (auto& w : pool_) w->interrupt();
}

Result<RunOutcome> Runner::run() {
  raise_fd_limit();
  const int n = workers_;
  for (int i = 0; i < n; ++i) pool_.push_back(std::make_unique<Worker>(i, n, settings_, clock_, sink_));

  // Shared phase state, written only by the barrier's completion step (one thread, all others
  // waiting) and read after the barrier.
  struct PhaseState {
    int64_t start_ns = 0;
    uint64_t index_base = 0;
    std::atomic<int64_t> issued{0};
    std::atomic<int64_t> sessions{0};
  };
  std::vector<PhaseState> phases(plan_.phases.size());
  std::vector<std::vector<WorkerPhaseStats>> stats(plan_.phases.size(), std::vector<WorkerPhaseStats>(n));
  std::vector<Error> init_errors(n);
  std::vector<char> init_failed(n, 0);
  std::atomic<bool> abort{false};
  size_t next_phase = 0;
  RunOutcome outcome;
  outcome.workers = n;

  auto on_barrier = [&]() noexcept {
    // Runs once per barrier round: after init, then between phases.
    if (next_phase == 0) {
      bool any = false;
      for (int i = 0; i < n; ++i) any |= init_failed[i] != 0;
      if (any) abort.store(true);
      std::lock_guard<std::mutex> lock(ready_mu_);
      ready_.store(true);
      if (interrupted_.load()) for (auto& w : pool_) w->interrupt();
    } else {
      // Requests of the finished phase: later phases number theirs after them.
      int64_t sent = 0;
      for (const auto& s : stats[next_phase - 1]) sent += s.issued;
      if (next_phase < phases.size())
        phases[next_phase].index_base = plan_.phases[next_phase].index_base.value_or(
            phases[next_phase - 1].index_base + sent);
    }
    if (next_phase < phases.size()) {
      phases[next_phase].start_ns = clock_.now_ns();
      if (observer_ && !abort.load()) observer_(plan_.phases[next_phase].spec.phase, phases[next_phase].start_ns);
    }
    ++next_phase;
  };
  std::barrier sync(n, on_barrier);

  std::vector<std::thread> threads;
  for (int i = 0; i < n; ++i) {
    threads.emplace_back([&, i] {
      Worker& w = *pool_[i];
      if (auto st = w.init(); !st) {
        init_errors[i] = st.error();
        init_failed[i] = 1;
      }
      sync.arrive_and_wait();
      for (size_t p = 0; p < plan_.phases.size(); ++p) {
        if (!abort.load()) {
          // The barrier that ended the previous round fixed this phase's start instant.
          stats[p][i] = w.run_phase(plan_.phases[p], phases[p].start_ns, phases[p].index_base, &phases[p].issued,
                                       &phases[p].sessions);
        }
        sync.arrive_and_wait();
      }
    });
  }
  for (auto& t : threads) t.join();
  {
    std::lock_guard<std::mutex> lock(ready_mu_);
    ready_.store(false);
  }
  for (int i = 0; i < n; ++i)
    if (init_failed[i]) return make_error(init_errors[i].code, "worker setup failed: " + init_errors[i].message);

  outcome.end_ns = clock_.now_ns();
  outcome.interrupted = interrupted_.load();
  for (size_t p = 0; p < plan_.phases.size(); ++p) {
    PhaseOutcome po;
    po.phase = plan_.phases[p].spec.phase;
    po.start_ns = phases[p].start_ns;
    po.end_ns = p + 1 < phases.size() ? phases[p + 1].start_ns : outcome.end_ns;
    for (const auto& s : stats[p]) {
      po.totals.issued += s.issued;
      po.totals.completed += s.completed;
      po.totals.cancelled_grace += s.cancelled_grace;
      po.totals.cancelled_interrupt += s.cancelled_interrupt;
      po.totals.cancelled_rate += s.cancelled_rate;
      po.totals.start_call_ns_total += s.start_call_ns_total;
      po.totals.start_call_ns_max = std::max(po.totals.start_call_ns_max, s.start_call_ns_max);
    }
    SB_LOG_DEBUG("phase {}: {} sent, {} finished, cancelled {} (grace) {} (Ctrl-C) {} (rate); transport start() "
                 "mean {:.1f} us, max {:.1f} us",
                 record::phase_name(po.phase), po.totals.issued, po.totals.completed, po.totals.cancelled_grace,
                 po.totals.cancelled_interrupt, po.totals.cancelled_rate,
                 po.totals.issued ? po.totals.start_call_ns_total / 1e3 / po.totals.issued : 0.0,
                 po.totals.start_call_ns_max / 1e3);
    outcome.phases.push_back(po);
  }
  outcome.first_start_ns = phases.empty() ? 0 : phases[0].start_ns;
  pool_.clear();
  return outcome;
}

}  // namespace servebench::load
