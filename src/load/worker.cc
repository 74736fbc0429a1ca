#include "load/worker.h"

#include <pthread.h>
#include <sched.h>
#include <sys/prctl.h>

#include <algorithm>
#include <cstdlib>
#include <string_view>


#include "core/env.h"
#include "core/log.h"
#include "core/rng.h"
#include "endpoints/endpoint.h"
#include "load/unreachable.h"
#include "load/worker_internal.h"
#include "transport/event_loop.h"
#include "transport/http1_client.h"
#include "transport/http_client.h"
#include "transport/sse_parser.h"

namespace servebench::load {
namespace {

// Lower-case hex of `v`, zero-padded to at least `min_width` digits (fmt's "{:0Nx}").
char* write_hex(char* p, uint64_t v, int min_width) {
  int digits = 1;
  for (uint64_t t = v >> 4; t != 0; t >>= 4) ++digits;
  const int width = std::max(digits, min_width);
  for (int i = width - 1; i >= 0; --i) {
    p[i] = "0123456789abcdef"[v & 0xF];
    v >>= 4;
  }
  return p + width;
}

// fmt::format("{:016x}-{:012x}", run_tag, index) without fmt's format-string parsing: one id is
// made per request on the worker thread (fmt cost ~1,600 instructions here).
void set_request_id(uint64_t run_tag, uint64_t index, std::string* out) {
  char buf[48];
  char* p = write_hex(buf, run_tag, 16);
  *p++ = '-';
  p = write_hex(p, index, 12);
  out->assign(buf, p);
}
constexpr int64_t kIdleWaitNs = 50'000'000;  // run_once bound; timers and I/O wake it sooner
constexpr int kMaxSendsPerPump = 8;
}  // namespace

bool should_cancel(uint64_t seed, record::Phase phase, uint64_t index, double rate_pct) {
  if (rate_pct <= 0) return false;
  if (rate_pct >= 100) return true;
  uint64_t state = seed ^ core::fnv1a64(phase == record::Phase::kWarmup ? "cancel.warmup" : "cancel.profiling");
  state += index * 0x9E3779B97F4A7C15ULL;
  const uint64_t r = core::splitmix64(&state);
  return static_cast<double>(r >> 11) * 0x1.0p-53 * 100.0 < rate_pct;
}


Worker::Worker(int id, int workers, const WorkerSettings& settings, const core::Clock& clock, RecordSink sink)
    : id_(id), workers_(workers), settings_(settings), clock_(clock), sink_(std::move(sink)) {}

Worker::~Worker() = default;

Status Worker::init() {
  prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);  // timer wake-ups late by at most ~1 ns of slack
  // Started under a real-time policy (chrt -f N, as the benchmark scripts do for client and
  // server alike): a FIFO thread is never preempted by its equals, so a worker one level above
  // the rest of the process and an equally ranked local server takes the CPU at its due sends.
  if (int policy = sched_getscheduler(0); policy == SCHED_FIFO || policy == SCHED_RR) {
    sched_param p{};
    if (sched_getparam(0, &p) == 0 && p.sched_priority < sched_get_priority_max(policy)) {
      ++p.sched_priority;
      pthread_setschedparam(pthread_self(), policy, &p);
    }
  }
  auto loop = transport::EventLoop::create(clock_);
  if (!loop) return tl::unexpected(loop.error());
  loop_ = std::move(*loop);
  transport::ClientOptions opts;
  opts.http_version = settings_.http_version;
  opts.verify_tls = settings_.verify_tls;
  // SERVEBENCH_HTTP_CLIENT=curl routes plain http:// through libcurl too (A/B comparisons and an
  // escape hatch should the native client misbehave with some server).
  if (core::env().get_or(core::EnvVar::kServebenchHttpClient, "") == "curl")
    opts.native_http1 = false;
  // Native HTTP/1.1 for plain http://, libcurl for TLS, HTTP/2 and proxies (transport decides).
  auto client = transport::make_http_client(*loop_, opts);
  if (!client) return tl::unexpected(client.error());
  client_ = std::move(*client);
  if (settings_.make_parser) parser_ = settings_.make_parser();
  polls_ = settings_.polls;
  if (!parser_) return make_error(ErrorCode::kInternal, "worker settings carry no response parser");
  return {};
}

