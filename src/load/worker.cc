#include "load/worker.h"

#include <sys/prctl.h>

#include <algorithm>
#include <cstdlib>
#include <string_view>

#include <fmt/format.h>

#include "core/log.h"
#include "core/rng.h"
#include "endpoints/endpoint.h"
#include "transport/event_loop.h"
#include "transport/http1_client.h"
#include "transport/http_client.h"
#include "transport/sse_parser.h"

namespace servebench::load {
namespace {

enum CancelReason : int { kNoCancel = 0, kRateCancel, kGraceCancel, kInterruptCancel };

const char* cancel_message(int reason) {
  switch (reason) {
    case kRateCancel: return "cancelled by --request-cancellation-rate";
    case kGraceCancel: return "cancelled: still in flight when the benchmark grace period expired";
    case kInterruptCancel: return "cancelled: interrupted (Ctrl-C)";
  }
  return "cancelled";
}

constexpr size_t kErrorExcerptBytes = 512;
constexpr int64_t kIdleWaitNs = 50'000'000;  // run_once bound; timers and I/O wake it sooner
constexpr int kMaxSendsPerPump = 8;

bool is_output_chunk(record::ChunkKind k) {
  return k == record::ChunkKind::kContent || k == record::ChunkKind::kReasoning ||
         k == record::ChunkKind::kToolCall;
}

}  // namespace

bool should_cancel(uint64_t seed, record::Phase phase, uint64_t index, double rate_pct) {
  if (rate_pct <= 0) return false;
  if (rate_pct >= 100) return true;
  uint64_t state = seed ^ core::fnv1a64(phase == record::Phase::kWarmup ? "cancel.warmup" : "cancel.profiling");
  state += index * 0x9E3779B97F4A7C15ULL;
  const uint64_t r = core::splitmix64(&state);
  return static_cast<double>(r >> 11) * 0x1.0p-53 * 100.0 < rate_pct;
}

// One in-flight request: the transport's handler and the record being filled.
struct Worker::Request final : transport::ResponseHandler {
  Worker* worker = nullptr;
  record::RequestRecord rec;
  transport::SseParser sse;
  std::string body;  // non-streamed body or error excerpt
  uint64_t transfer = 0;
  size_t active_pos = 0;
  int cancel_reason = kNoCancel;
  int64_t cancel_after_ns = -1;  // --request-cancellation-delay for this request, -1 = none
  bool cancel_timer_armed = false;
  uint64_t cancel_timer = 0;
  bool awaiting_first_token = false;
  bool completed = false;
  int64_t last_recv_ns = 0;
  LiveSession* session = nullptr;  // multi-turn: the session this turn belongs to

  void reset() {
    session = nullptr;
    rec = record::RequestRecord();
    sse.reset();
    body.clear();
    transfer = 0;
    cancel_reason = kNoCancel;
    cancel_after_ns = -1;
    cancel_timer_armed = false;
    awaiting_first_token = false;
    completed = false;
    last_recv_ns = 0;
  }

  bool http_ok() const { return rec.http_status >= 200 && rec.http_status < 300; }

  // The cancellation delay counts from the end of sending (AIPerf). The transport may report
  // that instant late (libcurl: with the response headers), so the timer is first armed from
  // request_start and moved when the real send time arrives in time.
  void arm_cancel(int64_t from_ns) {
    if (cancel_after_ns < 0) return;
    if (cancel_timer_armed) worker->loop_->cancel_timer(cancel_timer);
    cancel_timer_armed = true;
    cancel_timer = worker->loop_->add_timer(from_ns + cancel_after_ns, [this] {
      cancel_timer_armed = false;
      worker->cancel_one(this, kRateCancel);
    });
  }

  void on_request_sent(int64_t sent_ns) override {
    rec.request_sent_ns = sent_ns;
    if (cancel_timer_armed) arm_cancel(sent_ns);
  }

  void on_headers(int http_status, int64_t recv_ns) override {
    rec.http_status = http_status;
    if (rec.first_byte_ns == 0) rec.first_byte_ns = recv_ns;
  }

