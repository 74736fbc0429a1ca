// ShareGPT files read element by element: the file's array is split into its conversations
// (simdjson On-Demand, no DOM of the whole file), each conversation is parsed on its own, and only
// what the workload needs is kept: every exchange's prompt text and token count, and the reply's
// token count (the reply text is dropped once counted). 73,499 conversations of ShareGPT hold
// about as many reply bytes as prompt bytes, so this halves the texts kept, and the counting runs
// on several threads while the file is parsed.
//
// Exchanges, ids and skipped items are exactly parse_dataset_text's for FileFormat::kShareGpt
// (both read an element with read_sharegpt_item); the result differs only in that each turn
// carries text_tokens and expected_output_tokens and an empty expected_output, and that the
// prompts of conversations exchange_may_pass dooms are empty.
//
// Thread safety: `count` and `for_each` are called from several threads at once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "core/result.h"
#include "dataset/loaders/dataset_file.h"

namespace servebench::dataset {

struct ShareGptCountedOptions {
  std::function<int64_t(std::string_view)> count;  // tokens of a text
  // Runs fn(i) for i in [0, n), on as many threads as it likes (dataset/parallel_counts.h).
  std::function<void(size_t, const std::function<void(size_t)>&)> for_each;
  // When set: an exchange (prompt tokens, reply tokens) for which it is false dooms its
  // conversation: its prompt texts are dropped as soon as it is parsed, and the exchanges after
  // the dooming one are not counted (their counts are 0); the turns stay, so the workload builder
  // still rejects the conversation at that exchange or earlier and counts it as filtered. Only
  // for whole-conversation filtering (FileWorkloadOptions::sharegpt_whole_conversations).
  // REQUIRES: false for (p, 0) implies false for (p, r) for every r (then a failing prompt's
  // reply is not counted either).
  std::function<bool(int64_t, int64_t)> exchange_may_pass;
};

// `text` is the whole file; it is padded in place for the parser. `name` names it in errors.
Result<DatasetFile> parse_sharegpt_counted(std::string text, const ShareGptCountedOptions& options,
                                           const std::string& name);

}  // namespace servebench::dataset
