#include "app/synthesize.h"

#include <nlohmann/json.hpp>
#include <optional>

#include "app/workload_setup.h"
#include "dataset/conversations.h"
#include "dataset/exact_prompts.h"
#include "dataset/sequence_distribution.h"
#include "dataset/synthetic_prompts.h"
#include "tokenizer/tokenizer.h"

namespace servebench::app {
namespace {

Status usage(const std::string& message) {
  return make_error(ErrorCode::kInvalidArgument, message);
}

// What a multi_turn text file cannot carry.
Status check_flags(const config::BenchmarkConfig& cfg) {
  const char* fix = "; synthesize writes text prompts only";
  if (!cfg.input_file.empty())
    return usage("--input-file: synthesize writes synthetic prompts; drop --input-file");
  if (cfg.shared_system_prompt_length > 0)
    return usage(std::string("--shared-system-prompt-length is not written to the file") + fix);
  if (cfg.user_context_prompt_length > 0)
    return usage(std::string("--user-context-prompt-length is not written to the file") + fix);
  if (cfg.media_enabled())
    return usage(std::string("images, audio and video are not written to the file") + fix);
  if (cfg.apply_chat_template)
    return usage("--apply-chat-template shortens prompts for one model's template; drop it here "
                 "and give it to the profile run that replays the file");
  return core::ok_status();
}

Result<std::shared_ptr<const tokenizer::Tokenizer>> load(const config::BenchmarkConfig& cfg) {
  tokenizer::LoadOptions opts;
  opts.revision = cfg.tokenizer_revision;
  if (cfg.tokenizer.empty()) {
    std::string warning;
    return tokenizer::resolve_default_tokenizer(cfg.model(), opts, &warning);
  }
  auto t = tokenizer::load_tokenizer(cfg.tokenizer, opts);
  if (!t) return make_error(ErrorCode::kInvalidArgument, t.error().message);
  return *t;
}

nlohmann::json conversation_json(const dataset::SyntheticConversation& c) {
  nlohmann::json turns = nlohmann::json::array();
  for (const auto& t : c.turns) {
    nlohmann::json j = {{"text", t.text}};
    if (t.delay_ms >= 0) j["delay"] = t.delay_ms;
    if (t.max_output_tokens > 0) j["output_length"] = t.max_output_tokens;
    turns.push_back(std::move(j));
  }
  return {{"session_id", c.session_id}, {"turns", std::move(turns)}};
}

}  // namespace

Result<SynthesizedFile> synthesize_workload(const config::BenchmarkConfig& cfg, uint64_t seed) {
  if (auto st = check_flags(cfg); !st) return tl::unexpected(st.error());
  auto tok = load(cfg);
  if (!tok) return tl::unexpected(tok.error());
  auto corpus = dataset::load_corpus(dataset::default_corpus_path());
  if (!corpus) return tl::unexpected(corpus.error());
  auto builder = dataset::ExactPromptBuilder::create(*corpus, **tok);
  if (!builder) return tl::unexpected(builder.error());
  std::optional<dataset::SequenceDistribution> seq;
  if (!cfg.sequence_distribution.empty()) {
    auto s = dataset::SequenceDistribution::parse(cfg.sequence_distribution);
    if (!s) return tl::unexpected(s.error());
    seq = std::move(*s);
  }
  dataset::ConversationOptions o = conversation_options(cfg, 0, seed);
  o.seq_dist = seq ? &*seq : nullptr;
  auto convs = dataset::build_synthetic_conversations(*builder, **tok, o);
  if (!convs) return tl::unexpected(convs.error());
  SynthesizedFile out;
  out.tokenizer = (*tok)->name();
  for (const auto& c : *convs) {
    out.jsonl += conversation_json(c).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    out.jsonl += '\n';
    ++out.conversations;
    out.turns += static_cast<int64_t>(c.turns.size());
  }
  return out;
}

}  // namespace servebench::app