  void on_body(std::string_view bytes, int64_t recv_ns) override {
    rec.response_bytes += static_cast<int64_t>(bytes.size());
    if (rec.first_byte_ns == 0) rec.first_byte_ns = recv_ns;
    last_recv_ns = recv_ns;
    if (!http_ok()) {
      if (body.size() < kErrorExcerptBytes)
        body.append(bytes.substr(0, kErrorExcerptBytes - body.size()));
      return;
    }
    if (!rec.streaming) {
      body.append(bytes);
      return;
    }
    sse.feed(bytes, recv_ns, [this](const transport::SseEvent& ev) { on_event(ev); });
  }

  void on_event(const transport::SseEvent& ev) {
    if (ev.event == "error") {
      if (rec.error == record::ErrorKind::kNone) {
        rec.error = record::ErrorKind::kServerErrorEvent;
        rec.error_message = "server error event: " + std::string(ev.data.substr(0, 200));
      }
      return;
    }
    const size_t before = rec.chunks.size();
    worker->parser_->parse_event(ev.data, ev.recv_ns, &rec);
    if (awaiting_first_token) {
      for (size_t i = before; i < rec.chunks.size(); ++i) {
        if (is_output_chunk(rec.chunks[i].kind)) {
          awaiting_first_token = false;
          --worker->prefill_in_flight_;
          worker->need_pump_ = true;  // a prefill slot freed; pumped after this loop iteration
          break;
        }
      }
    }
  }

  void on_complete(record::ErrorKind error, std::string_view message, int64_t end_ns,
                   bool connection_reused) override {
    if (completed) return;
    completed = true;
    rec.end_ns = end_ns;
    rec.connection_reused = connection_reused;
    if (cancel_reason != kNoCancel) {
      rec.error = record::ErrorKind::kCancelled;
      rec.error_message = cancel_message(cancel_reason);
      rec.cancel_reason = cancel_reason == kRateCancel    ? record::CancelReason::kRate
                          : cancel_reason == kGraceCancel ? record::CancelReason::kGrace
                                                          : record::CancelReason::kInterrupt;
    } else if (error != record::ErrorKind::kNone) {
      rec.error = error;
      rec.error_message = std::string(message);
    } else if (!http_ok()) {
      rec.error = record::ErrorKind::kHttpStatus;
      std::string excerpt = body;
      std::replace(excerpt.begin(), excerpt.end(), '\n', ' ');
      std::replace(excerpt.begin(), excerpt.end(), '\r', ' ');
      rec.error_message = fmt::format("HTTP {}: {}", rec.http_status, excerpt);
    } else if (rec.streaming) {
      sse.finish(end_ns, [this](const transport::SseEvent& ev) { on_event(ev); });
    } else {
      worker->parser_->parse_body(body, last_recv_ns ? last_recv_ns : end_ns, &rec);
    }
    worker->finish(this);
  }
};

Worker::Worker(int id, int workers, const WorkerSettings& settings, const core::Clock& clock, RecordSink sink)
    : id_(id), workers_(workers), settings_(settings), clock_(clock), sink_(std::move(sink)) {}

Worker::~Worker() = default;

Status Worker::init() {
  prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);  // timer wake-ups late by at most ~1 ns of slack
  auto loop = transport::EventLoop::create(clock_);
  if (!loop) return tl::unexpected(loop.error());
  loop_ = std::move(*loop);
  transport::ClientOptions opts;
  opts.http_version = settings_.http_version;
  opts.verify_tls = settings_.verify_tls;
  // SERVEBENCH_HTTP_CLIENT=curl routes plain http:// through libcurl too (A/B comparisons and an
  // escape hatch should the native client misbehave with some server).
  if (const char* c = std::getenv("SERVEBENCH_HTTP_CLIENT"); c && std::string_view(c) == "curl")
    opts.native_http1 = false;
  // Native HTTP/1.1 for plain http://, libcurl for TLS, HTTP/2 and proxies (transport decides).
  auto client = transport::make_http_client(*loop_, opts);
  if (!client) return tl::unexpected(client.error());
  client_ = std::move(*client);
  parser_ = endpoints::make_event_parser(settings_.endpoint_type);
  if (!parser_)
    return make_error(ErrorCode::kUnsupported,
                      fmt::format("no response parser for endpoint type '{}'", settings_.endpoint_type));
  return {};
}

