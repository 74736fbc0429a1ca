#include "dataset/loaders/trace_timing.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace servebench::dataset {

void strip_trace_delays(DatasetFile* file) {
  for (auto& c : file->conversations) {
    for (auto& t : c.turns) {
      t.timestamp_ms = -1;
      t.delay_ms = -1;
      t.think_time_ms = -1;
      t.api_time_ms = -1;
    }
    for (auto& b : c.branches) b.child_delay_ms.clear();
  }
  file->has_timestamps = false;
}

IdleGapWarp::IdleGapWarp(std::vector<double> starts_ms, double cap_ms) : starts_(std::move(starts_ms)), cap_ms_(cap_ms) {
  std::sort(starts_.begin(), starts_.end());
  starts_.erase(std::unique(starts_.begin(), starts_.end()), starts_.end());
  warped_.reserve(starts_.size());
  for (size_t i = 0; i < starts_.size(); ++i)
    warped_.push_back(i == 0 ? starts_[0] : warped_[i - 1] + std::min(cap_ms_, starts_[i] - starts_[i - 1]));
}

double IdleGapWarp::operator()(double t_ms) const {
  if (cap_ms_ < 0 || starts_.empty()) return t_ms;
  auto it = std::upper_bound(starts_.begin(), starts_.end(), t_ms);
  if (it == starts_.begin()) return starts_[0] - std::min(cap_ms_, starts_[0] - t_ms);
  const size_t j = static_cast<size_t>(it - starts_.begin()) - 1;
  return warped_[j] + std::min(cap_ms_, t_ms - starts_[j]);
}

namespace {

// A root and every conversation below it, by index (each once).
void family_of(const DatasetFile& f, size_t at, const std::unordered_map<std::string, size_t>& index,
               std::unordered_set<size_t>* seen, std::vector<size_t>* out) {
  if (!seen->insert(at).second) return;
  out->push_back(at);
  for (const auto& b : f.conversations[at].branches)
    for (const auto& id : b.children)
      if (auto it = index.find(id); it != index.end()) family_of(f, it->second, index, seen, out);
}

void retime_family(DatasetFile* file, const std::vector<size_t>& family,
                   const std::unordered_map<std::string, size_t>& index, const RetimeOptions& o) {
  std::vector<double> starts;
  for (size_t k : family)
    for (const auto& t : file->conversations[k].turns)
      if (t.recorded_t_ms >= 0) starts.push_back(t.recorded_t_ms);
  const IdleGapWarp warp(std::move(starts), o.idle_gap_cap_s >= 0 ? o.idle_gap_cap_s * 1000.0 : -1);
  const bool capped = o.idle_gap_cap_s >= 0;
  for (size_t k : family) {
    FileConversation& c = file->conversations[k];
    // Child start offsets: the recorded spawn (first call minus its offset) to the first call.
    for (auto& b : c.branches) {
      if (!capped) break;
      for (size_t i = 0; i < b.children.size() && i < b.child_delay_ms.size(); ++i) {
        auto it = index.find(b.children[i]);
        if (it == index.end() || file->conversations[it->second].turns.empty()) continue;
        const double first = file->conversations[it->second].turns.front().recorded_t_ms;
        if (first < 0) continue;
        b.child_delay_ms[i] = std::max(0.0, warp(first) - warp(first - b.child_delay_ms[i]));
      }
    }
    for (size_t i = 0; i < c.turns.size(); ++i) {
      FileTurn& t = c.turns[i];
      if (t.recorded_t_ms < 0) continue;
      if (capped && t.timestamp_ms >= 0) t.timestamp_ms = warp(t.recorded_t_ms);
      if (i == 0 || c.turns[i - 1].recorded_t_ms < 0) continue;
      const FileTurn& prev = c.turns[i - 1];
      double gap = warp(t.recorded_t_ms) - warp(prev.recorded_t_ms);
      if (o.end_to_start && prev.api_time_ms >= 0) gap -= prev.api_time_ms;
      if (capped || o.end_to_start) t.delay_ms = std::max(0.0, gap);
    }
  }
}

}  // namespace

void retime_agent_traces(DatasetFile* file, const RetimeOptions& o) {
  if (file->format != FileFormat::kWekaTrace || (o.idle_gap_cap_s < 0 && !o.end_to_start)) return;
  std::unordered_map<std::string, size_t> index;
  std::unordered_set<std::string> children;
  for (size_t i = 0; i < file->conversations.size(); ++i) {
    index.emplace(file->conversations[i].session_id, i);
    for (const auto& b : file->conversations[i].branches) children.insert(b.children.begin(), b.children.end());
  }
  for (size_t i = 0; i < file->conversations.size(); ++i) {
    if (children.count(file->conversations[i].session_id)) continue;
    std::unordered_set<size_t> seen;
    std::vector<size_t> family;
    family_of(*file, i, index, &seen, &family);
    retime_family(file, family, index, o);
  }
}

}  // namespace servebench::dataset
