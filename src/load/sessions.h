// Sessions: multi-turn conversations for the load engine. A session is one play of a dataset
// conversation; its turns are sent one after another by the worker that started it (sessions
// are pinned to a worker, which holds the live history), each turn's body rendered at send time
// from the conversation's preamble (shared system prompt, user context), the history so far
// (every earlier user turn followed by the reply the server actually gave) and the turn's own
// message. Without sessions the engine sends pre-rendered single-turn bodies (worker.h).
//
// When turn n+1 may go (AIPerf §4.5, per load mode):
//   concurrency / request rate: after turn n completed plus the turn's delay (ms from the data or
//     --session-turn-delay-*, times --session-delay-ratio); with a request rate the turn then
//     waits for the next arrival (continuations go before new sessions);
//   fixed schedule: at the turn's own timestamp (but never before turn n completed), else after
//     its delay, else at once;
//   user-centric rate: at max(completion, previous send + num_users / rate).
// A session holds one --concurrency slot from its first turn until its last turn completes.
//
// UserCentricGenerator: AIPerf's --user-centric-rate first-turn schedule. Users share the rate:
// each sends a turn every gap = num_users / rate seconds; at t0 the users are spread over the
// session lifetime (turns − 1 gaps) as if the run had been going on ("virtual history": the
// oldest has one turn left, the youngest all of them), first sends staggered 1 / rate apart,
// and each user is replaced by a new one when its turns are used up (spawn = start + turns·gap).
//
// Thread safety: SessionWorkload is immutable and shared by the workers; a generator is owned
// by one worker.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <queue>
#include <string>
#include <vector>

#include "load/load_types.h"
#include "endpoints/endpoint.h"

namespace servebench::load {

struct SessionTurn {
  std::string text;              // the turn's message (a delta: history is added live)
  std::string role = "user";
  std::string body;              // verbatim body (raw payload, message-array rows): sent as is
  // Per-turn body members (an input row's `extra`), parsed once before t0 (null = none).
  std::shared_ptr<const endpoints::BodyExtras> extras;
  int64_t input_tokens = -1;     // ISL when known before t0 (verbatim bodies); else counted live
  int64_t max_output_tokens = -1;
  int64_t delay_ns = -1;         // wait after the previous turn completed (-1: none)
  int64_t offset_ns = -1;        // fixed schedule: intended offset from the phase start (-1: none)
  // The turn's images and audio (built before t0; shared, so copies of the turn are cheap). Sent
  // with the turn's own message; later turns do not repeat them.
  std::shared_ptr<const std::vector<core::MediaPart>> media;
  // Messages sent before `text` in this turn (a turn authored as several messages, e.g. a
  // system message and a user message); they join the live history with it.
  std::vector<endpoints::Message> lead;
  // The --model this turn goes to: models[model_rank % models.size()] (-1: the request's own
  // round-robin choice). Traces remap their recorded models by first appearance.
  int32_t model_rank = -1;
  // Traces: the turn's recorded start from the trace's start (-1: none); agentic lanes sample
  // their start turn and spread their phase starts by it (agentic_lanes.h).
  int64_t recorded_ns = -1;
  // weka_trace: the turn's theoretical prefix-cache hit and blocks (RequestRecord's; -1: none).
  int64_t prefix_hit_blocks = -1;
  int64_t prefix_total_blocks = -1;
};

// Child conversations (children.h): started when turn `after_turn` of the parent completes
// (-1: when the parent session starts), all of them at once, on the parent's worker.
struct SessionBranch {
  int32_t after_turn = -1;
  // The parent's turn that waits until every child of this branch has finished all its turns
  // (-1: nobody waits: a background branch).
  int32_t join_turn = -1;
  // FORK: a child starts with the parent's history (its turns so far and the live replies);
  // SPAWN (false): a child starts with no history.
  bool fork = false;
  std::vector<std::string> child_ids;        // conversation ids (resolved by link_children)
  std::vector<uint32_t> children;            // indices into SessionWorkload::conversations
  std::vector<int64_t> child_delay_ns;       // per child: wait after the anchor turn (or empty)
};

struct SessionTemplate {
  std::string conversation_id;
  std::vector<endpoints::Message> preamble;  // system prompt, user context: in every turn
  std::vector<SessionTurn> turns;
  // False: turns go one after another but each without the earlier ones (AIPerf's single_turn
  // rows sharing a session_id).
  bool carry_history = true;
  std::vector<SessionBranch> branches;  // child conversations this one starts (children.h)
  bool is_child = false;                // only ever started by a parent's branch
  // Agentic lanes (agentic_lanes.h): the first turn waits this long after the session starts,
  // and the cache-bust marker is keyed by this (>= 0) instead of the phase and session number,
  // so a lane's warm-up play and its profiling continuation share one marker.
  int64_t first_delay_ns = 0;
  int64_t cache_bust_key = -1;
};

// Agentic cache pressure (agentic_lanes.h): how many turns of each lane's warm-up play have
// completed (written by the warm-up's workers, read when profiling starts the lane's
// continuation, which resumes after them: AIPerf's warm-up-to-profiling handoff).
struct LaneProgress {
  explicit LaneProgress(size_t lanes) : done(lanes) {}
  std::vector<std::atomic<int32_t>> done;
};

struct SessionWorkload {
  std::vector<SessionTemplate> conversations;
  // Session k of a phase plays conversations[order[k % order.size()]]. With a fixed schedule,
  // conversations are sorted by first timestamp and order is the identity.
  std::vector<uint32_t> order;
  const endpoints::Endpoint* endpoint = nullptr;  // renders bodies at send time (thread-safe)
  CacheBust cache_bust = CacheBust::kNone;
  double user_centric_rate = 0;   // > 0: first turns from UserCentricGenerator
  int64_t num_users = 0;
  bool has_children = false;      // some conversation has branches (children.h)
  // Agentic replay (agentic_lanes.h): session k < lead.size() of a phase plays lead[k] (its
  // lane), later sessions order[(k - lead.size()) % order.size()] (traces recycled in order).
  std::vector<uint32_t> warmup_lead;
  std::vector<uint32_t> profiling_lead;
  // Agentic cache-pressure warm-up: later warm-up sessions play warmup_order (the traces' pressure
  // copies) instead of order.
  std::vector<uint32_t> warmup_order;
  std::shared_ptr<LaneProgress> lane_progress;  // null: profiling lanes start at their t* turn
  // Agentic replay: warm-up requests carry no "warmup" marker (they prime the cache the
  // profiling continuation hits), and turns without history carry the first-turn cache-bust
  // marker too (each is a whole prompt starting with the play's prefix).
  bool agentic = false;
  // --uuid-and-strip: an image whose uuid the session already sent goes without its bytes.
  bool strip_repeated_images = false;