WorkerPhaseStats Worker::run_phase(const PhasePlan& plan, int64_t start_ns, uint64_t index_base,
                                   std::atomic<int64_t>* issued, std::atomic<int64_t>* sessions_started) {
  schedule_.emplace(plan, id_, workers_, start_ns, issued);
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
    deadline_timer_ = loop_->add_timer(schedule_->cancel_deadline_ns(), [this] { cancel_all(kGraceCancel); });
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
  const int64_t next = sessions_ ? std::min(schedule_->next_wake_ns(), session_wake_ns()) : schedule_->next_wake_ns();
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
    if (live_sessions_ == 0 && no_new_sessions()) phase_done_ = true;
    return;
  }
  if (schedule_->exhausted()) phase_done_ = true;
}

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
  rec.worker_id = id_;
  rec.model = settings_.models[index % settings_.models.size()];
  rec.streaming = settings_.streaming;
  rec.intended_ns = intended_ns;
  rec.credit_issued_ns = now_ns;
  rec.url_index = static_cast<int32_t>(index % settings_.urls.size());
  rec.x_request_id = fmt::format("{:016x}-{:012x}", settings_.run_tag, index);
  return req;
}

void Worker::launch(Request* req, transport::HttpRequest& http) {
  auto& rec = req->rec;
  http.url = settings_.urls[static_cast<size_t>(rec.url_index)];
  http.timeout_ns = settings_.request_timeout_ns;
  http.fresh_connection = settings_.reuse == config::ConnectionReuse::kNever;
  rec.request_bytes = static_cast<int64_t>(http.body.size());
  if (should_cancel(settings_.seed, phase_, rec.request_index - index_base_, settings_.cancellation_rate_pct))
    req->cancel_after_ns = settings_.cancellation_delay_ns;
  req->awaiting_first_token = settings_.streaming;
  if (req->awaiting_first_token) ++prefill_in_flight_;
  ++in_flight_;
  ++stats_.issued;
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
  auto& rec = req->rec;
  rec.session_num = static_cast<int32_t>(index);
  const size_t model = index % settings_.models.size();
  const size_t entry = settings_.order[index % settings_.order.size()];
  const size_t template_index = entry * settings_.models.size() + model;
  const bool warmup_bodies = phase_ == record::Phase::kWarmup && !settings_.warmup_requests.empty();
  const auto& tmpl = (warmup_bodies ? settings_.warmup_requests : settings_.requests)[template_index];
  rec.payload_index = warmup_bodies ? -1 : static_cast<int64_t>(template_index);
  if (warmup_bodies && settings_.keep_bodies) rec.request_body = tmpl.body;
  rec.conversation_id = tmpl.conversation_id;
  rec.input_tokens = tmpl.input_tokens;
  rec.requested_output_tokens = tmpl.max_output_tokens;
  rec.x_correlation_id = rec.x_request_id;

  transport::HttpRequest http;
  http.body = tmpl.body;
  if (tmpl.cache_bust_digits_at >= 0) {  // every request is its own session: its own marker
    write_cache_bust_digits(settings_.seed, index, http.body.data() + tmpl.cache_bust_digits_at);
    rec.input_texts = tmpl.input_texts;
    if (tmpl.cache_bust_text >= 0)
      write_cache_bust_digits(settings_.seed, index,
                              rec.input_texts[static_cast<size_t>(tmpl.cache_bust_text)].data() + tmpl.cache_bust_text_at);
    if (settings_.keep_bodies) {
      rec.request_body = http.body;
      rec.payload_index = -1;
    }
  }
  http.headers.reserve(settings_.headers.size() + 2);
  http.headers = settings_.headers;
  http.headers.push_back("X-Request-ID: " + rec.x_request_id);
  http.headers.push_back(settings_.session_header + ": " + rec.x_correlation_id);
  if (settings_.reuse == config::ConnectionReuse::kStickyUserSessions) http.connection_group = index + 1;
  launch(req, http);
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
  ++stats_.completed;
  if (req->cancel_reason == kGraceCancel) ++stats_.cancelled_grace;
  if (req->cancel_reason == kInterruptCancel) ++stats_.cancelled_interrupt;
  if (req->cancel_reason == kRateCancel) ++stats_.cancelled_rate;
  // Swap-remove from the active list.
  Request* last = active_.back();
  active_[req->active_pos] = last;
  last->active_pos = req->active_pos;
  active_.pop_back();
  const int64_t now = clock_.now_ns();
  if (req->session) {
    on_turn_done(req, now);  // history, next turn or session end (frees its slot)
  } else {
    if (settings_.reuse == config::ConnectionReuse::kStickyUserSessions)
      client_->release_group(req->rec.request_index + 1);  // single-turn: the session ends here
    if (schedule_) schedule_->on_request_done(now);
  }
  batch_.push_back(std::move(req->rec));
  pool_.emplace_back(req);
  need_pump_ = true;
}

