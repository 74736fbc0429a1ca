#include "load/agentic_lanes.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/rng.h"

namespace servebench::load {
namespace {

// The lane's cache-bust key: apart from the (phase << 48) ^ session keys of ordinary plays.
constexpr uint64_t kLaneKeyBase = 0x5A9ULL << 48;  // < 2^63: kept as a non-negative int64

bool has_recorded_starts(const SessionTemplate& c) {
  if (c.turns.size() < 2) return false;
  for (const auto& t : c.turns)
    if (t.recorded_ns < 0) return false;
  return c.turns.back().recorded_ns > c.turns.front().recorded_ns;
}

Lane sample_lane(const SessionTemplate& c, uint32_t trace, const LaneOptions& o, core::Rng* rng) {
  Lane lane;
  lane.trace = trace;
  const auto n = static_cast<int64_t>(c.turns.size());
  const int64_t last_start = std::max<int64_t>(0, n - 2);
  if (has_recorded_starts(c)) {
    const double r = o.min_ratio + (o.max_ratio - o.min_ratio) * rng->next_double();
    const int64_t t0 = c.turns.front().recorded_ns;
    lane.t_star_ns = t0 + static_cast<int64_t>(std::llround(r * static_cast<double>(c.turns.back().recorded_ns - t0)));
    int64_t k = 0;
    for (int64_t i = 0; i < n; ++i)
      if (c.turns[static_cast<size_t>(i)].recorded_ns <= lane.t_star_ns) k = i;
    lane.start_turn = static_cast<int32_t>(std::min(k, last_start));
    return lane;
  }
  const auto lo = static_cast<int64_t>(std::floor(o.min_ratio * static_cast<double>(n)));
  const int64_t hi = std::min(static_cast<int64_t>(std::floor(o.max_ratio * static_cast<double>(n))), last_start);
  const int64_t span = hi >= lo ? hi - lo + 1 : 1;
  const int64_t k = std::min(lo, hi) + static_cast<int64_t>(rng->next_u64() % static_cast<uint64_t>(span));
  lane.start_turn = static_cast<int32_t>(std::clamp<int64_t>(k, 0, last_start));
  return lane;
}

// Spread phase starts (see the header); burst leaves every wait at 0.
void spread_starts(const SessionWorkload& w, const LaneOptions& o, std::vector<Lane>* lanes) {
  if (o.burst) return;
  int64_t lead_max = 0;
  for (const Lane& l : *lanes) {
    if (l.t_star_ns < 0) continue;
    const auto& turns = w.conversations[l.trace].turns;
    lead_max = std::max(lead_max, l.t_star_ns - turns[static_cast<size_t>(l.start_turn)].recorded_ns);
  }
  int64_t first_min = INT64_MAX;
  for (Lane& l : *lanes) {
    if (l.t_star_ns < 0) continue;
    const auto& turns = w.conversations[l.trace].turns;
    l.warmup_delay_ns = lead_max - (l.t_star_ns - turns[static_cast<size_t>(l.start_turn)].recorded_ns);
    const auto next = static_cast<size_t>(l.start_turn) + 1;
    if (next < turns.size()) {
      l.profile_delay_ns = std::max<int64_t>(0, turns[next].recorded_ns - l.t_star_ns);
      first_min = std::min(first_min, l.profile_delay_ns);
    }
  }
  // Nothing is in flight when profiling starts: the system idle-gap cap moves every lane's
  // first turn earlier by the same amount.
  if (o.system_idle_cap_ns < 0 || first_min == INT64_MAX || first_min <= o.system_idle_cap_ns) return;
  const int64_t shift = first_min - o.system_idle_cap_ns;
  for (Lane& l : *lanes) l.profile_delay_ns = std::max<int64_t>(0, l.profile_delay_ns - shift);
}

// A new play of `root`: its id, preamble and history mode, no turns or branches yet.
SessionTemplate play_of(const SessionTemplate& root) {
  SessionTemplate c;
  c.conversation_id = root.conversation_id;
  c.preamble = root.preamble;
  c.carry_history = root.carry_history;
  return c;
}

SessionTemplate warmup_play(const SessionTemplate& root, const Lane& lane, uint64_t key) {
  SessionTemplate c = play_of(root);
  c.turns.push_back(root.turns[static_cast<size_t>(lane.start_turn)]);
  c.turns.back().delay_ns = -1;
  c.first_delay_ns = lane.warmup_delay_ns;
  c.cache_bust_key = static_cast<int64_t>(key);
  return c;
}

// Cache pressure: the turns from `from` on go at once and ask for one output token.
void press(std::vector<SessionTurn>::const_iterator from, std::vector<SessionTurn>::const_iterator to,
           std::vector<SessionTurn>* out) {
  for (auto it = from; it != to; ++it) {
    out->push_back(*it);
    out->back().delay_ns = 0;
    out->back().max_output_tokens = 1;
  }
}

SessionTemplate pressure_copy(const SessionTemplate& root) {
  SessionTemplate c = play_of(root);
  press(root.turns.begin(), root.turns.end(), &c.turns);
  c.turns.front().delay_ns = -1;
  return c;
}

SessionTemplate profiling_play(const SessionTemplate& root, const Lane& lane, uint64_t key) {
  SessionTemplate c = play_of(root);
  const auto from = static_cast<size_t>(lane.start_turn) + 1;
  c.turns.assign(root.turns.begin() + static_cast<std::ptrdiff_t>(std::min(from, root.turns.size())), root.turns.end());
  if (!c.turns.empty()) c.turns.front().delay_ns = -1;
  const int32_t shift = lane.start_turn + 1;
  for (const SessionBranch& b : root.branches) {
    if (b.after_turn < lane.start_turn) continue;  // spawned before t*: not replayed
    SessionBranch nb = b;
    nb.after_turn = b.after_turn == lane.start_turn ? -1 : b.after_turn - shift;
    nb.join_turn = b.join_turn >= shift ? b.join_turn - shift : -1;
    c.branches.push_back(std::move(nb));
  }
  c.first_delay_ns = lane.profile_delay_ns;
  c.cache_bust_key = static_cast<int64_t>(key);
  return c;
}

}  // namespace

Result<std::vector<Lane>> plan_lanes(const SessionWorkload& w, const LaneOptions& o) {
  std::vector<uint32_t> roots;
  for (uint32_t i = 0; i < w.conversations.size(); ++i)
    if (!w.conversations[i].is_child && !w.conversations[i].turns.empty()) roots.push_back(i);
  if (roots.empty())
    return tl::unexpected(Error{ErrorCode::kInvalidArgument, "agentic replay: the input has no trace with a request"});
  if (o.lanes > static_cast<int64_t>(roots.size()) && !o.allow_wrap)
    return tl::unexpected(Error{
        ErrorCode::kInvalidArgument,
        fmt::format("agentic replay: --concurrency {} lanes need {} traces but the input has {}; add "
                    "--allow-dataset-wrap (lanes then share traces) or lower --concurrency",
                    o.lanes, o.lanes, roots.size())});
  core::Rng rng = core::Rng::stream(o.seed, "agentic-lanes");
  std::vector<Lane> lanes;
  for (int64_t i = 0; i < o.lanes; ++i) {
    const uint32_t trace = roots[static_cast<size_t>(i) % roots.size()];
    lanes.push_back(sample_lane(w.conversations[trace], trace, o, &rng));
  }
  spread_starts(w, o, &lanes);
  return lanes;
}

void apply_lanes(SessionWorkload* w, const std::vector<Lane>& lanes, bool cache_pressure) {
  std::vector<uint32_t> roots;
  for (uint32_t i = 0; i < w->conversations.size(); ++i)
    if (!w->conversations[i].is_child && !w->conversations[i].turns.empty()) roots.push_back(i);
  w->order = roots;
  w->warmup_lead.clear();
  w->profiling_lead.clear();
  for (size_t i = 0; i < lanes.size(); ++i) {
    const uint64_t key = kLaneKeyBase + i;
    const SessionTemplate& root = w->conversations[lanes[i].trace];
    SessionTemplate warm = warmup_play(root, lanes[i], key);
    if (cache_pressure)
      press(root.turns.begin() + lanes[i].start_turn + 1, root.turns.end(), &warm.turns);
    SessionTemplate prof = profiling_play(root, lanes[i], key);
    w->warmup_lead.push_back(static_cast<uint32_t>(w->conversations.size()));
    w->conversations.push_back(std::move(warm));
    w->profiling_lead.push_back(static_cast<uint32_t>(w->conversations.size()));
    w->conversations.push_back(std::move(prof));
  }
  w->warmup_order.clear();
  w->lane_progress.reset();
  if (cache_pressure) {
    w->lane_progress = std::make_shared<LaneProgress>(lanes.size());
    for (uint32_t r : roots) {
      w->warmup_order.push_back(static_cast<uint32_t>(w->conversations.size()));
      w->conversations.push_back(pressure_copy(w->conversations[r]));
    }
  }
  w->agentic = true;
}

}  // namespace servebench::load