WorkerPhaseStats Worker::run_phase(const PhasePlan& plan, int64_t start_ns, uint64_t index_base,
                                   std::atomic<int64_t>* issued, std::atomic<int64_t>* sessions_started) {
  schedule_.emplace(plan, id_, workers_, start_ns, issued, settings_.backoff);
  phase_ = plan.spec.phase;
  index_base_ = index_base;
  stats_ = WorkerPhaseStats();
  phase_done_ = false;
  plan_ = &plan;
  phase_start_ns_ = start_ns;
  sessions_ = plan.spec.sessions ? settings_.sessions.get() : nullptr;
  sessions_started_ = sessions_started;
  stopping_ = false;
  sessions_exhausted_ = false;
  live_sessions_ = 0;
  live_children_ = 0;
  ready_.clear();
  users_.reset();
  users_done_ = true;
  users_blocked_ = false;
  if (sessions_ && plan.spec.user_centric) {
    const SessionWorkload* sw = sessions_;
    users_ = std::make_unique<UserCentricGenerator>(
        sw->user_centric_rate, sw->num_users, sw->average_turns(),
        [sw](uint64_t k) { return static_cast<int32_t>(sw->conversation_of(k).turns.size()); });
    users_done_ = false;
    advance_user();
  }
  if (interrupt_requests_.load(std::memory_order_relaxed) > 0) stop_issuing();
  bool deadline_armed = false;
  if (schedule_->cancel_deadline_ns() != kNever) {
    deadline_armed = true;
    deadline_timer_ = loop_->add_timer(schedule_->cancel_deadline_ns(), [this] { cancel_all(record::CancelReason::kGrace); });
  }
  // Records go to processing every flush interval: one hand-off per batch, never per request.
  std::function<void()> flush_tick;
  flush_tick = [this, &flush_tick] {
    flush_records();
    flush_timer_ = loop_->add_timer(clock_.now_ns() + settings_.flush_interval_ns, flush_tick);
  };
  flush_timer_ = loop_->add_timer(clock_.now_ns() + settings_.flush_interval_ns, flush_tick);

  wake_at_ns_ = kNever;
  pump();
  // Transport callbacks never start transfers themselves (libcurl must not be re-entered from
  // its callbacks); they set need_pump_ and the loop pumps after each iteration.
  while (!phase_done_) {
    loop_->run_once(need_pump_ ? 0 : kIdleWaitNs);
    if (need_pump_) pump();
  }
  if (drain_armed_) loop_->cancel_timer(drain_timer_);
  drain_armed_ = false;

  loop_->cancel_timer(flush_timer_);
  if (deadline_armed) loop_->cancel_timer(deadline_timer_);
  if (wake_at_ns_ != kNever) loop_->cancel_timer(wake_timer_);
  wake_at_ns_ = kNever;
  flush_records();
  ready_.clear();
  session_pool_.clear();
  users_.reset();
  schedule_.reset();
  return stats_;
}

void Worker::pump() {
  if (!schedule_) return;
  if (pumping_) {
    repump_ = true;
    return;
  }
  pumping_ = true;
  // A burst of due sends (a closed-loop wave, a Poisson cluster) is issued kMaxSendsPerPump at a
  // time, with the loop servicing sockets in between: each HttpClient::start costs tens of µs,
  // and thousands in a row would delay every chunk timestamp behind them.
  int sent = 0;
  bool yielded = false;
  do {
    repump_ = false;
    need_pump_ = false;
    Credit credit;
    int64_t now = clock_.now_ns();
    if (sessions_) {
      apply_idle_cap();
      while (sent < kMaxSendsPerPump && session_step(now)) {
        ++sent;
        now = clock_.now_ns();
      }
    } else {
      while (sent < kMaxSendsPerPump && schedule_->next_credit(now, in_flight_, prefill_in_flight_, &credit)) {
        issue(credit, now);
        ++sent;
        now = clock_.now_ns();
      }
    }
    if (sent >= kMaxSendsPerPump) {
      yielded = true;
      break;
    }
  } while (repump_ || need_pump_);
  pumping_ = false;
  if (yielded) need_pump_ = true;  // continue right after the next (non-blocking) loop turn
  arm_wake();
  check_done();
}

void Worker::arm_wake() {
  int64_t next = std::min(schedule_->next_wake_ns(), schedule_->backoff_wake_ns(clock_.now_ns()));
  if (sessions_) next = std::min(next, session_wake_ns());
  if (next == wake_at_ns_) return;
  if (wake_at_ns_ != kNever) loop_->cancel_timer(wake_timer_);
  wake_at_ns_ = next;
  if (next == kNever) return;
  wake_timer_ = loop_->add_timer(next - settings_.spin_ahead_ns, [this, next] {
    wake_at_ns_ = kNever;
    while (clock_.now_ns() < next) {
#if defined(__x86_64__)
      __builtin_ia32_pause();
#endif
    }
    pump();
  });
}

void Worker::check_done() {
  if (!schedule_ || in_flight_ != 0) return;
  if (sessions_) {
    const bool none_left = no_new_sessions() || schedule_->requests_claimed();
    if (live_sessions_ == 0 && live_children_ == 0 && none_left) phase_done_ = true;
    return;
  }
  // Slots still backing off cannot send once the request count is claimed: do not wait for them.
  if (schedule_->exhausted() || schedule_->requests_claimed()) phase_done_ = true;
}

