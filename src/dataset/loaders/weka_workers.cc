#include "dataset/loaders/weka_workers.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <utility>

namespace servebench::dataset {
namespace {

constexpr int64_t kAuxInDivisor = 4;          // "small": under a quarter of the main peak
constexpr int64_t kReductionInPerOut = 16;    // a reduction reads 16x what it writes

struct Span {
  double start_s = 0;
  double end_s = 0;
  size_t first_call = 0;
  std::vector<size_t> calls;  // time order
};

std::vector<Span> chain_spans(const std::vector<ChainCall>& calls, const AgentChains& chains) {
  const auto n = chains.fork_from.size();
  std::vector<Span> spans(n);
  std::vector<size_t> order(calls.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return calls[a].t_s < calls[b].t_s; });
  for (size_t i : order) {
    if (static_cast<int64_t>(i) == chains.preamble) continue;
    Span& s = spans[static_cast<size_t>(chains.chain_of[i])];
    if (s.calls.empty()) {
      s.start_s = calls[i].t_s;
      s.first_call = i;
    }
    s.end_s = std::max(s.end_s, calls[i].end_s);
    s.calls.push_back(i);
  }
  return spans;
}

bool is_aux(const ChainCall& c, int32_t main_model, int64_t main_peak_in) {
  return c.model != main_model || c.in_tokens * kAuxInDivisor < main_peak_in;
}

bool is_reduction(const ChainCall& c) { return c.out_tokens > 0 && c.in_tokens >= kReductionInPerOut * c.out_tokens; }

// (group, member) of each chain in a parallel fan-out group; -1 for the others.
std::vector<std::pair<int32_t, int32_t>> fan_out_groups(const std::vector<ChainCall>& calls, const std::vector<Span>& spans,
                                                        const std::vector<bool>& agent, const AgentChains& chains,
                                                        WorkerCounters* counters) {
  std::map<int64_t, std::vector<size_t>> by_source;  // leading block -> chains (start order)
  for (size_t c = 1; c < spans.size(); ++c)
    if (agent[c] && chains.fork_from[c] >= 0) by_source[calls[spans[c].first_call].hash_ids->front()].push_back(c);
  std::vector<std::vector<size_t>> groups;
  for (auto& [source, members] : by_source) {
    std::stable_sort(members.begin(), members.end(), [&](size_t a, size_t b) { return spans[a].start_s < spans[b].start_s; });
    std::vector<size_t> run;
    double run_end = 0;
    for (size_t c : members) {
      if (!run.empty() && spans[c].start_s >= run_end) {  // touching spans do not overlap
        if (run.size() > 1) groups.push_back(run);
        run.clear();
      }
      run_end = run.empty() ? spans[c].end_s : std::max(run_end, spans[c].end_s);
      run.push_back(c);
    }
    if (run.size() > 1) groups.push_back(run);
  }
  auto first = [&](const std::vector<size_t>& g) { return std::make_pair(spans[g[0]].start_s, spans[g[0]].first_call); };
  std::stable_sort(groups.begin(), groups.end(), [&](const auto& a, const auto& b) { return first(a) < first(b); });
  std::vector<std::pair<int32_t, int32_t>> out(spans.size(), {-1, -1});
  for (const auto& g : groups) {
    const int32_t id = counters->groups++;
    for (size_t m = 0; m < g.size(); ++m) out[g[m]] = {id, static_cast<int32_t>(m)};
  }
  return out;
}

}  // namespace

std::vector<std::string> worker_suffixes(const std::vector<ChainCall>& calls, const AgentChains& chains,
                                         WorkerCounters* counters) {
  const std::vector<Span> spans = chain_spans(calls, chains);
  std::vector<std::string> out(spans.size());
  if (spans.size() < 2) return out;
  int64_t main_peak_in = 0;
  for (size_t i : spans[0].calls) main_peak_in = std::max(main_peak_in, calls[i].in_tokens);
  const int32_t main_model = spans[0].calls.empty() ? 0 : calls[spans[0].calls.front()].model;
  std::vector<bool> agent(spans.size(), false);
  for (size_t c = 1; c < spans.size(); ++c) {
    const int32_t n = counters->workers++;
    const ChainCall& one = calls[spans[c].calls.front()];
    if (spans[c].calls.size() == 1 && is_aux(one, main_model, main_peak_in)) {
      out[c] = fmt::format("aux:{:03d}", n);
    } else if (spans[c].calls.size() == 1 && is_reduction(one)) {
      out[c] = fmt::format("aux:red:{:03d}", n);
    } else {
      out[c] = fmt::format("fa:{:03d}", n);
      agent[c] = true;
    }
  }
  const auto groups = fan_out_groups(calls, spans, agent, chains, counters);
  for (size_t c = 1; c < spans.size(); ++c)
    if (groups[c].first >= 0) out[c] = fmt::format("wg:{:03d}_{:03d}", groups[c].first, groups[c].second);
  return out;
}

}  // namespace servebench::dataset
