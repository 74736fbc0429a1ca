#include "dataset/file_workload.h"

#include <algorithm>
#include <unordered_map>

#include <fmt/format.h>

#include "core/interrupt.h"
#include "dataset/lcp_messages.h"
#include "dataset/parallel_counts.h"

namespace servebench::dataset {
namespace {

std::string join_texts(const std::vector<std::string>& texts) {
  std::string out;
  for (size_t i = 0; i < texts.size(); ++i) {
    if (i) out.push_back(' ');
    out += texts[i];
  }
  return out;
}

// Block texts per hash id, built once each (same id ⇒ same text within the run).
class BlockCache {
 public:
  BlockCache(const ExactPromptBuilder& b, uint64_t seed) : builder_(b), seed_(seed) {}
  // `opening`: the block starts the row's text, so its first word is counted in bare form.
  // (In prefix-chained traces an id always sits at the same position, so it stays identical.)
  const std::string& block(int64_t hash_id, int64_t tokens, bool opening) {
    auto key = std::make_pair(hash_id, tokens * 2 + (opening ? 1 : 0));
    auto it = cache_.find(key);
    if (it != cache_.end()) return it->second;
    core::Rng rng = core::Rng::stream(seed_, fmt::format("hash_id:{}", hash_id));
    return cache_.emplace(key, builder_.build(tokens, rng, /*continuation=*/!opening).text).first->second;
  }

