// Internal to the load engine's worker (worker.cc, worker_sessions.cc): the in-flight request
// (the transport's response handler filling its record) and a live multi-turn session.
// Not part of the module's interface.
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include <fmt/format.h>

#include "endpoints/endpoint.h"
#include "load/worker.h"
#include "transport/event_loop.h"
#include "transport/http_client.h"
#include "transport/sse_parser.h"

namespace servebench::load {

// The record's error message for a request the worker cancelled, by reason.
inline const char* cancel_message(record::CancelReason reason) {
  switch (reason) {
    case record::CancelReason::kRate: return "cancelled by --request-cancellation-rate";
    case record::CancelReason::kGrace:
      return "cancelled: still in flight when the benchmark grace period expired";
    case record::CancelReason::kInterrupt: return "cancelled: interrupted (Ctrl-C)";
    case record::CancelReason::kNone: break;
  }
  return "cancelled";
}

inline constexpr size_t kErrorExcerptBytes = 512;

// One in-flight request: the transport's handler and the record being filled.
struct Worker::Request final : transport::ResponseHandler {
  Worker* worker = nullptr;
  record::RequestRecord rec;
  transport::SseParser sse;
  std::string body;  // non-streamed body or error excerpt
  uint64_t transfer = 0;
  size_t active_pos = 0;
  record::CancelReason cancel_reason = record::CancelReason::kNone;
  int64_t cancel_after_ns = -1;  // --request-cancellation-delay for this request, -1 = none
  bool cancel_timer_armed = false;
  uint64_t cancel_timer = 0;
  bool awaiting_first_token = false;
  bool completed = false;
  int64_t last_recv_ns = 0;
  LiveSession* session = nullptr;  // multi-turn: the session this turn belongs to
  int32_t slot_failures = 0;       // closed loop: its slot's consecutive connection failures
  // Multi-step types (endpoints::FollowUp, worker_follow_up.cc): the step being answered, the
  // parser's tag for it, its URL, and the timer of the next step while one waits.
  int32_t step = 0;
  int32_t step_kind = 0;
  std::string step_url;
  bool follow_up_armed = false;
  uint64_t follow_up_timer = 0;

  void reset() {
    session = nullptr;
    slot_failures = 0;
    step = 0;
    step_kind = 0;
    step_url.clear();
    follow_up_armed = false;
    // Its strings and chunk list keep their capacity: the record was packed into the batch
    // (Worker::finish), and the next request writes into the same buffers.
    record::reset_record(&rec);
    record::release_large_buffers(&rec);  // a rare huge response is not kept for the whole run
    sse.reset();
    body.clear();
    transfer = 0;
    cancel_reason = record::CancelReason::kNone;
    cancel_after_ns = -1;
    cancel_timer_armed = false;
    awaiting_first_token = false;
    completed = false;
    last_recv_ns = 0;
  }

  bool http_ok() const { return rec.http_status >= 200 && rec.http_status < 300; }

  endpoints::StepContext step_context() const {
    const std::string& base = worker->settings_.urls[static_cast<size_t>(rec.url_index)];
    return endpoints::StepContext{step, step_kind, base, step == 0 ? base : step_url};
  }

  // The cancellation delay counts from the end of sending (AIPerf). The transport may report
  // that instant late (libcurl: with the response headers), so the timer is first armed from
  // request_start and moved when the real send time arrives in time.
  void arm_cancel(int64_t from_ns) {
    if (cancel_after_ns < 0) return;
    if (cancel_timer_armed) worker->loop_->cancel_timer(cancel_timer);
    cancel_timer_armed = true;
    cancel_timer = worker->loop_->add_timer(from_ns + cancel_after_ns, [this] {
      cancel_timer_armed = false;
      worker->cancel_one(this, record::CancelReason::kRate);
    });
  }

  // A multi-step request's HTTP timing is its first request's (the submit): later steps' sends
  // and connections would make sending/waiting meaningless; their bytes still add up.
  void on_connect_timing(const transport::ConnectTiming& t) override {
    if (step > 0) return;
    rec.conn_start_ns = t.start_ns;
    rec.dns_done_ns = t.dns_done_ns;
    rec.connected_ns = t.connected_ns;
    rec.tls_done_ns = t.tls_done_ns;
  }

