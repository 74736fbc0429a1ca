#include "app/workload_setup.h"

#include <algorithm>
#include <optional>

#include "app/body_spill.h"
#include "app/chat_template_isl.h"
#include "app/media_store.h"
#include "app/workload_assembly.h"
#include "core/interrupt.h"
#include "core/units.h"
#include "dataset/exact_prompts.h"
#include "dataset/sequence_distribution.h"

namespace servebench::app {
namespace {

// Sessions render their bodies at send time, so each turn's media is made now, in draw order.
// Past the body store's threshold (app/body_spill.h) the files go to the store, those made so
// far and each new one as it is made: memory then holds views, never all the files.
Status session_media(const NextMedia& next, Assembly* a, PreparedWorkload* out) {
  if (!a->sessions) return {};
  auto threshold = body_store_threshold_bytes();
  if (!threshold) return tl::unexpected(threshold.error());
  int64_t held_bytes = 0;
  std::vector<std::shared_ptr<std::vector<core::MediaPart>>> held;  // in memory, not yet stored
  for (auto& s : a->convs)
    for (auto& st : s.turns) {
      if (core::interrupt_requested()) return tl::unexpected(interrupted_error());
      auto m = next();
      if (!m) return tl::unexpected(m.error());
      auto media = std::make_shared<std::vector<core::MediaPart>>(std::move(*m));
      st.media = media;
      for (const auto& p : *media) held_bytes += static_cast<int64_t>(p.base64.size());
      held.push_back(std::move(media));
      if (!out->body_store && held_bytes <= *threshold) continue;
      auto store = workload_store(out);
      if (!store) return tl::unexpected(store.error());
      for (auto& h : held)
        if (auto stored = store_media(*store, h.get()); !stored) return stored;
      held.clear();
    }
  return {};
}

}  // namespace

dataset::ConversationOptions conversation_options(const config::BenchmarkConfig& cfg,
                                                  int64_t overhead_tokens, uint64_t seed) {
  dataset::ConversationOptions o;
  o.num_conversations = cfg.num_sessions.value_or(cfg.num_dataset_entries);
  o.turns_mean = cfg.session_turns_mean;
  o.turns_stddev = cfg.session_turns_stddev;
  o.delay_mean_ms = cfg.session_turn_delay_mean_ms;
  o.delay_stddev_ms = cfg.session_turn_delay_stddev_ms;
  o.delay_ratio = cfg.session_delay_ratio;
  o.isl_mean = std::max(1.0, cfg.isl_mean_tokens - static_cast<double>(overhead_tokens));
  o.isl_stddev = cfg.isl_stddev_tokens;
  o.osl_mean = cfg.osl_mean_tokens;
  o.osl_stddev = cfg.osl_stddev_tokens;
  o.isl_range_ratio = cfg.isl_range_ratio.value_or(-1);
  o.osl_range_ratio = cfg.osl_range_ratio.value_or(-1);
  o.range_ratio_style = cfg.range_ratio_sglang ? dataset::RangeRatioStyle::kSglang : dataset::RangeRatioStyle::kVllm;
  o.prefix_pool_size = cfg.prefix_prompt_pool_size;
  o.prefix_length = cfg.prefix_prompt_length;
  o.shared_system_prompt_length = cfg.shared_system_prompt_length;
  o.user_context_length = cfg.user_context_prompt_length;
  o.seed = seed;
  return o;
}

Result<PreparedWorkload> prepare_synthetic_workload(const config::BenchmarkConfig& cfg, const tokenizer::Tokenizer& tok,
                                                    const endpoints::Endpoint& endpoint, std::string_view corpus,
                                                    uint64_t seed) {
  auto builder = dataset::ExactPromptBuilder::for_corpus(cfg.prompt_corpus, corpus, tok);
  if (!builder) return tl::unexpected(builder.error());
  auto template_isl = load_template_isl(cfg, tok, chat_endpoint(endpoint));
  if (!template_isl) return tl::unexpected(template_isl.error());
  const int64_t overhead = *template_isl ? (*template_isl)->overhead_tokens : 0;
  std::optional<dataset::SequenceDistribution> seq;
  if (!cfg.sequence_distribution.empty()) {
    auto s = dataset::SequenceDistribution::parse(cfg.sequence_distribution);
    if (!s) return tl::unexpected(s.error());
    seq = std::move(*s);
  }
  dataset::ConversationOptions o = conversation_options(cfg, overhead, seed);
  o.seq_dist = seq ? &*seq : nullptr;
  auto convs = dataset::build_synthetic_conversations(*builder, tok, o);
  if (!convs) return tl::unexpected(convs.error());
  if (core::interrupt_requested()) return tl::unexpected(interrupted_error());
  Assembly a;
  a.default_strategy = dataset::SamplingStrategy::kShuffle;
  for (auto& c : *convs) {
    load::SessionTemplate s;
    s.conversation_id = std::move(c.session_id);
    if (!c.system_prompt.empty()) s.preamble.push_back({"system", std::move(c.system_prompt)});
    if (!c.user_context.empty()) s.preamble.push_back({"user", std::move(c.user_context)});
    for (auto& t : c.turns) {
      load::SessionTurn st;
      st.text = std::move(t.text);
      st.input_tokens = t.input_tokens;
      st.max_output_tokens = t.max_output_tokens;
      st.delay_ns = core::ms_to_ns_or_absent(t.delay_ms);
      s.turns.push_back(std::move(st));
    }
    a.sessions |= s.turns.size() > 1;
    a.convs.push_back(std::move(s));
  }
  a.sessions |= cfg.user_centric_rate.has_value();
  PreparedWorkload prepared;
  if (cfg.media_enabled()) {
    auto next = synthetic_media_source(cfg, seed, &prepared);
    if (!next) return tl::unexpected(next.error());
    if (auto st = session_media(*next, &a, &prepared); !st) return tl::unexpected(st.error());
    if (!a.sessions) a.next_media = std::move(*next);
  }
  auto out = assemble(std::move(a), cfg, tok, endpoint, seed, std::move(prepared));
  if (out && *template_isl) {
    auto t = std::make_shared<const TemplateIsl>(std::move(**template_isl));
    count_through_template(std::move(t), tok, &*out);
  }
  return out;
}


}  // namespace servebench::app