  const SessionTemplate& conversation_of(uint64_t session) const {
    return conversations[order[session % order.size()]];
  }
  const SessionTemplate& conversation_of(uint64_t session, bool warmup) const {
    const std::vector<uint32_t>& lead = warmup ? warmup_lead : profiling_lead;
    if (session < lead.size()) return conversations[lead[session]];
    if (warmup && !warmup_order.empty())
      return conversations[warmup_order[(session - lead.size()) % warmup_order.size()]];
    return conversation_of(session - lead.size());
  }
  double average_turns() const;
};

// The per-session cache-bust marker "[rid:dddddddddddd]": AIPerf's format (12 decimal digits, a
// subset of its hex). A marker's token count depends on its digits and on the text after it, so
// marked prompts are counted per request at send time (RequestRecord::input_texts).
std::string cache_bust_marker(uint64_t seed, uint64_t key);
inline constexpr size_t kCacheBustMarkerDigits = 12;
inline constexpr std::string_view kCacheBustPlaceholder = "[rid:000000000000]";
// Writes the 12 digits of `key`'s marker over `digits` (points at the first digit).
void write_cache_bust_digits(uint64_t seed, uint64_t key, char* digits);

// The first-turn cache-bust positions: marks the session's first user message (once; later
// turns carry it in their history as sent).
void mark_first_turn(CacheBust where, const std::string& marker, std::string* content);
// The per-request markers, applied to a copy of the messages of every request: the system
// cache-bust positions (a system message holding just the marker is added when there is none)
// and the warm-up marker (AIPerf: warm-up requests start their system message, else their first
// message, with "warmup" so they cannot prime the prefix cache profiling then hits; not with
// --cache-bust, which already makes every session distinct).
void mark_request(CacheBust where, const std::string& marker, bool warmup,
                  std::vector<endpoints::Message>* messages);

struct UserStart {
  int64_t offset_ns = 0;  // first send, from the phase start
  uint64_t session = 0;   // session number (in order of first sends)
  int32_t max_turns = 0;  // turns this user sends (fewer for users with virtual history)
};

class UserCentricGenerator {
 public:
  // `turns_of(session)`: the turn count of the conversation session k plays.
  UserCentricGenerator(double rate_per_s, int64_t num_users, double average_turns,
                       std::function<int32_t(uint64_t)> turns_of);
  UserStart next();
  int64_t gap_ns() const { return gap_ns_; }

 private:
  struct Pending {
    int64_t at_ns;
    uint64_t seq;       // creation order: ties go to the older user
    int32_t max_turns;  // 0: a fresh user (all of its conversation's turns)
    bool operator>(const Pending& o) const { return at_ns != o.at_ns ? at_ns > o.at_ns : seq > o.seq; }
  };
  std::function<int32_t(uint64_t)> turns_of_;
  int64_t gap_ns_ = 0;
  std::priority_queue<Pending, std::vector<Pending>, std::greater<Pending>> heap_;
  uint64_t seq_ = 0;
  uint64_t emitted_ = 0;
};

}  // namespace servebench::load
