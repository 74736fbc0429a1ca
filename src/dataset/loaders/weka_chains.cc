#include "dataset/loaders/weka_chains.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <tuple>
#include <unordered_set>

namespace servebench::dataset {
namespace {

constexpr double kSlackS = 1e-6;
constexpr int64_t kPreambleMaxOut = 64;  // a title-generation call's reply

struct Chain {
  std::vector<size_t> calls;   // in time order
  int64_t tail = -1;           // last call with hash ids
  int32_t parent = -1;         // forked from (-1: none)
  int64_t fork_from = -1;      // the parent's tail call at the fork
  size_t depth = 0;            // blocks shared with it
  int32_t spliced_into = -1;
};

size_t common_prefix(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  const size_t n = std::min(a.size(), b.size());
  size_t i = 0;
  while (i < n && a[i] == b[i]) ++i;
  return i;
}

class Detector {
 public:
  Detector(const std::vector<ChainCall>& calls, bool same_model)
      : calls_(calls), same_model_(same_model), chain_of_(calls.size(), -1) {}

  void classify(size_t i) {
    const auto& h = *calls_[i].hash_ids;
    if (h.empty()) {  // no evidence: the first chain, never a tail
      if (chains_.empty()) chains_.emplace_back();
      append(0, i, false);
      return;
    }
    if (int32_t target = extension_target(i); target >= 0) {
      append(target, i, true);
      return;
    }
    if (!chains_.empty() && std::none_of(chains_.begin(), chains_.end(), [](const Chain& c) { return c.tail >= 0; })) {
      append(0, i, true);  // the first hashed call: the main agent, behind calls without ids
      return;
    }
    Chain c;
    std::tie(c.parent, c.depth) = deepest_shared(h);
    if (c.parent >= 0) c.fork_from = chains_[static_cast<size_t>(c.parent)].tail;
    chains_.push_back(c);
    append(static_cast<int32_t>(chains_.size() - 1), i, true);
    if (c.depth > 0) forks_[c.fork_from].push_back(static_cast<int32_t>(chains_.size() - 1));
  }

  // Phase 2: seams spliced back onto their chain.
  void splice_seams() {
    for (const auto& [from, forks] : forks_) {
      const int32_t owner = resolve(chain_of_[static_cast<size_t>(from)]);
      Chain& o = chains_[static_cast<size_t>(owner)];
      if (o.calls.back() != static_cast<size_t>(from)) continue;  // the longer state went on
      int32_t best = -1;
      for (int32_t f : forks) {
        const Chain& c = chains_[static_cast<size_t>(f)];
        if (calls_[static_cast<size_t>(from)].end_s > calls_[c.calls.front()].t_s + kSlackS) continue;
        if (best < 0 || better_seam(c, chains_[static_cast<size_t>(best)], f, best)) best = f;
      }
      if (best < 0) continue;
      Chain& b = chains_[static_cast<size_t>(best)];
      o.calls.insert(o.calls.end(), b.calls.begin(), b.calls.end());
      for (size_t k : b.calls) chain_of_[k] = owner;
      b.spliced_into = owner;
    }
  }

  AgentChains numbering(size_t first_call) {
    const int32_t main = resolve(chain_of_[first_call]);
    std::vector<int32_t> live;
    for (size_t c = 0; c < chains_.size(); ++c)
      if (chains_[c].spliced_into < 0 && static_cast<int32_t>(c) != main) live.push_back(static_cast<int32_t>(c));
    auto first = [&](int32_t c) {
      const size_t k = chains_[static_cast<size_t>(c)].calls.front();
      return std::make_pair(calls_[k].t_s, k);
    };
    std::sort(live.begin(), live.end(), [&](int32_t a, int32_t b) { return first(a) < first(b); });
    std::vector<int32_t> number(chains_.size(), 0);
    for (size_t k = 0; k < live.size(); ++k) number[static_cast<size_t>(live[k])] = static_cast<int32_t>(k + 1);
    AgentChains out;
    out.chain_of.assign(calls_.size(), 0);
    for (size_t i = 0; i < calls_.size(); ++i)
      if (chain_of_[i] >= 0) out.chain_of[i] = number[static_cast<size_t>(resolve(chain_of_[i]))];
    out.fork_from.assign(live.size() + 1, -1);
    for (size_t k = 0; k < live.size(); ++k) {
      const Chain& c = chains_[static_cast<size_t>(live[k])];
      if (c.depth > 0) out.fork_from[k + 1] = c.fork_from;
    }
    return out;
  }

