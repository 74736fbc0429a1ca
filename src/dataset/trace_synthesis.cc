#include "dataset/trace_synthesis.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/rng.h"

namespace servebench::dataset {
namespace {

// Multipliers are typed decimals (1.1 × 10 is 11.000000000000002): round within this first.
constexpr double kSlack = 1e-9;

struct PairHash {
  size_t operator()(const std::pair<int64_t, int64_t>& p) const {
    return std::hash<int64_t>()(p.first * 1000003 ^ p.second);
  }
};

// The radix tree of the rows' hash-id paths. Node 0 is the root; each node counts the rows
// whose path runs through it, so a node with two or more rows is a shared prefix block.
class PrefixTree {
 public:
  PrefixTree() : rows_(1, 0) {}
  std::vector<int64_t> add(const std::vector<int64_t>& ids) {
    std::vector<int64_t> path;
    path.reserve(ids.size());
    int64_t at = 0;
    for (int64_t id : ids) {
      auto [it, fresh] = edges_.try_emplace({at, id}, static_cast<int64_t>(rows_.size()));
      if (fresh) rows_.push_back(0);
      at = it->second;
      ++rows_[static_cast<size_t>(at)];
      path.push_back(at);
    }
    return path;
  }
  // Leading nodes of `path` that more than one row passes through.
  int64_t shared_depth(const std::vector<int64_t>& path) const {
    int64_t p = 0;
    for (int64_t node : path) {
      if (rows_[static_cast<size_t>(node)] < 2) break;
      ++p;
    }
    return p;
  }

 private:
  std::vector<int64_t> rows_;
  std::unordered_map<std::pair<int64_t, int64_t>, int64_t, PairHash> edges_;
};

// New hash ids: one per (tree node, new block index) for shared prefixes, fresh ones otherwise.
class IdTable {
 public:
  int64_t shared(int64_t node, int64_t j) {
    auto [it, fresh] = shared_.try_emplace({node, j}, next_);
    if (fresh) ++next_;
    return it->second;
  }
  int64_t fresh() { return next_++; }
  int64_t count() const { return next_; }

