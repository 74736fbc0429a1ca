// Worker: one thread's share of the load. Owns an EventLoop, an HttpClient (native HTTP/1.1 or
// libcurl, transport/http_client.h), the endpoint's EventParser (made by the endpoint spec's
// parser factory), its in-flight requests and a record buffer; shares nothing
// with other workers while a phase runs except the closed-loop request counter (one relaxed
// fetch_add per request). Sends are driven by WorkerSchedule: the loop sleeps on a timer armed at
// the next due send (timerfd, 1 ns timer slack) and wakes on completions.
//
// Timestamps: credit_issued_ns when the schedule hands out the request, request_start_ns right
// before it is handed to the transport, first_byte/chunk/end times from the transport.
//
// Lifetime: created and used on its own thread (init() there too); interrupt() may be called
// from any thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "load/load_types.h"
#include "core/clock.h"
#include "core/result.h"
#include "load/body_store.h"
#include "load/idle_gap_cap.h"
#include "load/schedule.h"
#include "load/sessions.h"
#include "record/packed_records.h"
#include "record/request_record.h"
#include "transport/http_client.h"

namespace servebench::transport {
class EventLoop;
class HttpClient;
struct HttpRequest;
}  // namespace servebench::transport
namespace servebench::endpoints {
class EventParser;
struct FollowUp;
}

