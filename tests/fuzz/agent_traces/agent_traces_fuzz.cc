// Fuzz target for the agent-trace parsers. The first byte picks the format; the rest is the
// file. Any input must give either conversations whose turns and branches are consistent, or an
// error with a non-empty one-line message.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "dataset/loaders/dataset_file.h"

namespace sd = servebench::dataset;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  constexpr sd::FileFormat kFormats[] = {sd::FileFormat::kWekaTrace, sd::FileFormat::kDagJsonl,
                                         sd::FileFormat::kSageMakerCapture};
  const auto format = kFormats[data[0] % 3];
  std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  auto r = sd::parse_dataset_text(text, format, "fuzz.json");
  if (!r) {
    const auto& msg = r.error().message;
    if (msg.empty() || msg.find('\n') != std::string::npos) std::abort();
    return 0;
  }
  if (r->conversations.empty()) std::abort();
  for (const auto& c : r->conversations) {
    if (c.turns.empty() || c.session_id.empty()) std::abort();
    const auto turns = static_cast<int32_t>(c.turns.size());
    for (const auto& b : c.branches) {
      if (b.children.empty() || b.after_turn < -1 || b.after_turn >= turns) std::abort();
      if (b.join_turn >= 0 && (b.join_turn <= b.after_turn || b.join_turn >= turns)) std::abort();
      if (!b.child_delay_ms.empty() && b.child_delay_ms.size() != b.children.size()) std::abort();
    }
    for (const auto& t : c.turns) {
      if (t.output_length == 0 || t.input_length < -1) std::abort();
      if (t.prefix_hit_blocks > t.prefix_total_blocks) std::abort();
    }
  }
  return 0;
}