constexpr size_t kFirstChunks = 4;

Worker::Request* Worker::new_request(uint64_t index, int64_t intended_ns, int64_t now_ns) {
  Request* req;
  if (pool_.empty()) {
    req = new Request();
  } else {
    req = pool_.back().release();
    pool_.pop_back();
  }
  req->reset();
  req->worker = this;
  auto& rec = req->rec;
  rec.request_index = index;
  rec.phase = phase_;
  rec.phase_index = static_cast<uint8_t>(plan_->spec.index);
  rec.worker_id = id_;
  rec.model = settings_.models[settings_.model_of(index)];
  rec.streaming = settings_.streaming;
  rec.intended_ns = intended_ns;
  rec.credit_issued_ns = now_ns;
  rec.url_index = static_cast<int32_t>(index % settings_.urls.size());
  set_request_id(settings_.run_tag, index, &rec.x_request_id);
  // A stream's chunk list starts with room for the shortest answer's events (role, two tokens,
  // usage): one allocation instead of growing 1, 2, 4; no more memory than that growth gives.
  if (settings_.streaming) rec.chunks.reserve(kFirstChunks);
  return req;
}

void Worker::launch(Request* req, transport::HttpRequest& http, uint64_t connection_group) {
  auto& rec = req->rec;
  // Assigned element by element so a reused HttpRequest keeps its strings' capacity.
  http.url.assign(settings_.urls[static_cast<size_t>(rec.url_index)]);
  const size_t n_headers = settings_.headers.size();
  http.headers.resize(n_headers + 2);
  for (size_t i = 0; i < n_headers; ++i) http.headers[i].assign(settings_.headers[i]);
  http.headers[n_headers].assign("X-Request-ID: ").append(rec.x_request_id);
  http.headers[n_headers + 1].assign(settings_.session_header).append(": ").append(rec.x_correlation_id);
  http.connection_group =
      settings_.reuse == ConnectionReuse::kStickyUserSessions ? connection_group : 0;
  http.timeout_ns = settings_.request_timeout_ns;
  http.fresh_connection = settings_.reuse == ConnectionReuse::kNever;
  rec.request_bytes = static_cast<int64_t>(http.body.size());
  if (should_cancel(settings_.seed, phase_, rec.request_index - index_base_, settings_.cancellation_rate_pct))
    req->cancel_after_ns = settings_.cancellation_delay_ns;
  req->awaiting_first_token = settings_.streaming;
  if (req->awaiting_first_token) ++prefill_in_flight_;
  ++in_flight_;
  if (settings_.idle_cap) settings_.idle_cap->on_send();
  ++stats_.issued;
  issued_total_.store(issued_total_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  req->active_pos = active_.size();
  active_.push_back(req);

  rec.request_start_ns = clock_.now_ns();
  auto started = client_->start(http, req);
  const int64_t call_ns = clock_.now_ns() - rec.request_start_ns;
  stats_.start_call_ns_total += call_ns;
  stats_.start_call_ns_max = std::max(stats_.start_call_ns_max, call_ns);
  if (started) {
    req->transfer = *started;
    req->arm_cancel(rec.request_start_ns);
  } else if (!req->completed) {
    const auto kind = started.error().code == ErrorCode::kNetwork ? record::ErrorKind::kConnect
                                                                   : record::ErrorKind::kOther;
    req->on_complete(kind, started.error().message, clock_.now_ns(), false);
  }
}

void Worker::issue(const Credit& credit, int64_t now_ns) {
  const uint64_t index = index_base_ + credit.index;
  Request* req = new_request(index, credit.intended_ns, now_ns);
  req->slot_failures = credit.slot_failures;
  auto& rec = req->rec;
  rec.session_num = static_cast<int32_t>(index);
  const size_t model = settings_.model_of(index);
  const size_t entry = settings_.order[index % settings_.order.size()];
  const size_t template_index = entry * settings_.models.size() + model;
  const bool warmup_bodies = phase_ == record::Phase::kWarmup && !settings_.warmup_requests.empty();
  const auto& tmpl = (warmup_bodies ? settings_.warmup_requests : settings_.requests)[template_index];
  rec.payload_index = warmup_bodies ? -1 : static_cast<int64_t>(template_index);
  if (warmup_bodies && settings_.keep_bodies) rec.request_body = tmpl.body_text();
  rec.conversation_id = tmpl.conversation_id;
  rec.input_tokens = tmpl.input_tokens;
  rec.requested_output_tokens = tmpl.max_output_tokens;
  rec.input_images = tmpl.input_images;
  rec.x_correlation_id = rec.x_request_id;

  // The worker's request scratch, reused so its body and header buffers are not allocated per
  // request; a local one if a transport callback re-enters issue() while it is in use.
  transport::HttpRequest local;
  transport::HttpRequest& http = http_scratch_busy_ ? local : http_scratch_;
  const bool owns_scratch = !http_scratch_busy_;
  http_scratch_busy_ = true;
  http.body.assign(tmpl.body_text());
  if (settings_.body_store) settings_.body_store->release(tmpl.stored);  // RSS: page cache only
  if (tmpl.cache_bust_digits_at >= 0) {  // every request is its own session: its own marker
    write_cache_bust_digits(settings_.seed, index, http.body.data() + tmpl.cache_bust_digits_at);
    rec.input_texts = tmpl.input_texts;
    rec.input_roles = tmpl.input_roles;
    if (tmpl.cache_bust_text >= 0)
      write_cache_bust_digits(settings_.seed, index,
                              rec.input_texts[static_cast<size_t>(tmpl.cache_bust_text)].data() + tmpl.cache_bust_text_at);
    if (settings_.keep_bodies) {
      rec.request_body = http.body;
      rec.payload_index = -1;
    }
  }
  launch(req, http, index + 1);  // single turn: the request is the session
  if (owns_scratch) http_scratch_busy_ = false;
}

void Worker::finish(Request* req) {
  if (req->cancel_timer_armed) {
    loop_->cancel_timer(req->cancel_timer);
    req->cancel_timer_armed = false;
  }
  if (req->awaiting_first_token) {
    req->awaiting_first_token = false;
    --prefill_in_flight_;
  }
  --in_flight_;
  if (settings_.idle_cap) settings_.idle_cap->on_done(clock_.now_ns());
  ++stats_.completed;
  if (req->cancel_reason == record::CancelReason::kGrace) ++stats_.cancelled_grace;
  if (req->cancel_reason == record::CancelReason::kInterrupt) ++stats_.cancelled_interrupt;
  if (req->cancel_reason == record::CancelReason::kRate) ++stats_.cancelled_rate;
  // Swap-remove from the active list.
  Request* last = active_.back();
  active_[req->active_pos] = last;
  last->active_pos = req->active_pos;
  active_.pop_back();
  const int64_t now = clock_.now_ns();
  if (req->session) {
    on_turn_done(req, now);  // history, next turn or session end (frees its slot)
  } else {
    if (settings_.reuse == ConnectionReuse::kStickyUserSessions)
      client_->release_group(req->rec.request_index + 1);  // single-turn: the session ends here
    if (schedule_)
      schedule_->on_request_done(now, is_connection_failure(req->rec) ? req->slot_failures + 1 : 0);
  }
  batch_.append(req->rec);  // the request keeps the record's buffers for its next use
  pool_.emplace_back(req);
  need_pump_ = true;
}

void Worker::cancel_one(Request* req, record::CancelReason reason) {
  if (req->follow_up_armed) return cancel_waiting_step(req, reason);
  if (req->completed) return;
  req->cancel_reason = reason;
  req->rec.cancel_ns = clock_.now_ns();
  client_->cancel(req->transfer);  // delivers on_complete(kCancelled) before returning
}

void Worker::cancel_all(record::CancelReason reason) {
  if (schedule_) stop_issuing();
  const std::vector<Request*> victims = active_;  // finish() edits active_
  for (Request* r : victims) cancel_one(r, reason);
  pump();
}

void Worker::flush_records() {
  if (batch_.empty()) return;
  // The next batch is about as large: one allocation for it, not a doubling (and a copy of
  // every record so far) each time it fills. The sink may leave a recycled buffer in batch_
  // (RecordSink), whose pages are already mapped.
  const size_t n = batch_.bytes();
  sink_(std::move(batch_));
  batch_.clear();
  if (batch_.capacity_bytes() < n) {
    // With headroom: batches vary in size, and a recycled buffer that is a little too small
    // would be replaced by fresh memory (a page fault per 4 KiB of it) every other flush.
    batch_ = record::PackedRecords();
    batch_.reserve_bytes(n + n / 2);
  }
}

void Worker::interrupt() {
  interrupt_requests_.fetch_add(1, std::memory_order_relaxed);
  if (loop_) loop_->post([this] { on_interrupt(); });
}

void Worker::on_interrupt() {
  ++interrupts_seen_;
  if (!schedule_) return;
  stop_issuing();
  if (interrupts_seen_ >= 2) {
    cancel_all(record::CancelReason::kInterrupt);
    return;
  }
  if (drain_armed_) return;
  drain_armed_ = true;
  drain_timer_ = loop_->add_timer(clock_.now_ns() + settings_.interrupt_drain_ns, [this] {
    drain_armed_ = false;
    cancel_all(record::CancelReason::kInterrupt);
  });
  pump();
}

}  // namespace servebench::load
