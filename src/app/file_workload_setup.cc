// --input-file workloads (prepare_file_workload, app/workload_setup.h): the file's rows as
// conversations (verbatim bodies, message arrays, media, branches), the fixed schedule of a
// file with timestamps, agentic replay lanes.
#include "app/workload_setup.h"

#include <algorithm>
#include <cmath>
#include <unordered_set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "app/agentic_setup.h"
#include "app/chat_template_isl.h"
#include "app/file_media_setup.h"
#include "app/media_store.h"
#include "app/trace_input.h"
#include "app/workload_assembly.h"
#include "config/prompt_validate.h"
#include "core/interrupt.h"
#include "core/units.h"
#include "dataset/coding_corpus.h"
#include "dataset/exact_prompts.h"
#include "dataset/file_workload.h"
#include "dataset/loaders/dataset_file.h"
#include "dataset/loaders/weka_trace.h"
#include "endpoints/payload_inputs.h"
#include "endpoints/registry.h"

namespace servebench::app {
namespace {

Error usage(std::string m) { return Error{ErrorCode::kInvalidArgument, std::move(m)}; }

// ISL of a verbatim body: its input texts, each counted on its own, plus pre-tokenized ids
// (endpoints/payload_inputs.h); -1 when no input shape is recognised.
int64_t count_payload_inputs(const tokenizer::Tokenizer& tok, const std::string& body) {
  const endpoints::PayloadInputs in = endpoints::payload_inputs(body);
  if (!in.found) return -1;
  int64_t n = in.token_ids;
  for (const auto& text : in.texts) n += static_cast<int64_t>(tok.count(text));
  return n;
}

// A body from a verbatim message array (mooncake `messages` rows: each row carries the whole
// conversation so far): the endpoint renders everything else, the array is spliced in as given.
Result<std::string> body_from_messages(const endpoints::Endpoint& endpoint, const std::string& file,
                                       const std::string& messages_json, const std::string& tools_json,
                                       const std::string& model, int64_t max_tokens) {
  auto spec = endpoints::find_spec(endpoint.name());
  if (!spec || !(*spec)->has(core::kCapChatMessages))
    return tl::unexpected(usage(fmt::format("--input-file '{}': rows with 'messages' need --endpoint-type {}", file,
                                            endpoints::type_names(core::kCapChatMessages, " or "))));
  endpoints::TurnPayload p;
  p.model = model;
  p.max_output_tokens = max_tokens;
  std::string body = endpoint.render_body(p);
  const std::string empty = "\"messages\":[]";
  const size_t at = body.find(empty);
  if (at == std::string::npos)  // --extra-inputs replaced the messages: they win, as for other rows
    return body;
  body.replace(at, empty.size(), "\"messages\":" + messages_json);
  if (!tools_json.empty()) {
    if (body.find("\"tools\":") == std::string::npos && !body.empty() && body.back() == '}') {
      body.insert(body.size() - 1, ",\"tools\":" + tools_json);  // verbatim, like the messages
    } else {
      body = endpoints::merge_body_extras(body, "{\"tools\":" + tools_json + "}");  // --extra-inputs had tools
    }
  }
  return body;
}

// The texts of a message array: string contents and the text parts of content arrays.
std::vector<endpoints::Message> messages_texts(const std::string& messages_json) {
  auto j = nlohmann::json::parse(messages_json, nullptr, false);
  std::vector<endpoints::Message> msgs;
  if (!j.is_array()) return {};
  for (const auto& m : j) {
    if (!m.is_object() || !m.contains("content")) continue;
    const auto& c = m["content"];
    if (c.is_string()) {
      msgs.push_back({"", c.get<std::string>()});
    } else if (c.is_array()) {
      for (const auto& part : c)
        if (part.is_object() && part.value("type", "") == "text" && part.contains("text") && part["text"].is_string())
          msgs.push_back({"", part["text"].get<std::string>()});
    }
  }
  return msgs;
}


// The trace options of agent traces (flags_agentic.cc).
dataset::WekaOptions agentic_trace_options(const config::BenchmarkConfig& cfg) {
  dataset::WekaOptions o;
  o.think_time_only = cfg.use_think_time_only;
  o.max_context_length = cfg.max_context_length;
  return o;
}

load::SessionBranch session_branch(const dataset::FileBranch& b) {
  load::SessionBranch out;
  out.after_turn = b.after_turn;
  out.join_turn = b.join_turn;
  out.fork = b.fork;
  out.child_ids = b.children;
  for (double ms : b.child_delay_ms) out.child_delay_ns.push_back(static_cast<int64_t>(std::llround(ms * 1e6)));
  return out;
}

// Conversations some branch starts (they are not scheduled on their own).
std::vector<bool> child_conversations(const std::vector<load::SessionTemplate>& convs) {
  std::unordered_set<std::string> ids;
  for (const auto& c : convs)
    for (const auto& b : c.branches) ids.insert(b.child_ids.begin(), b.child_ids.end());
  std::vector<bool> out;
  for (const auto& c : convs) out.push_back(ids.count(c.conversation_id) > 0);
  return out;
}

}  // namespace

Result<PreparedWorkload> prepare_file_workload(const config::BenchmarkConfig& cfg, const tokenizer::Tokenizer& tok,
                                               const endpoints::Endpoint& endpoint, std::string_view corpus,
                                               uint64_t seed) {
  // --apply-chat-template: the file sets the prompts (no compensation); their ISL is counted
  // through the template.
  auto template_isl = load_template_isl(cfg, tok, chat_endpoint(endpoint));
  if (!template_isl) return tl::unexpected(template_isl.error());
  auto finish = [&](Result<PreparedWorkload> out) {
    if (out && *template_isl) {
      auto t = std::make_shared<const TemplateIsl>(std::move(**template_isl));
      count_through_template(std::move(t), tok, &*out);
    }
    return out;
  };
  std::optional<dataset::FileFormat> format;
  if (!cfg.custom_dataset_type.empty()) {
    auto f = dataset::parse_file_format(cfg.custom_dataset_type);
    if (!f) return tl::unexpected(f.error());
    format = *f;
  }
  auto file = load_input_file(cfg, format, &tok);
  if (!file) return tl::unexpected(file.error());
  if (auto st = config::check_corpus_for_format(cfg, dataset::file_format_name(file->format)); !st)
    return tl::unexpected(st.error());
  if (auto applied = dataset::apply_weka_options(&*file, agentic_trace_options(cfg)); !applied)
    return tl::unexpected(applied.error());
  auto synthesis_notes = synthesize_input_trace(cfg, seed, &*file);
  if (!synthesis_notes) return tl::unexpected(synthesis_notes.error());
  if (auto st = prepare_agentic_file(cfg, &*file); !st) return tl::unexpected(st.error());
  // Agentic coding traces default to the coding corpus (AIPerf's weka_trace default).
  const bool coding_default = cfg.prompt_corpus.empty() && file->format == dataset::FileFormat::kWekaTrace;
  auto builder = coding_default ? dataset::ExactPromptBuilder::create(dataset::coding_corpus(), tok)
                                : dataset::ExactPromptBuilder::for_corpus(cfg.prompt_corpus, corpus, tok);
  if (!builder) return tl::unexpected(builder.error());
  dataset::FileWorkloadOptions wo;
  wo.seed = seed;
  wo.block_size = cfg.isl_block_size;
  wo.osl_given = cfg.osl_mean_tokens > 0;
  wo.sharegpt_whole_conversations = !cfg.public_dataset.empty();
  auto workload = dataset::build_file_workload(std::move(*file), tok, *builder, wo);  // only its format is read after
  if (!workload) return tl::unexpected(workload.error());

  PreparedWorkload out;
  out.format = dataset::file_format_name(file->format);
  out.warnings = std::move(*synthesis_notes);
  if (workload->filtered_out > 0)
    out.warnings.push_back(fmt::format("{} ShareGPT conversation(s) dropped by the length filter", workload->filtered_out));
  const bool sharegpt = file->format == dataset::FileFormat::kShareGpt;
  const int64_t default_osl = cfg.osl_mean_tokens > 0 ? static_cast<int64_t>(std::llround(cfg.osl_mean_tokens)) : -1;

  Assembly a;
  a.default_strategy = dataset::SamplingStrategy::kSequential;
  // Rows that share a session but carry no history between them still go one after another as
  // one session (AIPerf): single_turn rows with a session_id, inputs.json sessions, raw-payload
  // folders (one file per session).
  const bool ordered_without_history = file->format == dataset::FileFormat::kSingleTurn ||
                                       file->format == dataset::FileFormat::kInputsJson ||
                                       file->format == dataset::FileFormat::kRawPayload ||
                                       file->format == dataset::FileFormat::kBasetenTrace;
  bool dropped_sharegpt_turns = false;
  std::vector<std::vector<double>> timestamps;  // per conversation, per turn (ms; -1 = none)
  auto keeper = input_media_keeper(&out);
  if (!keeper) return tl::unexpected(keeper.error());
  media::FileMediaResolver media_files(cfg.input_file, std::move(*keeper));
  for (const auto& conv : workload->conversations) {
    if (core::interrupt_requested()) return tl::unexpected(interrupted_error());
    load::SessionTemplate s;
    s.conversation_id = conv.session_id;
    if (!conv.system_prompt.empty()) s.preamble.push_back({"system", conv.system_prompt});
    auto& ts = timestamps.emplace_back();
    for (const auto& t : conv.turns) {
      load::SessionTurn st;
      st.role = t.role.empty() ? "user" : t.role;
      st.text = t.text;
      if (!t.extra_json.empty()) {
        auto extras = endpoints::BodyExtras::parse(t.extra_json, fmt::format("--input-file '{}': extra", cfg.input_file));
        if (!extras) return tl::unexpected(extras.error());
        st.extras = std::make_shared<const endpoints::BodyExtras>(std::move(*extras));
      }
      st.max_output_tokens = t.max_output_tokens > 0 ? t.max_output_tokens : default_osl;
      st.input_tokens = t.input_tokens;
      st.delay_ns = core::ms_to_ns_or_absent(t.delay_ms);
      st.model_rank = t.model_rank;
      st.recorded_ns = core::ms_to_ns_or_absent(t.recorded_t_ms);
      st.prefix_hit_blocks = t.prefix_hit_blocks;
      st.prefix_total_blocks = t.prefix_total_blocks;
      auto media = file_turn_media(cfg, &media_files, t.media);
      if (!media) return tl::unexpected(media.error());
      st.media = std::move(*media);
      for (const auto& [role, text] : t.lead_messages) st.lead.push_back({role, text});
      if (!t.payload_json.empty()) {
        st.body = t.payload_json;
        st.input_tokens = count_payload_inputs(tok, t.payload_json);
      } else if (!t.messages_json.empty()) {
        auto body = body_from_messages(endpoint, cfg.input_file, t.messages_json, t.tools_json, cfg.models.front(),
                                       st.max_output_tokens);
        if (!body) return tl::unexpected(body.error());
        st.body = std::move(*body);
        if (!t.extra_json.empty()) st.body = endpoints::merge_body_extras(st.body, t.extra_json);
        st.input_tokens = count_messages(tok, messages_texts(t.messages_json));
        if (cfg.models.size() > 1)
          out.warnings.push_back("rows with 'messages' are sent with the first --model only");
      }
      s.turns.push_back(std::move(st));
      ts.push_back(t.timestamp_ms);
      if (sharegpt && !workload->multi_turn_history) break;  // vLLM's convention: the first exchange
    }
    dropped_sharegpt_turns |= sharegpt && !workload->multi_turn_history && conv.turns.size() > 1;
    s.carry_history = workload->multi_turn_history && conv.carry_history;
    a.sessions |= (workload->multi_turn_history || ordered_without_history) && s.turns.size() > 1;
    for (const auto& b : conv.branches) s.branches.push_back(session_branch(b));
    a.sessions |= !s.branches.empty();
    a.convs.push_back(std::move(s));
  }
  if (dropped_sharegpt_turns)
    out.warnings.push_back("ShareGPT: only each conversation's first exchange is sent (as vLLM bench does)");
  a.sessions |= cfg.user_centric_rate.has_value() || cfg.agentic.replay;

  // Fixed schedule: on when asked, or automatically when the file has timestamps (agentic
  // replay plays lanes instead: app/agentic_setup.h).
  if (cfg.agentic.replay) {
    auto assembled = assemble(std::move(a), cfg, tok, endpoint, seed, std::move(out));
    if (assembled)
      if (auto st = add_agentic_lanes(cfg, seed, &*assembled); !st) return tl::unexpected(st.error());
    return finish(std::move(assembled));
  }
  const bool fixed = cfg.fixed_schedule.value_or(workload->has_timestamps);
  if (!fixed) {
    if (workload->has_timestamps) out.warnings.push_back("timestamps in the input file are ignored (--no-fixed-schedule)");
    return finish(assemble(std::move(a), cfg, tok, endpoint, seed, std::move(out)));
  }
  a.fixed = true;
  // The option rules that --fixed-schedule has in validate(), for a schedule switched on by the
  // file's timestamps.
  if (cfg.sampling_strategy != config::SamplingStrategyName::kDefault)
    return tl::unexpected(usage(fmt::format(
        "--dataset-sampling-strategy does not apply to '{}': its timestamps replay it in order; add --no-fixed-schedule",
        cfg.input_file)));
  if (cfg.user_centric_rate)
    return tl::unexpected(usage(fmt::format(
        "--user-centric-rate does not apply to '{}': its timestamps set the schedule; add --no-fixed-schedule",
        cfg.input_file)));
  // Units scheduled by timestamp: sessions by their first turn, or every single-turn row.
  struct Unit {
    size_t conv;
    size_t turn;
    double ts;
  };
  std::vector<Unit> units;
  const std::vector<bool> child = child_conversations(a.convs);
  for (size_t c = 0; c < a.convs.size(); ++c) {
    if (child[c]) continue;  // started by their parents, appended after the scheduled ones
    const size_t n = a.sessions ? 1 : a.convs[c].turns.size();
    for (size_t t = 0; t < n; ++t) {
      if (timestamps[c][t] < 0)
        return tl::unexpected(usage(fmt::format(
            "--fixed-schedule: '{}' has {} without a timestamp (session '{}'); add timestamps or drop --fixed-schedule",
            cfg.input_file, a.sessions ? "a session whose first turn is" : "a request", a.convs[c].conversation_id)));
      units.push_back({c, t, timestamps[c][t]});
    }
  }
  std::stable_sort(units.begin(), units.end(), [](const Unit& x, const Unit& y) { return x.ts < y.ts; });
  const double lo = cfg.fixed_schedule_start_offset_ms ? static_cast<double>(*cfg.fixed_schedule_start_offset_ms) : -1;
  const double hi = cfg.fixed_schedule_end_offset_ms ? static_cast<double>(*cfg.fixed_schedule_end_offset_ms) : -1;
  std::erase_if(units, [&](const Unit& u) { return (lo >= 0 && u.ts < lo) || (hi >= 0 && u.ts > hi); });
  if (units.empty()) return tl::unexpected(usage("--fixed-schedule-start-offset/-end-offset leave no request to send"));
  // Schedule zero: the first timestamp with --fixed-schedule-auto-offset, else the start offset
  // when given, else timestamp 0.
  const double zero = cfg.fixed_schedule_auto_offset ? units.front().ts : std::max(lo, 0.0);
  auto offsets = std::make_shared<std::vector<int64_t>>();
  offsets->reserve(units.size());
  std::vector<load::SessionTemplate> ordered;
  ordered.reserve(units.size());
  for (const auto& u : units) {
    offsets->push_back(static_cast<int64_t>(std::llround((u.ts - zero) * 1e6)));
    if (a.sessions) {
      load::SessionTemplate s = std::move(a.convs[u.conv]);
      for (size_t t = 0; t < s.turns.size(); ++t)
        s.turns[t].offset_ns = timestamps[u.conv][t] >= 0 ? core::ms_to_ns_or_absent(timestamps[u.conv][t] - zero) : -1;
      ordered.push_back(std::move(s));
    } else {
      load::SessionTemplate s;
      s.conversation_id = a.convs[u.conv].conversation_id;
      s.preamble = a.convs[u.conv].preamble;
      s.turns.push_back(a.convs[u.conv].turns[u.turn]);
      ordered.push_back(std::move(s));
    }
  }
  for (size_t c = 0; c < child.size(); ++c)
    if (child[c]) ordered.push_back(std::move(a.convs[c]));
  a.convs = std::move(ordered);
  out.fixed_offsets_ns = std::move(offsets);
  return finish(assemble(std::move(a), cfg, tok, endpoint, seed, std::move(out)));
}


}  // namespace servebench::app