 private:
  struct PairHash {
    size_t operator()(const std::pair<int64_t, int64_t>& p) const {
      return std::hash<int64_t>()(p.first * 1000003 + p.second);
    }
  };
  const ExactPromptBuilder& builder_;
  uint64_t seed_;
  std::unordered_map<std::pair<int64_t, int64_t>, std::string, PairHash> cache_;
};

Result<std::string> synthesize(const FileTurn& t, int64_t block_size, BlockCache& blocks, const ExactPromptBuilder& builder,
                               core::Rng& fresh_rng, const std::string& where) {
  const int64_t n = static_cast<int64_t>(t.hash_ids.size());
  if (n == 0) {
    return builder.build(t.input_length, fresh_rng, false).text;
  }
  const int64_t final_block = t.input_length - (n - 1) * block_size;
  if (final_block <= 0)
    return make_error(ErrorCode::kParse,
                      fmt::format("{}: field 'hash_ids': {} blocks of {} tokens exceed input_length {} "
                                  "(fix the trace or set --isl-block-size)", where, n, block_size, t.input_length));
  std::string text;
  int64_t tail = 0;
  for (int64_t i = 0; i < n; ++i) {
    int64_t size = i + 1 < n ? block_size : std::min(final_block, block_size);
    if (i + 1 == n && final_block > block_size) tail = final_block - block_size;
    if (i) text.push_back(' ');
    text += blocks.block(t.hash_ids[static_cast<size_t>(i)], size, i == 0);
  }
  if (tail > 0) {
    text.push_back(' ');
    text += builder.build(tail, fresh_rng, true).text;
  }
  return text;
}

// One planned message's text: its blocks (the first in opening form), then the filler tail.
std::string message_text(const PlannedMessage& m, int64_t block_size, BlockCache& blocks,
                         const ExactPromptBuilder& builder, core::Rng& fresh_rng) {
  std::string text;
  for (size_t i = 0; i < m.hash_ids.size(); ++i) {
    if (i) text.push_back(' ');
    text += blocks.block(m.hash_ids[i], block_size, i == 0);
  }
  if (m.tail_tokens > 0) {
    if (!text.empty()) text.push_back(' ');
    text += builder.build(m.tail_tokens, fresh_rng, !m.hash_ids.empty()).text;
  }
  return text;
}

// weka_trace turns as message lists (lcp_messages.h): lead messages, then the last one.
Status lcp_turn_texts(const FileConversation& conv, int64_t block_size, BlockCache& blocks,
                      const ExactPromptBuilder& builder, core::Rng& fresh_rng, std::vector<WorkloadTurn>* turns) {
  std::vector<LcpCall> calls;
  calls.reserve(conv.turns.size());
  for (const FileTurn& t : conv.turns) calls.push_back({&t.hash_ids, t.input_length, t.recorded_output_length});
  SB_TRY_ASSIGN(const auto plans,
                plan_lcp_messages(calls, block_size, conv.prefix_tokens, fmt::format("session '{}'", conv.session_id)));
  for (size_t k = 0; k < std::min(plans.size(), turns->size()); ++k) {  // one turn per call
    WorkloadTurn& w = (*turns)[k];
    w.lead_messages.clear();
    for (size_t m = 0; m < plans[k].size(); ++m) {
      std::string text = message_text(plans[k][m], block_size, blocks, builder, fresh_rng);
      if (m + 1 < plans[k].size()) {
        w.lead_messages.emplace_back(plans[k][m].role, std::move(text));
      } else {
        w.role = plans[k][m].role;
        w.text = std::move(text);
      }
    }
  }
  return core::ok_status();
}

// vLLM's is_valid_sequence, as AIPerf applies it.
// Per conversation and turn: the token count of the turn's text (-1: not a text turn) and, for
// ShareGPT, of its recorded reply; counted on several threads (the tokenizer is thread-safe).
using TextCounts = std::vector<std::vector<std::pair<int64_t, int64_t>>>;

TextCounts count_texts(const DatasetFile& file, const tokenizer::Tokenizer& tok) {
  TextCounts counts(file.conversations.size());
  const bool replies = file.format == FileFormat::kShareGpt;
  parallel_for(counts.size(), count_threads(counts.size()), [&](size_t ci) {
    const auto& turns = file.conversations[ci].turns;
    auto& c = counts[ci];
    c.assign(turns.size(), {-1, -1});
    for (size_t ti = 0; ti < turns.size(); ++ti) {
      const FileTurn& t = turns[ti];
      if (t.input_length <= 0 && !t.texts.empty())
        c[ti].first = t.text_tokens >= 0 ? t.text_tokens : static_cast<int64_t>(tok.count(join_texts(t.texts)));
      if (replies)
        c[ti].second = t.expected_output_tokens >= 0 ? t.expected_output_tokens
                                                     : static_cast<int64_t>(tok.count(t.expected_output));
    }
  });
  return counts;
}

}  // namespace

bool sharegpt_keeps(int64_t prompt_tokens, int64_t output_tokens, const FileWorkloadOptions& o) {
  return prompt_tokens >= o.sharegpt_min_prompt_tokens && prompt_tokens <= o.sharegpt_max_prompt_tokens &&
         (o.osl_given || output_tokens >= o.sharegpt_min_output_tokens) &&
         prompt_tokens + output_tokens <= o.sharegpt_max_total_tokens;
}

namespace {

// `consumed`: the same file, writable: each conversation's texts are moved out and its turns
// released once it is built, so the file's and the workload's texts are never both held.
Result<FileWorkload> build(const DatasetFile& file, DatasetFile* consumed, const tokenizer::Tokenizer& tok,
                           const ExactPromptBuilder& builder, const FileWorkloadOptions& o) {
  FileWorkload out;
  out.has_timestamps = file.has_timestamps;
  // Formats whose later turns are deltas that need the live replies threaded in. Raw payloads and
  // inputs.json carry complete bodies; a ShareGPT file is sent as its first exchange (a public
  // ShareGPT as whole conversations).
  out.multi_turn_history = file.format == FileFormat::kMultiTurn || file.format == FileFormat::kMooncakeTrace ||
                           file.format == FileFormat::kBailianTrace || file.format == FileFormat::kDagJsonl ||
                           file.format == FileFormat::kWekaTrace ||
                           (file.format == FileFormat::kShareGpt && o.sharegpt_whole_conversations);
  const int64_t block_size = o.block_size > 0 ? o.block_size : (file.default_block_size > 0 ? file.default_block_size : 512);
  BlockCache blocks(builder, o.seed);
  core::Rng fresh_rng = core::Rng::stream(o.seed, "file.fresh");
  const TextCounts counts = count_texts(file, tok);
  for (size_t ci = 0; ci < file.conversations.size(); ++ci) {
    const FileConversation& conv = file.conversations[ci];
    if (core::interrupt_requested())
      return make_error(ErrorCode::kInterrupted, "interrupted while building the file's prompts");
    WorkloadConversation wc;
    wc.session_id = conv.session_id;
    wc.branches = conv.branches;
    wc.carry_history = conv.carry_history;
    bool rejected = false;  // whole-conversation ShareGPT: one exchange failed the filter
    for (size_t ti = 0; ti < conv.turns.size(); ++ti) {
      const FileTurn& t = conv.turns[ti];
      const std::string where = t.line > 0 ? fmt::format("line {}", t.line) : fmt::format("session '{}'", conv.session_id);
      // A leading text-only system turn becomes the session's system message (multi_turn).
      if (ti == 0 && t.role == "system" && file.format == FileFormat::kMultiTurn && conv.turns.size() > 1) {
        wc.system_prompt = join_texts(t.texts);
        continue;
      }
      WorkloadTurn w;
      if (!t.role.empty()) w.role = t.role;
      w.messages_json = t.messages_json;
      w.tools_json = t.tools_json;
      w.payload_json = t.payload_json;
      w.extra_json = t.extra_json;
      w.media = t.media;
      w.max_output_tokens = t.output_length;
      w.timestamp_ms = t.timestamp_ms;
      w.delay_ms = t.delay_ms;
      w.lead_messages = t.lead_messages;
      w.model_rank = t.model_rank;
      w.recorded_t_ms = t.timestamp_ms >= 0 ? t.timestamp_ms : t.recorded_t_ms;  // the replay clock
      w.prefix_hit_blocks = t.prefix_hit_blocks;
      w.prefix_total_blocks = t.prefix_total_blocks;
      if (t.input_length > 0 && conv.lcp_messages) {
        w.input_tokens = t.input_length;  // the text comes from lcp_turn_texts below
      } else if (t.input_length > 0) {
        SB_TRY_ASSIGN(w.text, synthesize(t, block_size, blocks, builder, fresh_rng, where));
        w.input_tokens = t.input_length;
      } else if (!t.texts.empty()) {
        w.text = consumed && t.texts.size() == 1
                     ? std::move(consumed->conversations[ci].turns[ti].texts[0])
                     : join_texts(t.texts);
        w.input_tokens = counts[ci][ti].first;
      }
      if (file.format == FileFormat::kShareGpt) {
        const int64_t out_tokens = counts[ci][ti].second;
        if (!sharegpt_keeps(w.input_tokens, out_tokens, o)) {
          ++out.filtered_out;
          if (!o.sharegpt_whole_conversations) continue;
          rejected = true;
          break;
        }
        w.max_output_tokens = std::max<int64_t>(1, out_tokens);
      }
      wc.turns.push_back(std::move(w));
    }
    auto release = [&] {
      if (consumed) std::vector<FileTurn>().swap(consumed->conversations[ci].turns);
    };
    if (rejected) {
      release();
      continue;
    }
    if (conv.lcp_messages) SB_TRY(lcp_turn_texts(conv, block_size, blocks, builder, fresh_rng, &wc.turns));
    release();
    if (!wc.turns.empty() || !wc.branches.empty()) out.conversations.push_back(std::move(wc));
  }
  if (out.conversations.empty())
    return make_error(ErrorCode::kInvalidArgument,
                      "the input file has no usable requests (all were filtered out or empty)");
  return out;
}

}  // namespace

Result<FileWorkload> build_file_workload(const DatasetFile& file, const tokenizer::Tokenizer& tok,
                                         const ExactPromptBuilder& builder, const FileWorkloadOptions& o) {
  return build(file, nullptr, tok, builder, o);
}

Result<FileWorkload> build_file_workload(DatasetFile&& file, const tokenizer::Tokenizer& tok,
                                         const ExactPromptBuilder& builder, const FileWorkloadOptions& o) {
  return build(file, &file, tok, builder, o);
}

}  // namespace servebench::dataset
