#include "cli/file_workload_setup.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "dataset/exact_prompts.h"
#include "dataset/file_workload.h"
#include "dataset/loaders/dataset_file.h"

namespace servebench::cli {
namespace {

Error usage(std::string m) { return Error{ErrorCode::kInvalidArgument, std::move(m)}; }

// Per-row `extra` wins over --extra-inputs (AIPerf applies it last).
std::string merge_extra(const std::string& body, const std::string& extra_json) {
  if (extra_json.empty()) return body;
  auto b = nlohmann::json::parse(body, nullptr, false);
  auto e = nlohmann::json::parse(extra_json, nullptr, false);
  if (b.is_discarded() || !b.is_object() || !e.is_object()) return body;
  for (auto it = e.begin(); it != e.end(); ++it) b[it.key()] = it.value();
  return b.dump();
}

}  // namespace

Result<FileRequests> prepare_file_requests(const config::BenchmarkConfig& cfg, const tokenizer::Tokenizer& tok,
                                           const endpoints::Endpoint& endpoint, std::string_view corpus,
                                           uint64_t seed) {
  std::optional<dataset::FileFormat> format;
  if (!cfg.custom_dataset_type.empty()) {
    auto f = dataset::parse_file_format(cfg.custom_dataset_type);
    if (!f) return tl::unexpected(f.error());
    format = *f;
  }
  auto file = dataset::load_dataset_file(cfg.input_file, format);
  if (!file) return tl::unexpected(file.error());
  auto builder = dataset::ExactPromptBuilder::create(corpus, tok);
  if (!builder) return tl::unexpected(builder.error());
  dataset::FileWorkloadOptions wo;
  wo.seed = seed;
  wo.block_size = cfg.isl_block_size;
  wo.osl_given = cfg.osl_mean_tokens > 0;
  auto workload = dataset::build_file_workload(*file, tok, *builder, wo);
  if (!workload) return tl::unexpected(workload.error());

  FileRequests out;
  out.format = dataset::file_format_name(file->format);
  if (workload->filtered_out > 0)
    out.warnings.push_back(fmt::format("{} ShareGPT conversation(s) dropped by the length filter", workload->filtered_out));

  // Flatten to one entry per request, in file order.
  struct Entry {
    const dataset::WorkloadTurn* turn;
    const dataset::WorkloadConversation* conv;
  };
  std::vector<Entry> entries;
  bool dropped_sharegpt_turns = false;
  for (const auto& conv : workload->conversations) {
    if (conv.turns.size() > 1 && workload->multi_turn_history)
      return tl::unexpected(usage(fmt::format(
          "--input-file '{}': session '{}' has {} turns; multi-turn sessions (history between turns) are not "
          "supported yet; give each row its own session or use single_turn",
          cfg.input_file, conv.session_id, conv.turns.size())));
    if (file->format == dataset::FileFormat::kShareGpt) {
      dropped_sharegpt_turns |= conv.turns.size() > 1;
      entries.push_back({&conv.turns.front(), &conv});  // vLLM's convention: the first exchange
      continue;
    }
    for (const auto& t : conv.turns) entries.push_back({&t, &conv});
  }
  if (dropped_sharegpt_turns)
    out.warnings.push_back("ShareGPT: only each conversation's first exchange is sent (as vLLM bench does)");

  // Fixed schedule: on when asked, or automatically when the file has timestamps.
  const bool fixed = cfg.fixed_schedule.value_or(workload->has_timestamps);
  if (fixed) {
    for (const auto& e : entries)
      if (e.turn->timestamp_ms < 0)
        return tl::unexpected(usage(fmt::format(
            "--fixed-schedule: '{}' has requests without a timestamp; add timestamps or drop --fixed-schedule",
            cfg.input_file)));
    std::stable_sort(entries.begin(), entries.end(),
                     [](const Entry& a, const Entry& b) { return a.turn->timestamp_ms < b.turn->timestamp_ms; });
    const double lo = cfg.fixed_schedule_start_offset_ms ? static_cast<double>(*cfg.fixed_schedule_start_offset_ms) : -1;
    const double hi = cfg.fixed_schedule_end_offset_ms ? static_cast<double>(*cfg.fixed_schedule_end_offset_ms) : -1;
    std::erase_if(entries, [&](const Entry& e) {
      return (lo >= 0 && e.turn->timestamp_ms < lo) || (hi >= 0 && e.turn->timestamp_ms > hi);
    });
    if (entries.empty())
      return tl::unexpected(usage("--fixed-schedule-start-offset/-end-offset leave no request to send"));
    // Schedule zero: the first timestamp with --fixed-schedule-auto-offset, else the start
    // offset when given, else timestamp 0.
    const double zero = cfg.fixed_schedule_auto_offset ? entries.front().turn->timestamp_ms : std::max(lo, 0.0);
    auto offsets = std::make_shared<std::vector<int64_t>>();
    offsets->reserve(entries.size());
    for (const auto& e : entries)
      offsets->push_back(static_cast<int64_t>(std::llround((e.turn->timestamp_ms - zero) * 1e6)));
    out.fixed_offsets_ns = std::move(offsets);
  } else if (workload->has_timestamps) {
    out.warnings.push_back("timestamps in the input file are ignored (--no-fixed-schedule)");
  }

  const int64_t default_osl = cfg.osl_mean_tokens > 0 ? static_cast<int64_t>(std::llround(cfg.osl_mean_tokens)) : -1;
  for (size_t i = 0; i < entries.size(); ++i) {
    const auto& t = *entries[i].turn;
    const auto& conv = *entries[i].conv;
    if (!t.messages_json.empty())
      return tl::unexpected(usage(fmt::format(
          "--input-file '{}': rows with 'messages' are not supported yet; use 'text_input' or 'payload'", cfg.input_file)));
    for (const std::string& model : cfg.models) {
      load::RequestTemplate tmpl;
      tmpl.conversation_id = conv.session_id;
      if (!t.payload_json.empty()) {
        tmpl.body = t.payload_json;  // verbatim, as AIPerf sends raw payloads
      } else {
        endpoints::TurnPayload turn;
        if (!conv.system_prompt.empty()) turn.messages.push_back({"system", conv.system_prompt});
        turn.messages.push_back({t.role.empty() ? "user" : t.role, t.text});
        turn.max_output_tokens = t.max_output_tokens > 0 ? t.max_output_tokens : default_osl;
        turn.model = model;
        tmpl.body = merge_extra(endpoint.render_body(turn), t.extra_json);
        tmpl.input_tokens = t.input_tokens;
        tmpl.max_output_tokens = turn.max_output_tokens;
      }
      out.requests.push_back(std::move(tmpl));
    }
  }
  out.entries = entries.size();
  return out;
}

}  // namespace servebench::cli