 private:
  void append(int32_t c, size_t i, bool hashed) {
    Chain& ch = chains_[static_cast<size_t>(c)];
    ch.calls.push_back(i);
    chain_of_[i] = c;
    if (hashed) ch.tail = static_cast<int64_t>(i);
  }

  int32_t extension_target(size_t i) const {
    const auto& h = *calls_[i].hash_ids;
    int32_t best = -1;
    size_t best_len = 0;
    for (size_t c = 0; c < chains_.size(); ++c) {
      if (chains_[c].tail < 0) continue;
      const ChainCall& tail = calls_[static_cast<size_t>(chains_[c].tail)];
      const size_t n = tail.hash_ids->size();
      if (n > h.size() || (best >= 0 && n <= best_len) || tail.end_s > calls_[i].t_s + kSlackS) continue;
      if (same_model_ && tail.model != calls_[i].model) continue;
      if (std::equal(tail.hash_ids->begin(), tail.hash_ids->end(), h.begin())) {
        best = static_cast<int32_t>(c);
        best_len = n;
      }
    }
    return best;
  }

  std::pair<int32_t, size_t> deepest_shared(const std::vector<int64_t>& h) const {
    int32_t best = -1;
    std::pair<size_t, size_t> key{0, 0};
    for (size_t c = 0; c < chains_.size(); ++c) {
      if (chains_[c].tail < 0) continue;
      const auto& tail = *calls_[static_cast<size_t>(chains_[c].tail)].hash_ids;
      const size_t d = common_prefix(tail, h);
      if (d == 0) continue;
      const std::pair<size_t, size_t> k{d, tail.size()};
      if (k > key) {
        best = static_cast<int32_t>(c);
        key = k;
      }
    }
    return {best, key.first};
  }

  bool better_seam(const Chain& a, const Chain& b, int32_t ia, int32_t ib) const {
    const double ta = calls_[a.calls.front()].t_s, tb = calls_[b.calls.front()].t_s;
    if (a.depth != b.depth) return a.depth > b.depth;
    if (ta != tb) return ta < tb;
    return ia < ib;
  }

  int32_t resolve(int32_t c) const {
    while (chains_[static_cast<size_t>(c)].spliced_into >= 0) c = chains_[static_cast<size_t>(c)].spliced_into;
    return c;
  }

  const std::vector<ChainCall>& calls_;
  const bool same_model_;
  std::vector<int32_t> chain_of_;
  std::vector<Chain> chains_;
  std::map<int64_t, std::vector<int32_t>> forks_;  // fork source call -> forked chains
};

// The earliest call when it is a preamble (see the header), else -1.
int64_t preamble_call(const std::vector<ChainCall>& calls, size_t first) {
  const auto& h = *calls[first].hash_ids;
  if (calls.size() < 2 || h.empty()) return -1;
  for (size_t i = 0; i < calls.size(); ++i)
    if (i != first && !calls[i].hash_ids->empty() && calls[i].hash_ids->front() == h.front()) return -1;
  if (calls[first].out_tokens <= kPreambleMaxOut) return static_cast<int64_t>(first);
  const std::unordered_set<int64_t> own(h.begin(), h.end());
  for (size_t i = 0; i < calls.size(); ++i) {
    if (i == first) continue;
    for (int64_t id : *calls[i].hash_ids)
      if (own.count(id)) return -1;
  }
  return static_cast<int64_t>(first);
}

}  // namespace

AgentChains detect_agent_chains(const std::vector<ChainCall>& calls, bool same_model) {
  if (calls.empty()) return {};
  std::vector<size_t> order(calls.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return calls[a].t_s < calls[b].t_s; });
  const int64_t preamble = preamble_call(calls, order.front());
  if (preamble >= 0) order.erase(order.begin());
  Detector d(calls, same_model);
  for (size_t i : order) d.classify(i);
  d.splice_seams();
  AgentChains out = d.numbering(order.front());
  out.preamble = preamble;  // on the main chain (0)
  return out;
}

}  // namespace servebench::dataset
