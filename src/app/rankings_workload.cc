#include "app/rankings_workload.h"

#include <algorithm>

#include "core/interrupt.h"
#include "dataset/loaders/dataset_file.h"
#include "dataset/rankings.h"
#include "dataset/sampling.h"

namespace servebench::app {
namespace {

Result<std::vector<dataset::RankingsEntry>> synthetic_entries(const config::BenchmarkConfig& cfg,
                                                              const tokenizer::Tokenizer& tok,
                                                              std::string_view corpus,
                                                              uint64_t seed) {
  auto builder = dataset::ExactPromptBuilder::for_corpus(cfg.prompt_corpus, corpus, tok);
  if (!builder) return tl::unexpected(builder.error());
  dataset::RankingsOptions o;
  o.num_entries = cfg.num_dataset_entries;
  o.passages_mean = cfg.rankings_passages_mean;
  o.passages_stddev = cfg.rankings_passages_stddev;
  o.passage_tokens_mean = cfg.rankings_passage_tokens_mean;
  o.passage_tokens_stddev = cfg.rankings_passage_tokens_stddev;
  o.query_tokens_mean = cfg.rankings_query_tokens_mean;
  o.query_tokens_stddev = cfg.rankings_query_tokens_stddev;
  o.seed = seed;
  return dataset::build_synthetic_rankings(*builder, o);
}

Result<std::vector<dataset::RankingsEntry>> file_entries(const config::BenchmarkConfig& cfg,
                                                         const tokenizer::Tokenizer& tok,
                                                         PreparedWorkload* out) {
  std::optional<dataset::FileFormat> format;
  if (!cfg.custom_dataset_type.empty()) {
    auto f = dataset::parse_file_format(cfg.custom_dataset_type);
    if (!f) return tl::unexpected(f.error());
    format = *f;
  }
  auto file = dataset::load_dataset_file(cfg.input_file, format);
  if (!file) return tl::unexpected(file.error());
  out->format = dataset::file_format_name(file->format);
  if (file->has_timestamps)
    out->warnings.push_back("timestamps in the input file are not replayed for rankings requests");
  return dataset::rankings_from_file(*file, tok, cfg.input_file);
}

dataset::SamplingStrategy strategy(const config::BenchmarkConfig& cfg, bool from_file) {
  switch (cfg.sampling_strategy) {
    case config::SamplingStrategyName::kRandom:
      return dataset::SamplingStrategy::kRandom;
    case config::SamplingStrategyName::kSequential:
      return dataset::SamplingStrategy::kSequential;
    case config::SamplingStrategyName::kShuffle:
      return dataset::SamplingStrategy::kShuffle;
    case config::SamplingStrategyName::kDefault:
      break;
  }
  return from_file ? dataset::SamplingStrategy::kSequential : dataset::SamplingStrategy::kShuffle;
}

// Picks for the order: the requests the run will send (a duration-bound run wraps around).
size_t picks(const config::BenchmarkConfig& cfg, size_t entries) {
  int64_t n = static_cast<int64_t>(entries) * 16;
  if (auto c = cfg.effective_request_count()) n = *c;
  n = std::max<int64_t>(n, static_cast<int64_t>(entries));
  return static_cast<size_t>(std::min<int64_t>(n, 4'000'000));
}

}  // namespace

Result<PreparedWorkload> prepare_rankings_workload(const config::BenchmarkConfig& cfg,
                                                   const tokenizer::Tokenizer& tok,
                                                   const endpoints::Endpoint& endpoint,
                                                   std::string_view corpus, uint64_t seed) {
  PreparedWorkload out;
  if (cfg.fixed_schedule.value_or(false))
    return make_error(
        ErrorCode::kInvalidArgument,
        "--fixed-schedule: rankings requests are not replayed on a schedule; drop it");
  const bool from_file = !cfg.input_file.empty();
  auto entries =
      from_file ? file_entries(cfg, tok, &out) : synthetic_entries(cfg, tok, corpus, seed);
  if (!entries) return tl::unexpected(entries.error());
  if (entries->empty())
    return make_error(ErrorCode::kInvalidArgument,
                      from_file ? "--input-file '" + cfg.input_file + "' has no rankings rows"
                                : std::string("--num-dataset-entries must be at least 1"));
  for (const dataset::RankingsEntry& e : *entries) {
    if (core::interrupt_requested())
      return make_error(ErrorCode::kInterrupted, "interrupted while rendering rankings requests");
    endpoints::TurnPayload p;
    p.messages.reserve(e.passages.size() + 1);
    p.messages.push_back({"query", e.query});
    for (const std::string& passage : e.passages) p.messages.push_back({"passage", passage});
    std::optional<endpoints::BodyExtras> extras;
    if (!e.extra_json.empty()) {
      auto parsed = endpoints::BodyExtras::parse(e.extra_json,
                                                 "--input-file '" + cfg.input_file + "': extra");
      if (!parsed) return tl::unexpected(parsed.error());
      extras = std::move(*parsed);
      p.extras = &*extras;
    }
    for (const std::string& model : cfg.models) {
      p.model = model;
      load::RequestTemplate t;
      t.conversation_id = e.id;
      t.body = endpoint.render_body(p);
      t.input_tokens = e.input_tokens();
      out.requests.push_back(std::move(t));
    }
    ++out.entries;
  }
  out.order =
      dataset::sample_entries(strategy(cfg, from_file), out.entries, picks(cfg, out.entries), seed);
  return out;
}

}  // namespace servebench::app