 private:
  int64_t next_ = 0;
  std::unordered_map<std::pair<int64_t, int64_t>, int64_t, PairHash> shared_;
};

int64_t scaled(int64_t v, double m) { return std::llround(static_cast<double>(v) * m); }

bool length_only(const FileTurn& t) {
  return t.input_length > 0 && t.texts.empty() && t.messages_json.empty() && t.payload_json.empty();
}

int64_t new_prefix_blocks(int64_t p, double m) {
  if (p == 0 || m == 1.0) return p;
  if (m > 1) return static_cast<int64_t>(std::ceil(static_cast<double>(p) * m - kSlack));
  const double blocks = std::floor(static_cast<double>(p) * m + kSlack);
  return std::max<int64_t>(1, static_cast<int64_t>(blocks));
}

// One row reshaped: its new hash ids and input length (header comment for the rules).
void reshape(const TraceSynthesisOptions& o, int64_t block, const std::vector<int64_t>& path,
             const PrefixTree& tree, IdTable* ids, FileTurn* t) {
  const int64_t length = t->input_length;
  const int64_t p = tree.shared_depth(path);
  const int64_t prefix_tokens = std::min(p * block, length);
  const int64_t unique = length - prefix_tokens;
  const int64_t p_new = new_prefix_blocks(p, o.prefix_len_multiplier);
  std::vector<int64_t> out;
  out.reserve(static_cast<size_t>(p_new));
  for (int64_t j = 1; j <= p_new; ++j) {
    const double m = o.prefix_len_multiplier;
    const double at =
        m > 0 ? std::ceil(static_cast<double>(j) / m - kSlack) : static_cast<double>(p);
    const int64_t depth = std::clamp<int64_t>(static_cast<int64_t>(std::min(at, 1e15)), 1, p);
    out.push_back(ids->shared(path[static_cast<size_t>(depth - 1)], j));
  }
  // A partial last shared block (the row ends inside it) stays as long as it was.
  const int64_t new_prefix_tokens =
      length >= p * block ? p_new * block : (p_new - 1) * block + (length - (p - 1) * block);
  int64_t new_unique = scaled(unique, o.prompt_len_multiplier);
  if (new_prefix_tokens + new_unique < 1) new_unique = 1;
  for (int64_t k = 0; k < (new_unique + block - 1) / block; ++k) out.push_back(ids->fresh());
  t->hash_ids = std::move(out);
  t->input_length = new_prefix_tokens + new_unique;
}

void offset_roots(const TraceSynthesisOptions& o, int64_t span,
                  std::vector<FileConversation>* convs) {
  if (o.prefix_root_multiplier <= 1) return;
  core::Rng rng = core::Rng::stream(o.seed, "synthesis.prefix_root");
  for (auto& conv : *convs) {
    if (!conv.branches.empty()) continue;
    const auto roots = static_cast<uint64_t>(o.prefix_root_multiplier);
    const auto tree = static_cast<int64_t>(rng.next_below(roots));
    for (auto& t : conv.turns)
      for (auto& id : t.hash_ids) id += tree * span;
  }
}

void reshape_all(const TraceSynthesisOptions& o, int64_t block,
                 std::vector<FileConversation>* convs) {
  PrefixTree tree;
  std::vector<std::vector<int64_t>> paths;
  for (const auto& conv : *convs)
    for (const auto& t : conv.turns)
      if (conv.branches.empty() && length_only(t)) paths.push_back(tree.add(t.hash_ids));
  IdTable ids;
  size_t k = 0;
  for (auto& conv : *convs)
    for (auto& t : conv.turns)
      if (conv.branches.empty() && length_only(t)) {
        if (t.hash_ids.empty()) {
          t.input_length = std::max<int64_t>(1, scaled(t.input_length, o.prompt_len_multiplier));
          ++k;
        } else {
          reshape(o, block, paths[k++], tree, &ids, &t);
        }
      }
  offset_roots(o, std::max<int64_t>(1, ids.count()), convs);
}

void cap_isl(const TraceSynthesisOptions& o, int64_t block, FileTurn* t, TraceSynthesisReport* r) {
  if (!o.max_isl || !length_only(*t) || t->input_length <= *o.max_isl) return;
  t->input_length = *o.max_isl;
  const auto keep = static_cast<size_t>((*o.max_isl + block - 1) / block);
  if (t->hash_ids.size() > keep) t->hash_ids.resize(keep);
  ++r->capped_max_isl;
}

void scale_turn(const TraceSynthesisOptions& o, FileTurn* t, TraceSynthesisReport* r) {
  if (t->timestamp_ms >= 0) t->timestamp_ms /= o.speedup_ratio;
  if (t->output_length > 0 && o.output_len_multiplier != 1.0)
    t->output_length = std::max<int64_t>(1, scaled(t->output_length, o.output_len_multiplier));
  if (o.max_osl && t->output_length > *o.max_osl) {
    t->output_length = *o.max_osl;
    ++r->capped_max_osl;
  }
}

}  // namespace

Result<TraceSynthesisReport> synthesize_trace(const TraceSynthesisOptions& o, DatasetFile* file) {
  TraceSynthesisReport r;
  const int64_t block = o.block_size > 0                 ? o.block_size
                        : file->default_block_size > 0 ? file->default_block_size
                                                       : 512;
  auto& convs = file->conversations;
  if (o.max_isl) {
    for (auto& conv : convs) {
      if (!conv.branches.empty()) continue;
      auto& turns = conv.turns;
      const auto before = turns.size();
      auto too_long = [&](const FileTurn& t) { return t.input_length > *o.max_isl; };
      turns.erase(std::remove_if(turns.begin(), turns.end(), too_long), turns.end());
      r.dropped_max_isl += static_cast<int64_t>(before - turns.size());
    }
    auto empty = [](const FileConversation& c) { return c.turns.empty() && c.branches.empty(); };
    convs.erase(std::remove_if(convs.begin(), convs.end(), empty), convs.end());
    if (convs.empty())
      return make_error(ErrorCode::kInvalidArgument,
                        fmt::format("--synthesis-max-isl {} drops every row of the trace; raise it",
                                    *o.max_isl));
  }
  if (o.reshapes()) reshape_all(o, block, &convs);
  for (auto& conv : convs)
    for (auto& t : conv.turns) {
      if (conv.branches.empty()) cap_isl(o, block, &t, &r);
      scale_turn(o, &t, &r);
    }
  return r;
}

}  // namespace servebench::dataset
