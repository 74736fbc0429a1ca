#include "app/workload_assembly.h"

#include <algorithm>
#include <numeric>

#include "app/body_spill.h"
#include "app/system_prompt.h"
#include "core/interrupt.h"
#include "dataset/sampling.h"
#include "endpoints/media_parts.h"
#include "endpoints/registry.h"
#include "load/children.h"

namespace servebench::app {

// Set-up loops poll the process interrupt flag (core/interrupt.h), so Ctrl-C stops a long
// set-up; the run library maps the error to the signal's exit code.
Error interrupted_error() { return Error{ErrorCode::kInternal, "interrupted during set-up"}; }

bool chat_endpoint(const endpoints::Endpoint& endpoint) {
  auto spec = endpoints::find_spec(endpoint.name());
  return spec && (*spec)->has(core::kCapChatMessages);
}

// ISL of a prompt: each message's text counted on its own (as a chat template presents them to
// the server's tokenizer) and summed.
int64_t count_messages(const tokenizer::Tokenizer& tok, const std::vector<endpoints::Message>& msgs) {
  int64_t n = 0;
  for (const auto& m : msgs) n += static_cast<int64_t>(tok.count(m.content));
  return n;
}

namespace {

dataset::SamplingStrategy strategy_for(const config::BenchmarkConfig& cfg, dataset::SamplingStrategy fallback) {
  switch (cfg.sampling_strategy) {
    case config::SamplingStrategyName::kRandom: return dataset::SamplingStrategy::kRandom;
    case config::SamplingStrategyName::kSequential: return dataset::SamplingStrategy::kSequential;
    case config::SamplingStrategyName::kShuffle: return dataset::SamplingStrategy::kShuffle;
    case config::SamplingStrategyName::kDefault: break;
  }
  return fallback;
}

// How many picks the order needs: the sessions or requests the run will start (a duration-bound
// run wraps around a long list).
size_t picks_for(const config::BenchmarkConfig& cfg, size_t entries) {
  int64_t n = 0;
  if (cfg.num_sessions) n = *cfg.num_sessions;
  else if (auto c = cfg.effective_request_count()) n = *c;
  else n = static_cast<int64_t>(entries) * 16;
  n = std::max<int64_t>(n, static_cast<int64_t>(entries));
  return static_cast<size_t>(std::min<int64_t>(n, 4'000'000));
}

// The turn without history: the preamble, then the turn's own message.
endpoints::TurnPayload delta_payload(const load::SessionTemplate& conv, const load::SessionTurn& turn,
                                     const std::string& model) {
  endpoints::TurnPayload p;
  p.model = model;
  p.max_output_tokens = turn.max_output_tokens;
  p.messages = conv.preamble;
  p.messages.push_back({turn.role.empty() ? "user" : turn.role, turn.text});
  p.extras = turn.extras.get();
  if (turn.media) p.media = *turn.media;
  return p;
}

// Entry (or conversation) per request (or session): timestamp order for a fixed schedule, else
// the sampling strategy's picks.
std::vector<uint32_t> entry_order(const Assembly& a, const config::BenchmarkConfig& cfg, size_t entries,
                                  uint64_t seed) {
  if (!a.fixed)
    return dataset::sample_entries(strategy_for(cfg, a.default_strategy), entries, picks_for(cfg, entries), seed);
  std::vector<uint32_t> order(entries);
  std::iota(order.begin(), order.end(), 0u);
  return order;
}

// One single-turn body per model, with its ISL.
void render_single(const config::BenchmarkConfig& cfg, const tokenizer::Tokenizer& tok,
                   const endpoints::Endpoint& endpoint, const load::SessionTemplate& conv,
                   const load::SessionTurn& turn, const std::vector<const std::string*>& batch_more, bool warmup,
                   PreparedWorkload* out) {
  const std::string placeholder(load::kCacheBustPlaceholder);
  for (const std::string& model : cfg.models) {
    load::RequestTemplate t;
    t.conversation_id = conv.conversation_id;
    t.max_output_tokens = turn.max_output_tokens;
    if (!turn.body.empty()) {
      t.body = turn.body;  // verbatim, as AIPerf sends raw payloads
      t.input_tokens = turn.input_tokens;
    } else {
      endpoints::TurnPayload p = delta_payload(conv, turn, model);
      for (const std::string* text : batch_more) p.messages.push_back({"user", *text});
      load::mark_first_turn(cfg.cache_bust, placeholder, &p.messages.back().content);
      load::mark_request(cfg.cache_bust, placeholder, warmup, &p.messages);
      t.body = endpoint.render_body(p);
      t.input_images = endpoints::count_media(p.media).images;
      if (cfg.cache_bust != config::CacheBust::kNone) {
        const size_t at = t.body.find(placeholder);
        if (at != std::string::npos) t.cache_bust_digits_at = static_cast<int64_t>(at + 5);
        // The marker's digits change its token count: counted per request at send time.
        t.input_tokens = -1;
        for (size_t k = 0; k < p.messages.size(); ++k) {
          const size_t in = p.messages[k].content.find(placeholder);
          if (in != std::string::npos && t.cache_bust_text < 0) {
            t.cache_bust_text = static_cast<int32_t>(k);
            t.cache_bust_text_at = static_cast<int64_t>(in + 5);
          }
          t.input_texts.push_back(p.messages[k].content);
          t.input_roles.push_back(p.messages[k].role);
        }
      } else if (p.messages.size() == 1 && !warmup && turn.input_tokens >= 0) {
        t.input_tokens = turn.input_tokens;  // exact by construction
      } else {
        t.input_tokens = count_messages(tok, p.messages);
      }
    }
    // Held until sent (or moved to the body store): without the growth slack of its rendering,
    // which was ~47% of the bytes of media bodies (docs/performance.md).
    if (t.body.capacity() > t.body.size() + t.body.size() / 8) t.body.shrink_to_fit();
    (warmup ? out->warmup_requests : out->requests).push_back(std::move(t));
  }
}

// An inputs.json body kept for the export (KeptBytes: in memory up to the threshold, then in the
// store). Rendering it may have read the turn's stored media through the store's mapping: those
// pages are dropped again, or RSS would grow by every file of the workload.
Result<std::string_view> keep_input_payload(std::string body, const load::SessionTurn& turn, KeptBytes* kept,
                                            PreparedWorkload* out) {
  if (out->body_store && turn.media)
    for (const auto& m : *turn.media) out->body_store->release(m.stored_base64);
  return kept->keep(std::move(body), out);
}

}  // namespace

Result<PreparedWorkload> assemble(Assembly a, const config::BenchmarkConfig& cfg, const tokenizer::Tokenizer& tok,
                                  const endpoints::Endpoint& endpoint, uint64_t seed, PreparedWorkload out) {
  const bool warmup_marker = cfg.has_warmup() && cfg.cache_bust == config::CacheBust::kNone;
  for (auto& c : a.convs) add_system_prompt(cfg.system_prompt, &c.preamble);
  if (a.sessions) {
    auto sw = std::make_shared<load::SessionWorkload>();
    out.entries = a.convs.size();
    // inputs.json: each turn as its delta (preamble + the turn's message); live replies are
    // added at send time (profile_export_raw.jsonl has every body as sent).
    auto threshold = body_store_threshold_bytes();
    if (!threshold) return tl::unexpected(threshold.error());
    KeptBytes kept(*threshold, &out.input_payload_text);
    for (const auto& c : a.convs) {
      if (core::interrupt_requested()) return tl::unexpected(interrupted_error());
      out.input_session_ids.push_back(c.conversation_id);
      auto& payloads = out.input_payloads.emplace_back();
      for (const auto& t : c.turns) {
        auto view = keep_input_payload(
            t.body.empty() ? endpoint.render_body(delta_payload(c, t, cfg.models.front())) : t.body, t, &kept, &out);
        if (!view) return tl::unexpected(view.error());
        payloads.push_back(*view);
      }
    }
    sw->order = entry_order(a, cfg, a.convs.size(), seed);
    sw->conversations = std::move(a.convs);
    sw->endpoint = &endpoint;
    sw->cache_bust = cfg.cache_bust;
    sw->strip_repeated_images = cfg.uuid_and_strip;
    sw->user_centric_rate = cfg.user_centric_rate.value_or(0);
    sw->num_users = cfg.num_users.value_or(0);
    if (auto linked = load::link_children(sw.get(), cfg.input_file); !linked) return tl::unexpected(linked.error());
    out.sessions = std::move(sw);
    return out;
  }
  // Single turn: every turn of every conversation is an entry of its own. With --batch-size N an
  // entry carries N texts: its own and those of the N - 1 entries after it (wrapping around).
  std::vector<std::pair<const load::SessionTemplate*, load::SessionTurn*>> flat;
  for (auto& c : a.convs)
    for (auto& t : c.turns) flat.emplace_back(&c, &t);
  std::vector<const std::string*> more;
  auto threshold = body_store_threshold_bytes();
  if (!threshold) return tl::unexpected(threshold.error());
  BodySpill spill(*threshold);
  for (size_t k = 0; k < flat.size(); ++k) {
    if (core::interrupt_requested()) return tl::unexpected(interrupted_error());
    more.clear();
    for (int64_t j = 1; j < cfg.batch_size; ++j) more.push_back(&flat[(k + static_cast<size_t>(j)) % flat.size()].second->text);
    const auto& [c, t] = flat[k];
    if (a.next_media) {
      auto m = a.next_media();
      if (!m) return tl::unexpected(m.error());
      t->media = std::make_shared<const std::vector<core::MediaPart>>(std::move(*m));
    }
    render_single(cfg, tok, endpoint, *c, *t, more, false, &out);
    if (warmup_marker) render_single(cfg, tok, endpoint, *c, *t, more, true, &out);
    // The bodies now carry the turn's media: its encoded files are released as each entry is
    // rendered, so media and bodies are never both held in full (docs/performance.md).
    t->media.reset();
    if (auto st = spill.after_entry(&out); !st) return tl::unexpected(st.error());
    ++out.entries;
  }
  out.order = entry_order(a, cfg, out.entries, seed);
  std::deque<std::string>().swap(out.kept_media);  // every body now carries its media
  return out;
}

}  // namespace servebench::app
