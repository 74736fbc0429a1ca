#include "load/sessions.h"

#include <cmath>
#include <numeric>

#include "core/rng.h"

namespace servebench::load {

double SessionWorkload::average_turns() const {
  if (conversations.empty()) return 0;
  double sum = 0;
  for (const auto& c : conversations) sum += static_cast<double>(c.turns.size());
  return sum / static_cast<double>(conversations.size());
}

void write_cache_bust_digits(uint64_t seed, uint64_t key, char* digits) {
  uint64_t state = seed ^ core::fnv1a64("cache-bust") ^ (key * 0x9E3779B97F4A7C15ULL);
  uint64_t v = core::splitmix64(&state) % 1'000'000'000'000ULL;  // 12 decimal digits
  for (size_t i = kCacheBustMarkerDigits; i-- > 0;) {
    digits[i] = static_cast<char>('0' + v % 10);
    v /= 10;
  }
}

std::string cache_bust_marker(uint64_t seed, uint64_t key) {
  std::string m(kCacheBustPlaceholder);
  write_cache_bust_digits(seed, key, m.data() + 5);
  return m;
}

void mark_first_turn(CacheBust where, const std::string& marker, std::string* content) {
  if (where == CacheBust::kFirstTurnPrefix) *content = marker + " " + *content;
  if (where == CacheBust::kFirstTurnSuffix) *content = *content + " " + marker;
}

void mark_request(CacheBust where, const std::string& marker, bool warmup,
                  std::vector<endpoints::Message>* messages) {
  auto& msgs = *messages;
  endpoints::Message* system = nullptr;
  for (auto& m : msgs) {
    if (m.role == "system") {
      system = &m;
      break;
    }
  }
  if (where == CacheBust::kSystemPrefix || where == CacheBust::kSystemSuffix) {
    if (!system) {
      msgs.insert(msgs.begin(), endpoints::Message{"system", marker});
    } else {
      system->content = where == CacheBust::kSystemPrefix ? marker + " " + system->content
                                                          : system->content + " " + marker;
    }
    return;
  }
  if (where != CacheBust::kNone || !warmup || msgs.empty()) return;
  endpoints::Message* target = system ? system : &msgs.front();
  target->content = "warmup " + target->content;
}

namespace {

int64_t find_coprime_step(int64_t n) {
  for (int64_t step = 2; step < n; ++step)
    if (std::gcd(n, step) == 1) return step;
  return 1;
}

}  // namespace

UserCentricGenerator::UserCentricGenerator(double rate_per_s, int64_t num_users, double average_turns,
                                           std::function<int32_t(uint64_t)> turns_of)
    : turns_of_(std::move(turns_of)) {
  const double stagger_ns = 1e9 / rate_per_s;
  gap_ns_ = static_cast<int64_t>(std::llround(static_cast<double>(num_users) * stagger_ns));
  const int64_t n = num_users;
  const int64_t lifetime = std::max<int64_t>(1, std::llround(average_turns) - 1);
  const bool alternate = std::gcd(n, lifetime) > 1;
  const int64_t step = alternate ? find_coprime_step(n) : 1;
  // Users already part-way through their sessions at t0 (the oldest, with none left, is
  // replaced by a fresh user sending at t0).
  for (int64_t i = 0; i < n; ++i) {
    const int64_t virtual_age = (n - i) * lifetime;
    const int64_t turns_left = lifetime - virtual_age / n;
    if (turns_left <= 0) continue;
    const int64_t slot = alternate ? (i * step) % n : virtual_age % n;
    const int64_t order = n - slot;
    heap_.push({static_cast<int64_t>(std::llround(static_cast<double>(order) * stagger_ns)), seq_++,
                static_cast<int32_t>(turns_left)});
  }
  heap_.push({0, seq_++, 0});
}

UserStart UserCentricGenerator::next() {
  const Pending p = heap_.top();
  heap_.pop();
  UserStart u;
  u.offset_ns = p.at_ns;
  u.session = emitted_++;
  const int32_t full = std::max<int32_t>(1, turns_of_(u.session));
  u.max_turns = p.max_turns > 0 ? std::min(p.max_turns, full) : full;
  // Its replacement arrives when this user's turns are used up, on the ideal schedule.
  heap_.push({p.at_ns + static_cast<int64_t>(u.max_turns) * gap_ns_, seq_++, 0});
  return u;
}

}  // namespace servebench::load