namespace servebench::load {

// One pre-rendered request body (dataset entry), built before t0.
struct RequestTemplate {
  std::string body;         // the body, unless it lives in the file-backed store; then
  std::string_view stored;  // a view of it there (body_store.h; `body` is empty)
  std::string_view body_text() const { return stored.data() ? stored : std::string_view(body); }
  int64_t input_tokens = -1;
  int64_t max_output_tokens = -1;
  int32_t input_images = -1;  // images in the body (media types), -1 = unknown
  std::string conversation_id;
  // Where the 12 digits of a "[rid:000000000000]" cache-bust placeholder start in `body`
  // (-1: none); the worker writes each request's own marker there (a copy of the body is sent).
  // Its token count depends on the digits, so such requests are counted at send time from
  // `input_texts` (message texts, the marker in text `cache_bust_text` at `cache_bust_text_at`).
  int64_t cache_bust_digits_at = -1;
  std::vector<std::string> input_texts;
  std::vector<std::string> input_roles;  // the role of each input_texts message
  int32_t cache_bust_text = -1;
  int64_t cache_bust_text_at = -1;
};

// Everything a worker needs to build requests; shared read-only by all workers.
struct WorkerSettings {
  std::vector<std::string> urls;          // full request URLs (base + path), round robin
  std::vector<std::string> headers;       // static headers (Content-Type, Authorization, -H ...)
  // Pre-rendered bodies, entry-major: requests[entry * models.size() + m]. Request i uses entry
  // order[i % order.size()] and model model_of(i) (AIPerf's model selection strategies).
  std::vector<RequestTemplate> requests;
  // Warm-up bodies (AIPerf's warm-up marker), same layout; empty: warm-up sends `requests`.
  std::vector<RequestTemplate> warmup_requests;
  // Where `stored` bodies live (null: every body is in memory); pages are released after use.
  std::shared_ptr<const BodyStore> body_store;
  std::vector<uint32_t> order;            // entry of request i: order[i % order.size()]
  bool keep_bodies = false;               // raw export: records keep bodies not pre-rendered as sent
  std::string session_header = "X-Correlation-ID";  // --session-header (every request is a session)
  // Multi-turn sessions (sessions.h); when set, `requests`/`order` are unused and every body is
  // rendered at send time with the session's live history.
  std::shared_ptr<const SessionWorkload> sessions;
  std::vector<std::string> models;        // -m/--model (one or more)
  // --model-selection-strategy random/weighted (model_order.h): request i uses model
  // model_order[i % size]; empty: i % models.size() (round robin).
  std::vector<uint32_t> model_order;
  size_t model_of(uint64_t index) const {
    return model_order.empty() ? index % models.size() : model_order[index % model_order.size()];
  }
  // Makes each worker's response parser (the endpoint's or its spec's factory; registry.h).
  std::function<std::unique_ptr<endpoints::EventParser>()> make_parser;
  // The type answers in several requests (core::kCapPolls): each whole body goes through
  // EventParser::parse_step, and the follow-ups it asks for are sent on the same record.
  bool polls = false;
  bool streaming = false;
  int http_version = 1;
  bool verify_tls = true;
  ConnectionReuse reuse = ConnectionReuse::kPooled;
  int64_t request_timeout_ns = 0;
  double cancellation_rate_pct = 0;
  int64_t cancellation_delay_ns = 0;
  // Ctrl-C: in-flight requests get this long to finish before they are cancelled; short, so a
  // stopped run ends (artifacts written) within about a second.
  int64_t interrupt_drain_ns = 500'000'000;
  int64_t flush_interval_ns = 100'000'000;
  // Timed sends wake this much early and spin to the due instant: a timerfd wake-up on a VM is
  // ~40 µs late at p50 even with 1 ns slack (measured), the spin takes that out of the lag.
  int64_t spin_ahead_ns = 50'000;
  uint64_t seed = 0;
  uint64_t run_tag = 0;                   // distinguishes X-Request-IDs between runs
  // Closed-loop back-off after connection-level failures (schedule.h, unreachable.h).
  Backoff backoff;
  // Agentic replay's system idle-gap cap (idle_gap_cap.h), shared by the workers; null = none.
  std::shared_ptr<IdleGapCap> idle_cap;
};

// Takes a batch of finished records, packed (record/packed_records.h); it may leave an empty
// batch with a buffer (a recycled one) in its argument for the worker's next batch, or leave it
// moved-from.
using RecordSink = std::function<void(record::PackedRecords&&)>;

// Counters a worker reports after each phase.
struct WorkerPhaseStats {
  int64_t issued = 0;
  int64_t completed = 0;
  int64_t cancelled_grace = 0;
  int64_t cancelled_interrupt = 0;
  int64_t cancelled_rate = 0;
  int64_t start_call_ns_total = 0;  // time spent inside HttpClient::start (client overhead)
  int64_t start_call_ns_max = 0;
};

// Whether request `index` of a phase is cancelled on purpose: a seeded hash of the index, so the
// decision does not depend on which worker sends it.
bool should_cancel(uint64_t seed, record::Phase phase, uint64_t index, double rate_pct);

class Worker {
 public:
  Worker(int id, int workers, const WorkerSettings& settings, const core::Clock& clock, RecordSink sink);
  ~Worker();
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  // Creates the loop, client and parser. Call on the worker's thread.
  Status init();
  // Runs one phase to completion (all requests finished or cancelled). `issued` is the phase's
  // shared closed-loop counter; `index_base` offsets request indices of this phase.
  // `sessions_started` counts the phase's sessions across workers (multi-turn only).
  WorkerPhaseStats run_phase(const PhasePlan& plan, int64_t start_ns, uint64_t index_base,
                             std::atomic<int64_t>* issued, std::atomic<int64_t>* sessions_started = nullptr);
  // Thread-safe. First call: stop issuing, let in-flight requests drain for interrupt_drain_ns,
  // then cancel them. Second call: cancel at once.
  void interrupt();
  // Requests this worker issued over all phases. Any thread (a relaxed load; live displays).
  int64_t issued_total() const { return issued_total_.load(std::memory_order_relaxed); }

 private:
  struct Request;
  friend struct Request;
  struct LiveSession;
  struct ReadyTurn {
    int64_t ready_ns;  // also the turn's intended time when no arrival carries it
    LiveSession* session;
    bool operator>(const ReadyTurn& o) const { return ready_ns > o.ready_ns; }
  };