void Worker::cancel_one(Request* req, int reason) {
  if (req->completed) return;
  req->cancel_reason = reason;
  req->rec.cancel_ns = clock_.now_ns();
  client_->cancel(req->transfer);  // delivers on_complete(kCancelled) before returning
}

void Worker::cancel_all(int reason) {
  if (schedule_) stop_issuing();
  const std::vector<Request*> victims = active_;  // finish() edits active_
  for (Request* r : victims) cancel_one(r, reason);
  pump();
}

void Worker::flush_records() {
  if (batch_.empty()) return;
  sink_(std::move(batch_));
  batch_.clear();
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
    cancel_all(kInterruptCancel);
    return;
  }
  if (drain_armed_) return;
  drain_armed_ = true;
  drain_timer_ = loop_->add_timer(clock_.now_ns() + settings_.interrupt_drain_ns, [this] {
    drain_armed_ = false;
    cancel_all(kInterruptCancel);
  });
  pump();
}

// ---- Multi-turn sessions (sessions.h) ----

struct Worker::LiveSession {
  uint64_t number = 0;   // session number within the phase
  const SessionTemplate* conv = nullptr;
  int32_t next_turn = 0;
  int32_t max_turns = 0;
  std::vector<endpoints::Message> history;  // user turns as sent, each followed by the live reply
  endpoints::Message pending_user;          // the turn in flight, as sent
  std::string correlation_id;
  std::string marker;                       // cache-bust marker ("" = none)
  int64_t last_intended_ns = 0;
  bool holds_slot = false;                  // closed loop: returns its slot when it ends
  size_t pool_pos = 0;
};

bool Worker::no_new_sessions() const {
  if (stopping_ || sessions_exhausted_) return true;
  if (users_) return users_done_;
  // Fixed schedule: every first turn sent (continuations still follow). Rate and closed loop
  // only end by count, duration or --num-sessions (stopping_ / sessions_exhausted_).
  return plan_->spec.fixed_offsets_ns != nullptr && schedule_->exhausted();
}

int64_t Worker::session_wake_ns() const {
  if (stopping_) return kNever;
  int64_t wake = kNever;
  // With a request rate, continuations wait for an arrival (the schedule's wake covers those).
  const bool rate_mode = plan_->spec.request_rate.has_value();
  if (!ready_.empty()) {
    // With a rate a ready continuation waits for the next arrival; wake when one becomes ready
    // only if that is still ahead (an arrival may be held by the ceiling until then).
    const int64_t r = ready_.front().ready_ns;
    if (!rate_mode || r > clock_.now_ns()) wake = r;
  }
  if (users_ && !users_done_ && !users_blocked_) wake = std::min(wake, phase_start_ns_ + next_user_.offset_ns);
  return std::min(wake, schedule_->issue_deadline_ns());
}

void Worker::advance_user() {
  // Every worker runs the whole user schedule and keeps the users k ≡ id (mod W).
  do {
    next_user_ = users_->next();
  } while (next_user_.session % static_cast<uint64_t>(workers_) != static_cast<uint64_t>(id_));
  if (plan_->spec.session_count && next_user_.session >= static_cast<uint64_t>(*plan_->spec.session_count))
    users_done_ = true;
}

void Worker::stop_issuing() {
  schedule_->stop();
  if (!sessions_ || stopping_) return;
  stopping_ = true;
  // Sessions waiting for their next turn end now; those in flight end when their turn does.
  std::vector<ReadyTurn> waiting;
  waiting.swap(ready_);
  const int64_t now = clock_.now_ns();
  for (const auto& r : waiting) end_session(r.session, now);
}

