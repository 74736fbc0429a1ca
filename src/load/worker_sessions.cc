// The worker's multi-turn session logic (sessions.h): which turn goes next, rendering a turn
// with its live history, and the end of a session.
#include <algorithm>
#include <functional>

#include <fmt/format.h>

#include "load/unreachable.h"
#include "core/media_uuid.h"
#include "load/worker.h"
#include "load/worker_internal.h"
#include "transport/http_client.h"

namespace servebench::load {

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
  const bool rate_mode = plan_->spec.request_rate.has_value();
  if (!ready_.empty()) {
    // With a rate a ready continuation waits for the next arrival; wake when one becomes ready
    // only if that is still ahead (an arrival may be held by the ceiling until then).
    const int64_t r = ready_.front().ready_ns;
    if (!rate_mode || r > clock_.now_ns()) wake = r;
  }
  if (users_ && !users_done_ && !users_blocked_) wake = std::min(wake, phase_start_ns_ + next_user_.offset_ns);
  // Idle-gap cap: a far wait is re-checked now and then (another worker may leave the run idle).
  if (settings_.idle_cap && wake != kNever && wake > clock_.now_ns() + settings_.idle_cap->cap_ns)
    wake = std::min(wake, clock_.now_ns() + kIdleCapPollNs);
  return std::min(wake, schedule_->issue_deadline_ns());
}

void Worker::apply_idle_cap() {
  if (!settings_.idle_cap || ready_.empty()) return;
  const IdleGapCap& cap = *settings_.idle_cap;
  const int64_t shift = idle_shift_ns(cap.cap_ns, cap.in_flight.load(std::memory_order_relaxed),
                                      cap.idle_since_ns.load(std::memory_order_relaxed), phase_start_ns_,
                                      ready_.front().ready_ns);
  if (shift <= 0) return;
  for (auto& r : ready_) r.ready_ns -= shift;  // one amount for all: the heap order holds
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
    return send_turn(r.session, r.ready_ns, now_ns);
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
  if (continuation_ready) {
    const ReadyTurn r = pop_ready();
    return send_turn(r.session, credit.intended_ns, now_ns);
  }
  uint64_t number = credit.index;
  if (plan_->spec.fixed_offsets_ns == nullptr) {
    const int64_t n = sessions_started_ ? sessions_started_->fetch_add(1, std::memory_order_relaxed) : 0;
    // The shard's n-th session is the plan's session n·N + I (plan.h, Shard).
    number = plan_->shard.global(static_cast<uint64_t>(n));
    if (number >= static_cast<uint64_t>(plan_->spec.session_count.value_or(INT64_MAX))) {
      sessions_exhausted_ = true;  // this credit goes unused (AIPerf skips the arrival too)
      return true;
    }
  }
  return start_session(number, 0, credit.intended_ns, now_ns, !plan_->open_loop(),
                       credit.slot_failures);
}