  void pump();
  void issue(const Credit& credit, int64_t now_ns);
  Request* new_request(uint64_t index, int64_t intended_ns, int64_t now_ns);
  // Adds the request's URL, headers (X-Request-ID, the session header with rec.x_correlation_id)
  // and connection options, then hands it to the transport. `connection_group`: the sticky
  // session's connection (used with sticky-user-sessions only).
  void launch(Request* req, transport::HttpRequest& http, uint64_t connection_group);
  // Sessions.
  bool session_step(int64_t now_ns);
  bool start_session(uint64_t number, int32_t max_turns, int64_t intended_ns, int64_t now_ns,
                     bool holds_slot, int32_t slot_failures = 0);
  bool send_turn(LiveSession* s, int64_t intended_ns, int64_t now_ns);
  void on_turn_done(Request* req, int64_t now_ns);
  void end_session(LiveSession* s, int64_t now_ns);
  // Child conversations (children.h, worker_children.cc).
  void start_branches(LiveSession* parent, int32_t after_turn, int64_t now_ns);
  void start_child(LiveSession* parent, const SessionBranch& branch, size_t k, int64_t now_ns);
  // Queues the session's next turn for `ready_ns`, or parks it while children it joins run.
  void queue_next_turn(LiveSession* s, int64_t ready_ns);
  void note_lane_progress(const LiveSession* s);
  int32_t lane_resume_turn(uint64_t number) const;
  void detach_child(LiveSession* child, int64_t now_ns);
  void stop_issuing();
  bool no_new_sessions() const;
  int64_t session_wake_ns() const;
  void apply_idle_cap();  // idle_gap_cap.h
  void advance_user();
  void finish(Request* req);
  // Multi-step types (worker_follow_up.cc): sends `next` on `req`'s record after its delay, on
  // this worker's loop (a timer, never a sleep); a job not done within --request-timeout-seconds
  // of the first send fails as a timeout.
  void follow_up(Request* req, endpoints::FollowUp next);
  void send_follow_up(Request* req, const std::string& url);
  // Ends a request that waits for its next step (cancellation while no transfer runs).
  void cancel_waiting_step(Request* req, record::CancelReason reason);
  void cancel_all(record::CancelReason reason);
  void cancel_one(Request* req, record::CancelReason reason);
  void arm_wake();
  void flush_records();
  void on_interrupt();
  void check_done();

  const int id_;
  const int workers_;
  const WorkerSettings& settings_;
  const core::Clock& clock_;
  RecordSink sink_;
  std::unique_ptr<transport::EventLoop> loop_;
  std::unique_ptr<transport::HttpClient> client_;
  std::unique_ptr<endpoints::EventParser> parser_;
  bool polls_ = false;  // settings_.polls
  transport::HttpRequest http_scratch_;  // issue()'s request, reused (see issue())
  bool http_scratch_busy_ = false;

  // Phase state.
  std::optional<WorkerSchedule> schedule_;
  record::Phase phase_ = record::Phase::kProfiling;
  uint64_t index_base_ = 0;
  WorkerPhaseStats stats_;
  int64_t in_flight_ = 0;
  int64_t prefill_in_flight_ = 0;
  bool phase_done_ = false;
  bool pumping_ = false;
  bool repump_ = false;
  bool need_pump_ = false;
  bool drain_armed_ = false;
  int interrupts_seen_ = 0;
  std::atomic<int> interrupt_requests_{0};
  // Written by this worker only (a plain load and store, no read-modify-write), read by others.
  std::atomic<int64_t> issued_total_{0};
  uint64_t wake_timer_ = 0;
  int64_t wake_at_ns_ = 0;
  uint64_t deadline_timer_ = 0;
  uint64_t drain_timer_ = 0;
  uint64_t flush_timer_ = 0;
  std::vector<Request*> active_;
  std::vector<std::unique_ptr<Request>> pool_;
  record::PackedRecords batch_;

  // Session state (multi-turn; see sessions.h).
  const SessionWorkload* sessions_ = nullptr;
  const PhasePlan* plan_ = nullptr;
  int64_t phase_start_ns_ = 0;
  std::atomic<int64_t>* sessions_started_ = nullptr;
  bool stopping_ = false;            // deadline, request count, Ctrl-C: no more turns
  bool sessions_exhausted_ = false;  // --num-sessions reached
  int64_t live_sessions_ = 0;
  int64_t live_children_ = 0;        // child sessions (children.h): hold no slot
  uint64_t child_groups_ = 0;        // connection groups handed to child sessions
  std::vector<ReadyTurn> ready_;     // min-heap on ready_ns (std::greater)
  std::vector<std::unique_ptr<LiveSession>> session_pool_;
  std::unique_ptr<UserCentricGenerator> users_;
  UserStart next_user_;
  bool users_done_ = true;
  bool users_blocked_ = false;       // the next user waits for the --concurrency ceiling
};

}  // namespace servebench::load