// One send decision; false when nothing may be sent now.
bool Worker::session_step(int64_t now_ns) {
  if (stopping_) return false;
  if (now_ns >= schedule_->issue_deadline_ns()) {
    stop_issuing();
    return false;
  }
  if (prefill_in_flight_ >= schedule_->prefill_share()) return false;
  const bool rate_mode = plan_->spec.request_rate.has_value();
  auto pop_ready = [this] {
    std::pop_heap(ready_.begin(), ready_.end(), std::greater<ReadyTurn>());
    ReadyTurn r = ready_.back();
    ready_.pop_back();
    return r;
  };
  // Continuations whose time has come (without a rate they need no credit).
  if (!rate_mode && !ready_.empty() && ready_.front().ready_ns <= now_ns) {
    const ReadyTurn r = pop_ready();
    return send_turn(r.session, r.intended_ns, now_ns);
  }
  // User-centric first turns.
  if (users_) {
    if (users_done_ || phase_start_ns_ + next_user_.offset_ns > now_ns) return false;
    // --concurrency caps the users in flight (AIPerf); a session's end pumps again.
    users_blocked_ = live_sessions_ >= schedule_->concurrency_share_at(now_ns);
    if (users_blocked_) return false;
    const UserStart u = next_user_;
    advance_user();
    return start_session(u.session, u.max_turns, phase_start_ns_ + u.offset_ns, now_ns, false);
  }
  // Credits: rate arrivals (a ready continuation first), closed-loop slots, fixed first turns.
  // A ready continuation already holds its session's slot: the ceiling does not hold it back.
  const bool continuation_ready = rate_mode && !ready_.empty() && ready_.front().ready_ns <= now_ns;
  Credit credit;
  if (!schedule_->next_credit(now_ns, continuation_ready ? 0 : live_sessions_, prefill_in_flight_, &credit))
    return false;
  if (rate_mode && !ready_.empty() && ready_.front().ready_ns <= now_ns) {
    const ReadyTurn r = pop_ready();
    return send_turn(r.session, credit.intended_ns, now_ns);
  }
  uint64_t number = credit.index;
  if (plan_->spec.fixed_offsets_ns == nullptr) {
    const int64_t n = sessions_started_ ? sessions_started_->fetch_add(1, std::memory_order_relaxed) : 0;
    if (n >= plan_->spec.session_count.value_or(INT64_MAX)) {
      sessions_exhausted_ = true;  // this credit goes unused (AIPerf skips the arrival too)
      return true;
    }
    number = static_cast<uint64_t>(n);
  }
  return start_session(number, 0, credit.intended_ns, now_ns, !plan_->open_loop());
}

bool Worker::start_session(uint64_t number, int32_t max_turns, int64_t intended_ns, int64_t now_ns,
                           bool holds_slot) {
  std::unique_ptr<LiveSession> s = std::make_unique<LiveSession>();
  s->number = number;
  s->holds_slot = holds_slot;
  s->conv = &sessions_->conversation_of(number);
  const auto turns = static_cast<int32_t>(s->conv->turns.size());
  s->max_turns = max_turns > 0 ? std::min(max_turns, turns) : turns;
  s->correlation_id = fmt::format("{:016x}-{}{:010x}", settings_.run_tag,
                                  phase_ == record::Phase::kWarmup ? 'w' : 's', number);
  if (sessions_->cache_bust != config::CacheBust::kNone)
    s->marker = cache_bust_marker(settings_.seed, (static_cast<uint64_t>(phase_) << 48) ^ number);
  LiveSession* raw = s.get();
  raw->pool_pos = session_pool_.size();
  session_pool_.push_back(std::move(s));
  ++live_sessions_;
  if (raw->max_turns <= 0) {
    end_session(raw, now_ns);
    return true;
  }
  return send_turn(raw, intended_ns, now_ns);
}