bool Worker::start_session(uint64_t number, int32_t max_turns, int64_t intended_ns, int64_t now_ns,
                           bool holds_slot, int32_t slot_failures) {
  std::unique_ptr<LiveSession> s = std::make_unique<LiveSession>();
  s->number = number;
  s->holds_slot = holds_slot;
  s->slot_failures = slot_failures;
  s->conv = &sessions_->conversation_of(number, phase_ == record::Phase::kWarmup);
  const auto turns = static_cast<int32_t>(s->conv->turns.size());
  s->max_turns = max_turns > 0 ? std::min(max_turns, turns) : turns;
  s->correlation_id = fmt::format("{:016x}-{}{:010x}", settings_.run_tag,
                                  phase_ == record::Phase::kWarmup ? 'w' : 's', number);
  if (sessions_->cache_bust != CacheBust::kNone) {
    const uint64_t key = s->conv->cache_bust_key >= 0 ? static_cast<uint64_t>(s->conv->cache_bust_key)
                                                      : (static_cast<uint64_t>(phase_) << 48) ^ number;
    s->marker = cache_bust_marker(settings_.seed, key);
  }
  s->connection_group = (phase_ == record::Phase::kWarmup ? 0 : (1ULL << 40)) + number + 1;
  const int32_t resume = lane_resume_turn(number);
  s->next_turn = resume;
  LiveSession* raw = s.get();
  raw->pool_pos = session_pool_.size();
  session_pool_.push_back(std::move(s));
  ++live_sessions_;
  if (raw->next_turn >= raw->max_turns) {
    end_session(raw, now_ns);
    return true;
  }
  if (resume > 0) return send_turn(raw, intended_ns, now_ns);  // handed over live: no spread
  if (!raw->conv->branches.empty()) start_branches(raw, -1, now_ns);
  if (raw->conv->first_delay_ns > 0) {  // an agentic lane's spread start (agentic_lanes.h)
    queue_next_turn(raw, now_ns + raw->conv->first_delay_ns);
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
  rec.prefix_hit_blocks = turn.prefix_hit_blocks;
  rec.prefix_total_blocks = turn.prefix_total_blocks;
  if (turn.model_rank >= 0)
    rec.model = settings_.models[static_cast<size_t>(turn.model_rank) % settings_.models.size()];
  s->last_intended_ns = intended_ns;

  transport::HttpRequest http;
  if (!turn.body.empty()) {
    http.body = turn.body;  // verbatim (raw payload, message-array rows): carries its own context
    rec.input_tokens = turn.input_tokens;
    s->pending_user = endpoints::Message{};
  } else {
    s->pending_user = endpoints::Message{turn.role.empty() ? "user" : turn.role, turn.text};
    const bool first_mark = s->next_turn == 0 || (sessions_->agentic && !s->conv->carry_history);
    // A turn complete on its own (weka_trace's messages) carries the marker on its first message.
    const bool mark_lead = first_mark && !turn.lead.empty() && !s->conv->carry_history;
    if (first_mark && !mark_lead) mark_first_turn(sessions_->cache_bust, s->marker, &s->pending_user.content);
    endpoints::TurnPayload p;
    p.model = rec.model;
    p.max_output_tokens = turn.max_output_tokens;
    p.messages.reserve(s->conv->preamble.size() + s->history.size() + 2);
    p.messages = s->conv->preamble;
    p.messages.insert(p.messages.end(), s->history.begin(), s->history.end());
    const size_t lead_at = p.messages.size();
    p.messages.insert(p.messages.end(), turn.lead.begin(), turn.lead.end());
    p.messages.push_back(s->pending_user);
    if (mark_lead) mark_first_turn(sessions_->cache_bust, s->marker, &p.messages[lead_at].content);
    mark_request(sessions_->cache_bust, s->marker, phase_ == record::Phase::kWarmup && !sessions_->agentic,
                 &p.messages);
    p.extras = turn.extras.get();
    if (turn.media && sessions_->strip_repeated_images) {
      core::copy_stripping_seen_images(*turn.media, &s->seen_images, &p.media);
    } else if (turn.media) {
      p.media = *turn.media;
    }
    http.body = sessions_->endpoint->render_body(p);
    // Media read from the body store (app/media_store.h): drop the resident pages again, so RSS
    // holds the bodies in flight, not every file sent so far.
    if (settings_.body_store)
      for (const auto& m : p.media) settings_.body_store->release(m.stored_base64);
    // ISL: every message's text, counted off the hot path by record processing.
    rec.input_texts.reserve(p.messages.size());
    rec.input_roles.reserve(p.messages.size());
    for (auto& m : p.messages) {
      rec.input_texts.push_back(std::move(m.content));
      rec.input_roles.push_back(std::move(m.role));
    }
  }
  if (settings_.keep_bodies) rec.request_body = http.body;
  launch(req, http, s->connection_group);
  return true;
}

void Worker::on_turn_done(Request* req, int64_t now_ns) {
  LiveSession* s = req->session;
  req->session = nullptr;
  const auto& rec = req->rec;
  if (!s->pending_user.role.empty() && s->conv->carry_history) {
    // Live history: the turn as sent, then the reply the server gave (empty on failure, so the
    // roles keep alternating).
    const auto& lead = s->conv->turns[static_cast<size_t>(s->next_turn)].lead;
    s->history.insert(s->history.end(), lead.begin(), lead.end());
    s->history.push_back(std::move(s->pending_user));
    s->history.push_back(endpoints::Message{"assistant", rec.output_text});
  }
  ++s->next_turn;
  if (!rec.dropped()) {
    note_lane_progress(s);
    s->slot_failures = is_connection_failure(rec) ? s->slot_failures + 1 : 0;
  }
  if (!s->conv->branches.empty() && !stopping_ && !rec.dropped()) start_branches(s, s->next_turn - 1, now_ns);
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
  // A closed-loop session's next turn waits out the back-off like a slot would (schedule.h).
  if (s->holds_slot)
    ready = std::max(ready, now_ns + backoff_delay_ns(settings_.backoff, s->slot_failures));
  queue_next_turn(s, ready);
}

// Agentic cache pressure: lane i's warm-up play is turn k_i then k_i + 1, ...; its profiling
// play starts at k_i + 1. After m completed warm-up turns the continuation resumes at index m - 1.
void Worker::note_lane_progress(const LiveSession* s) {
  const auto& progress = sessions_->lane_progress;
  if (!progress || phase_ != record::Phase::kWarmup || s->parent != nullptr ||
      s->number >= progress->done.size())
    return;
  progress->done[s->number].store(s->next_turn, std::memory_order_relaxed);
}

int32_t Worker::lane_resume_turn(uint64_t number) const {
  const auto& progress = sessions_->lane_progress;
  if (!progress || phase_ != record::Phase::kProfiling || number >= progress->done.size()) return 0;
  return std::max(0, progress->done[number].load(std::memory_order_relaxed) - 1);
}

void Worker::end_session(LiveSession* s, int64_t now_ns) {
  if (settings_.reuse == ConnectionReuse::kStickyUserSessions)
    client_->release_group(s->connection_group);
  if (s->holds_slot) schedule_->on_request_done(now_ns, s->slot_failures);
  for (LiveSession* c : s->children) c->parent = nullptr;  // they play on, detached
  const bool child = s->conv->is_child;
  if (s->parent) detach_child(s, now_ns);
  if (child) {
    --live_children_;
  } else {
    --live_sessions_;
  }
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
