// `solido_rag`: the Solido RAG pipeline's prompt API (POST /rag/api/prompt), as AIPerf sends it.
//
// Body (keys in this order):
//   {"query":["text",...],"filters":{"family":"Solido","tool":"SDE"},"inference_model":"<model>",
//    <--extra-inputs>,<a row's own extras>}
// Every text of the turn is one element of `query`; --extra-inputs and a row's extras are set at
// the top level (a key of the same name replaces the standard one, as AIPerf's payload.update).
//
// Parsing: `content` (a string) is the output text of the body or of each streamed event;
// `sources` is not needed for the metrics and is skipped; an OpenAI `usage` object is kept;
// {"error":..} and `event: error` are server errors.
#include "endpoints/json_text.h"
#include "endpoints/json_walk.h"
#include "endpoints/registry.h"
#include "endpoints/single_turn_checks.h"

namespace servebench::endpoints {
namespace {

using json::error_code;
using json::raw_json_string;
using json::value;

constexpr std::string_view kFilters = R"({"family":"Solido","tool":"SDE"})";

class SolidoRagEndpoint final : public Endpoint {
 public:
  SolidoRagEndpoint(const EndpointOptions& options, BodyExtras extras)
      : extras_(std::move(extras)) {
    append_json_string(options.model, &default_model_json_);
  }

  std::string_view name() const override { return "solido_rag"; }
  std::string_view default_path() const override { return "/rag/api/prompt"; }

  std::string render_body(const TurnPayload& turn) const override {
    const BodyExtras* later =
        turn.extras != nullptr && !turn.extras->empty() ? turn.extras : nullptr;
    size_t bytes = default_model_json_.size() + 96;
    for (const Message& m : turn.messages) bytes += m.content.size() + 8;
    std::string out;
    out.reserve(bytes);
    out.push_back('{');
    bool first = true;
    auto member = [&](std::string_view key) {
      if (either_has(extras_, later, key)) return false;
      if (!first) out.push_back(',');
      first = false;
      out.push_back('"');
      out.append(key);
      out.append("\":");
      return true;
    };
    if (member("query")) {
      out.push_back('[');
      bool any = false;
      for (const Message& m : turn.messages) {
        if (m.content.empty()) continue;  // AIPerf keeps non-empty texts only
        if (any) out.push_back(',');
        any = true;
        append_json_string(m.content, &out);
      }
      out.push_back(']');
    }
    if (member("filters")) out.append(kFilters);
    if (member("inference_model")) {
      if (turn.model.empty()) {
        out.append(default_model_json_);
      } else {
        append_json_string(turn.model, &out);
      }
    }
    extras_.append_members(&out, &first, later);
    if (later != nullptr) later->append_members(&out, &first);
    out.push_back('}');
    return out;
  }

 private:
  BodyExtras extras_;
  std::string default_model_json_;
};

class SolidoRagParser final : public json::JsonEventParser<SolidoRagParser> {
 public:
  ParseStatus parse(std::string_view json, int64_t recv_ns, record::RequestRecord* rec) {
    std::string_view content;
    record::Usage usage;
    json::ErrorFields error;
    const error_code e = walker_.walk_object(json, [&](raw_json_string key, value v) -> error_code {
      if (key == "content") return json::opt_string(v, &content);
      if (key == "usage") return json::read_usage(v, &usage);
      return json::read_error_field(key, v, &error);
    });
    if (e) return set_malformed(json, rec, simdjson::error_message(e));
    if (error.is_error) return set_server_error(error.message(), json, rec);
    if (usage.present()) rec->usage = usage;
    record::Chunk chunk;
    chunk.recv_ns = recv_ns;
    chunk.text_offset = static_cast<uint32_t>(rec->output_text.size());
    chunk.kind = content.empty()
                     ? (usage.present() ? record::ChunkKind::kUsage : record::ChunkKind::kEmpty)
                     : record::ChunkKind::kContent;
    rec->output_text.append(content);
    chunk.text_bytes = static_cast<uint32_t>(content.size());
    rec->chunks.push_back(chunk);
    return ParseStatus::kOk;
  }

 private:
  json::JsonWalker walker_;
};

Status check_solido_options(const OptionFacts& facts) {
  return check_single_text_turn("solido_rag", facts);
}

const EndpointSpec kSolidoRagSpec{
    .name = "solido_rag",
    .default_path = "/rag/api/prompt",
    .capabilities = core::kCapStreams | core::kCapProducesTokens | core::kCapTokenizesInput,
    .metrics_title = "SOLIDO RAG Metrics",
    .artifact_name = "solido_rag",
    .batches_texts = false,
    .make_endpoint = [](const EndpointOptions& o) -> Result<std::unique_ptr<Endpoint>> {
      auto extras = BodyExtras::parse(o.extra_inputs_json, "--extra-inputs");
      if (!extras) return tl::unexpected(extras.error());
      return std::unique_ptr<Endpoint>(std::make_unique<SolidoRagEndpoint>(o, std::move(*extras)));
    },
    .make_parser = []() -> std::unique_ptr<EventParser> {
      return std::make_unique<SolidoRagParser>();
    },
    .check = &check_solido_options,
};

const EndpointRegistrar kRegistrar{kSolidoRagSpec};

}  // namespace
}  // namespace servebench::endpoints
