// The rankings (rerank) types: one query plus the passages to rank against it, one request per
// query, answered with a score per passage. Not streamed, no output tokens: AIPerf's latency-only
// set (request latency, ISL = query + passage tokens, request throughput).
//
//   nim_rankings     /v1/ranking  {"model":..,"query":{"text":..},"passages":[{"text":..},..]}
//   hf_tei_rankings  /rerank      {"query":..,"texts":[..]}            (TEI's body has no model)
//   cohere_rankings  /v2/rerank   {"model":..,"query":..,"documents":[..]}
//
// The turn's query is its first message with role "query" (else its first message); every other
// message is a passage, in order. Extra members are appended and replace a standard key of the
// same name, a turn's own extras after --extra-inputs (AIPerf's payload.update).
#include "endpoints/chatlike_body.h"
#include "endpoints/json_text.h"
#include "endpoints/rankings_parser.h"
#include "endpoints/registry.h"

namespace servebench::endpoints {
namespace {

enum class Layout { kNim, kTei, kCohere };

class RankingsEndpoint final : public Endpoint {
 public:
  RankingsEndpoint(std::string_view name, std::string_view path, Layout layout,
                   const EndpointOptions& options, BodyExtras extras)
      : name_(name), path_(path), layout_(layout), extras_(std::move(extras)) {
    append_json_string(options.model, &default_model_json_);
  }

  std::string_view name() const override { return name_; }
  std::string_view default_path() const override { return path_; }

  std::string render_body(const TurnPayload& turn) const override {
    size_t query_at = 0;
    for (size_t i = 0; i < turn.messages.size(); ++i) {
      if (turn.messages[i].role == "query") {
        query_at = i;
        break;
      }
    }
    size_t bytes = default_model_json_.size() + 64;
    for (const Message& m : turn.messages) bytes += m.content.size() + 16;
    std::string out;
    out.reserve(bytes);
    BodyWriter w(extras_, turn_extras(turn), &out);
    if (layout_ != Layout::kTei && w.begin("model")) {
      if (turn.model.empty()) {
        out.append(default_model_json_);
      } else {
        append_json_string(turn.model, &out);
      }
    }
    if (w.begin("query")) {
      const std::string_view q =
          turn.messages.empty() ? std::string_view() : turn.messages[query_at].content;
      if (layout_ == Layout::kNim) out.append("{\"text\":");
      append_json_string(q, &out);
      if (layout_ == Layout::kNim) out.push_back('}');
    }
    const std::string_view list = layout_ == Layout::kNim   ? "passages"
                                  : layout_ == Layout::kTei ? "texts"
                                                            : "documents";
    if (w.begin(list)) {
      out.push_back('[');
      bool first_passage = true;
      for (size_t i = 0; i < turn.messages.size(); ++i) {
        if (i == query_at) continue;
        if (!first_passage) out.push_back(',');
        first_passage = false;
        if (layout_ == Layout::kNim) out.append("{\"text\":");
        append_json_string(turn.messages[i].content, &out);
        if (layout_ == Layout::kNim) out.push_back('}');
      }
      out.push_back(']');
    }
    w.finish();
    return out;
  }

 private:
  std::string_view name_;
  std::string_view path_;
  Layout layout_;
  BodyExtras extras_;
  std::string default_model_json_;
};

Result<std::unique_ptr<Endpoint>> make(std::string_view name, std::string_view path, Layout layout,
                                       const EndpointOptions& o) {
  auto extras = BodyExtras::parse(o.extra_inputs_json, "--extra-inputs");
  if (!extras) return tl::unexpected(extras.error());
  return std::unique_ptr<Endpoint>(
      std::make_unique<RankingsEndpoint>(name, path, layout, o, std::move(*extras)));
}

Error usage(std::string m) { return Error{ErrorCode::kInvalidArgument, std::move(m)}; }

// A ranking request is one query and its passages: no conversation, no shared prompts, and the
// lengths come from the --rankings-* flags rather than --isl.
Status check_rankings_options(const OptionFacts& facts) {
  if (facts.multi_turn) {
    return tl::unexpected(
        usage("--session-turns-mean: the rankings endpoint types (" +
              type_names(core::kCapQueryPassages) +
              ") send one query per request, without sessions; use 1 turn"));
  }
  if (facts.shared_prompts) {
    return tl::unexpected(
        usage("--shared-system-prompt-length/--user-context-prompt-length: the rankings endpoint "
              "types (" + type_names(core::kCapQueryPassages) +
              ") take a query and passages; drop them"));
  }
  if (facts.isl_given) {
    return tl::unexpected(usage(
        "--isl, --isl-stddev, --isl-range-ratio and --sequence-distribution do not size rankings "
        "requests; use --rankings-query-prompt-token-mean and "
        "--rankings-passages-prompt-token-mean (and their -stddev)"));
  }
  return {};
}

constexpr core::Capabilities kRankingsCaps = core::kCapTokenizesInput | core::kCapQueryPassages;

const EndpointSpec kNimRankingsSpec{
    .name = "nim_rankings",
    .default_path = "/v1/ranking",
    .capabilities = kRankingsCaps,
    .metrics_title = "Rankings Metrics",
    .artifact_name = "openai-nim_rankings",
    .batches_texts = false,
    .make_endpoint =
        [](const EndpointOptions& o) {
          return make("nim_rankings", "/v1/ranking", Layout::kNim, o);
        },
    .make_parser = [] { return make_rankings_parser(RankingsShape::kNim); },
    .check = &check_rankings_options,
};

const EndpointSpec kTeiRankingsSpec{
    .name = "hf_tei_rankings",
    .default_path = "/rerank",
    .capabilities = kRankingsCaps,
    .metrics_title = "Ranking Metrics",
    .artifact_name = "openai-hf_tei_rankings",
    .batches_texts = false,
    .make_endpoint =
        [](const EndpointOptions& o) {
          return make("hf_tei_rankings", "/rerank", Layout::kTei, o);
        },
    .make_parser = [] { return make_rankings_parser(RankingsShape::kTei); },
    .check = &check_rankings_options,
};

const EndpointSpec kCohereRankingsSpec{
    .name = "cohere_rankings",
    .default_path = "/v2/rerank",
    .capabilities = kRankingsCaps,
    .metrics_title = "Ranking Metrics",
    .artifact_name = "openai-cohere_rankings",
    .batches_texts = false,
    .make_endpoint =
        [](const EndpointOptions& o) {
          return make("cohere_rankings", "/v2/rerank", Layout::kCohere, o);
        },
    .make_parser = [] { return make_rankings_parser(RankingsShape::kCohere); },
    .check = &check_rankings_options,
};

const EndpointRegistrar kNimRegistrar{kNimRankingsSpec};
const EndpointRegistrar kTeiRegistrar{kTeiRankingsSpec};
const EndpointRegistrar kCohereRegistrar{kCohereRankingsSpec};

}  // namespace
}  // namespace servebench::endpoints