  void on_request_writes(int32_t writes) override { rec.request_writes = writes; }

  void on_request_sent(int64_t sent_ns) override {
    if (step > 0) return;
    rec.request_sent_ns = sent_ns;
    if (cancel_timer_armed) arm_cancel(sent_ns);
  }

  void on_headers(int http_status, int64_t recv_ns) override {
    rec.http_status = http_status;
    if (rec.first_byte_ns == 0) rec.first_byte_ns = recv_ns;
  }

  void on_body(std::string_view bytes, int64_t recv_ns) override {
    rec.response_bytes += static_cast<int64_t>(bytes.size());
    ++rec.response_reads;
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
    const size_t before = rec.chunks.size();
    worker->parser_->parse_event(endpoints::SseEventView{ev.event, ev.data}, ev.recv_ns, &rec);
    if (awaiting_first_token) {
      for (size_t i = before; i < rec.chunks.size(); ++i) {
        if (record::is_content_chunk(rec.chunks[i].kind)) {
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
    if (cancel_reason != record::CancelReason::kNone) {
      rec.error = record::ErrorKind::kCancelled;
      rec.error_message = cancel_message(cancel_reason);
      rec.cancel_reason = cancel_reason;
    } else if (error != record::ErrorKind::kNone) {
      rec.error = error;
      rec.error_message = std::string(message);
    } else if (!http_ok()) {
      rec.error = record::ErrorKind::kHttpStatus;
      std::string excerpt = body;
      std::replace(excerpt.begin(), excerpt.end(), '\n', ' ');
      std::replace(excerpt.begin(), excerpt.end(), '\r', ' ');
      rec.error_message = fmt::format("HTTP {}: {}", rec.http_status, excerpt);
    } else {
      if (rec.streaming) {
        sse.finish(end_ns, [this](const transport::SseEvent& ev) { on_event(ev); });
      } else if (worker->polls_) {
        endpoints::FollowUp next;
        worker->parser_->parse_step(body, last_recv_ns ? last_recv_ns : end_ns,
                                    step_context(), &rec, &next);
        if (rec.ok() && !next.url.empty()) return worker->follow_up(this, std::move(next));
      } else {
        worker->parser_->parse_body(body, last_recv_ns ? last_recv_ns : end_ns, &rec);
      }
      // Received whole and parsed without error: latency of every endpoint type ends here.
      if (rec.ok()) rec.response_complete_ns = last_recv_ns ? last_recv_ns : end_ns;
    }
    worker->finish(this);
  }
};

// A live multi-turn session (sessions.h), owned by the worker that started it.
struct Worker::LiveSession {
  uint64_t number = 0;   // session number within the phase
  const SessionTemplate* conv = nullptr;
  int32_t next_turn = 0;
  int32_t max_turns = 0;
  std::vector<endpoints::Message> history;  // user turns as sent, each followed by the live reply
  endpoints::Message pending_user;          // the turn in flight, as sent
  std::string correlation_id;
  std::string marker;                       // cache-bust marker ("" = none)
  uint64_t connection_group = 0;            // its connection under sticky-user-sessions
  int64_t last_intended_ns = 0;
  bool holds_slot = false;                  // closed loop: returns its slot when it ends
  int32_t slot_failures = 0;                // consecutive connection failures (schedule.h)
  size_t pool_pos = 0;
  // Child conversations (children.h); all empty/null for sessions without branches.
  LiveSession* parent = nullptr;            // the session that started this child
  int32_t gates_turn = -1;                  // the parent's turn waiting for this child (-1: none)
  std::vector<LiveSession*> children;       // live children
  int32_t children_started = 0;             // ordinal of the next child (its correlation id)
  bool waiting_join = false;                // next turn is ready but waits for children
  int64_t join_ready_ns = 0;                // when it became ready
  std::unordered_set<std::string> seen_images;  // --uuid-and-strip: image uuids sent so far
};

}  // namespace servebench::load