bool Worker::send_turn(LiveSession* s, int64_t intended_ns, int64_t now_ns) {
  uint64_t index = 0;
  if (!schedule_->claim_request(&index)) {  // --request-count reached: the run stops here
    end_session(s, now_ns);
    stop_issuing();
    return false;
  }
  const SessionTurn& turn = s->conv->turns[static_cast<size_t>(s->next_turn)];
  Request* req = new_request(index_base_ + index, intended_ns, now_ns);
  req->session = s;
  auto& rec = req->rec;
  rec.session_num = static_cast<int32_t>(s->number);
  rec.turn_index = s->next_turn;
  rec.conversation_id = s->conv->conversation_id;
  rec.x_correlation_id = s->correlation_id;
  rec.requested_output_tokens = turn.max_output_tokens;
  s->last_intended_ns = intended_ns;

  transport::HttpRequest http;
  if (!turn.body.empty()) {
    http.body = turn.body;  // verbatim (raw payload, message-array rows): carries its own context
    rec.input_tokens = turn.input_tokens;
    s->pending_user = endpoints::Message{};
  } else {
    s->pending_user = endpoints::Message{turn.role.empty() ? "user" : turn.role, turn.text};
    if (s->next_turn == 0) mark_first_turn(sessions_->cache_bust, s->marker, &s->pending_user.content);
    endpoints::TurnPayload p;
    p.model = rec.model;
    p.max_output_tokens = turn.max_output_tokens;
    p.messages.reserve(s->conv->preamble.size() + s->history.size() + 2);
    p.messages = s->conv->preamble;
    p.messages.insert(p.messages.end(), s->history.begin(), s->history.end());
    p.messages.push_back(s->pending_user);
    mark_request(sessions_->cache_bust, s->marker, phase_ == record::Phase::kWarmup, &p.messages);
    http.body = sessions_->endpoint->render_body(p);
    if (!turn.extra_json.empty()) http.body = endpoints::merge_body_extras(http.body, turn.extra_json);
    // ISL: every message's text, counted off the hot path by record processing.
    rec.input_texts.reserve(p.messages.size());
    for (auto& m : p.messages) rec.input_texts.push_back(std::move(m.content));
  }
  if (sessions_->keep_bodies) rec.request_body = http.body;
  http.headers.reserve(settings_.headers.size() + 2);
  http.headers = settings_.headers;
  http.headers.push_back("X-Request-ID: " + rec.x_request_id);
  http.headers.push_back(settings_.session_header + ": " + s->correlation_id);
  if (settings_.reuse == config::ConnectionReuse::kStickyUserSessions)
    http.connection_group = (phase_ == record::Phase::kWarmup ? 0 : (1ULL << 40)) + s->number + 1;
  launch(req, http);
  return true;
}

void Worker::on_turn_done(Request* req, int64_t now_ns) {
  LiveSession* s = req->session;
  req->session = nullptr;
  const auto& rec = req->rec;
  if (!s->pending_user.role.empty() && s->conv->carry_history) {
    // Live history: the turn as sent, then the reply the server gave (empty on failure, so the
    // roles keep alternating).
    s->history.push_back(std::move(s->pending_user));
    s->history.push_back(endpoints::Message{"assistant", rec.output_text});
  }
  ++s->next_turn;
  if (stopping_ || rec.dropped() || s->next_turn >= s->max_turns) {
    end_session(s, now_ns);
    return;
  }
  const SessionTurn& next = s->conv->turns[static_cast<size_t>(s->next_turn)];
  int64_t ready = now_ns;
  if (users_) {
    ready = std::max(now_ns, s->last_intended_ns + users_->gap_ns());
  } else if (plan_->spec.fixed_offsets_ns && next.offset_ns >= 0) {
    ready = std::max(now_ns, phase_start_ns_ + next.offset_ns);
  } else if (next.delay_ns > 0) {
    ready = now_ns + next.delay_ns;
  }
  ready_.push_back({ready, ready, s});
  std::push_heap(ready_.begin(), ready_.end(), std::greater<ReadyTurn>());
}

void Worker::end_session(LiveSession* s, int64_t now_ns) {
  if (settings_.reuse == config::ConnectionReuse::kStickyUserSessions)
    client_->release_group((phase_ == record::Phase::kWarmup ? 0 : (1ULL << 40)) + s->number + 1);
  if (s->holds_slot) schedule_->on_request_done(now_ns);
  --live_sessions_;
  users_blocked_ = false;
  // Swap-remove from the pool (frees the session).
  const size_t pos = s->pool_pos;
  if (pos + 1 != session_pool_.size()) {
    session_pool_[pos] = std::move(session_pool_.back());
    session_pool_[pos]->pool_pos = pos;
  }
  session_pool_.pop_back();
}

}  // namespace servebench::load
