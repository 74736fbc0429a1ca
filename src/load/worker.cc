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

  void reset() {
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
                                   std::atomic<int64_t>* issued) {
  schedule_.emplace(plan, id_, workers_, start_ns, issued);
  phase_ = plan.spec.phase;
  index_base_ = index_base;
  stats_ = WorkerPhaseStats();
  phase_done_ = false;
  if (interrupt_requests_.load(std::memory_order_relaxed) > 0) schedule_->stop();
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
    while (sent < kMaxSendsPerPump && schedule_->next_credit(now, in_flight_, prefill_in_flight_, &credit)) {
      issue(credit, now);
      ++sent;
      now = clock_.now_ns();
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
  const int64_t next = schedule_->next_wake_ns();
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
  if (schedule_ && schedule_->exhausted() && in_flight_ == 0) phase_done_ = true;
}

void Worker::issue(const Credit& credit, int64_t now_ns) {
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
  const uint64_t index = index_base_ + credit.index;
  rec.request_index = index;
  rec.phase = phase_;
  rec.worker_id = id_;
  const size_t model = index % settings_.models.size();
  rec.model = settings_.models[model];
  rec.streaming = settings_.streaming;
  rec.intended_ns = credit.intended_ns;
  rec.credit_issued_ns = now_ns;
  rec.url_index = static_cast<int32_t>(index % settings_.urls.size());
  rec.session_num = static_cast<int32_t>(index);
  const size_t entry = settings_.order[index % settings_.order.size()];
  const size_t template_index = entry * settings_.models.size() + model;
  const auto& tmpl = settings_.requests[template_index];
  rec.payload_index = static_cast<int64_t>(template_index);
  rec.conversation_id = tmpl.conversation_id;
  rec.input_tokens = tmpl.input_tokens;
  rec.requested_output_tokens = tmpl.max_output_tokens;
  rec.x_request_id = fmt::format("{:016x}-{:012x}", settings_.run_tag, index);
  rec.x_correlation_id = rec.x_request_id;
  rec.request_bytes = static_cast<int64_t>(tmpl.body.size());

  transport::HttpRequest http;
  http.url = settings_.urls[static_cast<size_t>(rec.url_index)];
  http.body = tmpl.body;
  http.headers.reserve(settings_.headers.size() + 2);
  http.headers = settings_.headers;
  http.headers.push_back("X-Request-ID: " + rec.x_request_id);
  http.headers.push_back("X-Correlation-ID: " + rec.x_correlation_id);
  http.timeout_ns = settings_.request_timeout_ns;
  http.fresh_connection = settings_.reuse == config::ConnectionReuse::kNever;
  if (settings_.reuse == config::ConnectionReuse::kStickyUserSessions) http.connection_group = index + 1;

  if (should_cancel(settings_.seed, phase_, credit.index, settings_.cancellation_rate_pct))
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
  if (settings_.reuse == config::ConnectionReuse::kStickyUserSessions)
    client_->release_group(req->rec.request_index + 1);  // single-turn: the session ends here
  batch_.push_back(std::move(req->rec));
  pool_.emplace_back(req);
  if (schedule_) schedule_->on_request_done(clock_.now_ns());
  need_pump_ = true;
}

void Worker::cancel_one(Request* req, int reason) {
  if (req->completed) return;
  req->cancel_reason = reason;
  req->rec.cancel_ns = clock_.now_ns();
  client_->cancel(req->transfer);  // delivers on_complete(kCancelled) before returning
}

void Worker::cancel_all(int reason) {
  if (schedule_) schedule_->stop();
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
  schedule_->stop();
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

}  // namespace servebench::load
