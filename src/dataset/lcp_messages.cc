#include "dataset/lcp_messages.h"

#include <fmt/format.h>

#include <algorithm>

namespace servebench::dataset {
namespace {

int64_t blocks_of(const std::vector<PlannedMessage>& plan) {
  int64_t n = 0;
  for (const auto& m : plan) n += static_cast<int64_t>(m.hash_ids.size());
  return n;
}

size_t common_prefix(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  const size_t n = std::min(a.size(), b.size());
  size_t i = 0;
  while (i < n && a[i] == b[i]) ++i;
  return i;
}

// Cuts `plan` so it holds exactly `keep` blocks (header comment: the cut rules).
void cut_at_block(std::vector<PlannedMessage>* plan, int64_t keep) {
  int64_t cursor = 0;
  for (size_t i = 0; i < plan->size(); ++i) {
    PlannedMessage& m = (*plan)[i];
    const auto n = static_cast<int64_t>(m.hash_ids.size());
    if (cursor + n < keep) {
      cursor += n;
      continue;
    }
    if (cursor == keep) {  // this message starts at the cut: it and the rest go
      plan->resize(i);
      return;
    }
    m.hash_ids.resize(static_cast<size_t>(keep - cursor));  // ends at or crosses the cut
    m.tail_tokens = 0;
    plan->resize(i + 1);
    return;
  }
}

}  // namespace

Result<std::vector<std::vector<PlannedMessage>>> plan_lcp_messages(const std::vector<LcpCall>& calls,
                                                                    int64_t block_size, int64_t prefix_tokens,
                                                                    const std::string& where) {
  std::vector<std::vector<PlannedMessage>> plans;
  plans.reserve(calls.size());
  std::vector<int64_t> prev_ids;
  std::vector<PlannedMessage> plan;
  for (size_t k = 0; k < calls.size(); ++k) {
    const LcpCall& c = calls[k];
    const int64_t in = std::max<int64_t>(0, c.input_tokens);
    const auto covered = static_cast<size_t>(std::min<int64_t>(static_cast<int64_t>(c.hash_ids->size()), in / block_size));
    std::vector<int64_t> ids(c.hash_ids->begin(), c.hash_ids->begin() + static_cast<std::ptrdiff_t>(covered));
    const int64_t tail = in - static_cast<int64_t>(covered) * block_size;
    size_t start = 0;
    if (k == 0) {
      plan.clear();
      const int64_t system_blocks = prefix_tokens > 0 ? (prefix_tokens + block_size - 1) / block_size : 0;
      if (system_blocks > static_cast<int64_t>(covered))
        return make_error(ErrorCode::kParse,
                          fmt::format("{}: field 'hash_ids': the tool/system prefix needs {} blocks of {} tokens but "
                                      "the first request covers {} (fix tool_tokens/system_tokens or the hash ids)",
                                      where, system_blocks, block_size, covered));
      if (system_blocks > 0)
        plan.push_back({"system", std::vector<int64_t>(ids.begin(), ids.begin() + system_blocks), 0});
      start = static_cast<size_t>(system_blocks);
    } else {
      start = common_prefix(prev_ids, ids);
      cut_at_block(&plan, static_cast<int64_t>(start));
      start = static_cast<size_t>(blocks_of(plan));
      const int64_t out = calls[k - 1].recorded_output_tokens;
      const int64_t reply = out > 0 ? (out + block_size - 1) / block_size : 0;
      const size_t n = std::min(static_cast<size_t>(reply), ids.size() - start);
      if (n > 0) {
        plan.push_back({"assistant", std::vector<int64_t>(ids.begin() + static_cast<std::ptrdiff_t>(start),
                                                          ids.begin() + static_cast<std::ptrdiff_t>(start + n)),
                        0});
        start += n;
      }
    }
    if (start < ids.size() || tail > 0 || (k == 0 && plan.empty()))
      plan.push_back({"user", std::vector<int64_t>(ids.begin() + static_cast<std::ptrdiff_t>(start), ids.end()), tail});
    plans.push_back(plan);
    prev_ids = std::move(ids);
  }
  return plans;
}

}  // namespace servebench::dataset
