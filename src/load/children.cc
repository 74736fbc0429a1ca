#include "load/children.h"

#include <fmt/format.h>

#include <unordered_map>

namespace servebench::load {
namespace {

Error bad(std::string message) { return Error{ErrorCode::kInvalidArgument, std::move(message)}; }

// Depth-first walk over child edges; a grey node met again is a cycle.
bool has_cycle(const std::vector<SessionTemplate>& convs, uint32_t at, std::vector<uint8_t>* state) {
  auto& st = *state;
  if (st[at] == 1) return true;
  if (st[at] == 2) return false;
  st[at] = 1;
  for (const auto& b : convs[at].branches)
    for (uint32_t c : b.children)
      if (has_cycle(convs, c, state)) return true;
  st[at] = 2;
  return false;
}

}  // namespace

Status link_children(SessionWorkload* w, const std::string& input_name) {
  auto& convs = w->conversations;
  std::unordered_map<std::string, uint32_t> index;
  for (uint32_t i = 0; i < convs.size(); ++i) index.emplace(convs[i].conversation_id, i);
  bool any = false;
  for (auto& conv : convs) {
    const auto turns = static_cast<int32_t>(conv.turns.size());
    for (auto& b : conv.branches) {
      any = true;
      if (b.join_turn >= 0 && (b.join_turn <= b.after_turn || b.join_turn >= turns))
        return tl::unexpected(bad(fmt::format(
            "--input-file '{}': session '{}' joins its children at turn {}, outside turns {}..{} "
            "(fix join_at)",
            input_name, conv.conversation_id, b.join_turn, b.after_turn + 1, turns - 1)));
      b.children.clear();
      for (const auto& id : b.child_ids) {
        auto it = index.find(id);
        if (it == index.end())
          return tl::unexpected(bad(fmt::format(
              "--input-file '{}': session '{}' starts child '{}', which is not in the file (add it)",
              input_name, conv.conversation_id, id)));
        b.children.push_back(it->second);
      }
    }
  }
  w->has_children = any;
  if (!any) return core::ok_status();
  for (auto& conv : convs)
    for (auto& b : conv.branches)
      for (uint32_t c : b.children) convs[c].is_child = true;
  std::vector<uint8_t> state(convs.size(), 0);
  for (uint32_t i = 0; i < convs.size(); ++i)
    if (has_cycle(convs, i, &state))
      return tl::unexpected(bad(fmt::format(
          "--input-file '{}': session '{}' is its own ancestor through forks/spawns (remove the cycle)",
          input_name, convs[i].conversation_id)));
  std::erase_if(w->order, [&](uint32_t k) { return convs[k].is_child; });
  if (w->order.empty())
    return tl::unexpected(bad(fmt::format(
        "--input-file '{}': every conversation is some other's child; no root session to start",
        input_name)));
  return core::ok_status();
}

}  // namespace servebench::load
