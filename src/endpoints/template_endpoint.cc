// `template`: a user-defined request body (template.h) for APIs no other type speaks, configured
// the way AIPerf configures it, through --extra-inputs:
//   payload_template  the template: a named one (nv-embedqa), a file path, or the template text
//   response_field    optional JMESPath subset (jmespath.h) selecting the output in each answer;
//                     without it the answer's shape is auto-detected (detect_parser.h). With it a
//                     miss is an error for a whole body (AIPerf's strict mode).
// Every other --extra-inputs member is set at the top level of each body. There is no default
// path: --url (with its path) or --endpoint says where to send.
//
// The turn's texts (all --batch-size of them) are the template's `texts`. A row's own `extra` is
// merged into the rendered body when the body is built (before the run for single-turn loads).
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <system_error>

#include "endpoints/detect_parser.h"
#include "endpoints/parse_errors.h"
#include "endpoints/registry.h"
#include "endpoints/single_turn_checks.h"
#include "endpoints/template.h"

namespace servebench::endpoints {
namespace {

using Ordered = nlohmann::ordered_json;

constexpr std::string_view kWhat = "--extra-inputs payload_template";

Error usage(std::string m) { return Error{ErrorCode::kInvalidArgument, std::move(m)}; }

// The endpoint's options split out of --extra-inputs.
struct TemplateOptions {
  std::string source;          // the template text
  std::string response_field;  // "" = auto-detect
  std::string extras_json;     // the remaining members
};

std::string dump(const Ordered& j) {
  return j.dump(-1, ' ', false, Ordered::error_handler_t::replace);
}

// A named template, a readable file, or the text itself.
Result<std::string> resolve_source(const std::string& given) {
  if (auto named = named_template(given); !named.empty()) return std::string(named);
  if (given.find("{{") == std::string::npos) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(given, ec)) {
      std::ifstream in(given, std::ios::binary);
      std::ostringstream text;
      text << in.rdbuf();
      if (!in.good() && !in.eof())
        return tl::unexpected(usage(std::string(kWhat) + ": cannot read '" + excerpt(given) + "'"));
      return text.str();
    }
  }
  return given;
}

Result<TemplateOptions> split_options(const EndpointOptions& o, bool need_template) {
  TemplateOptions out;
  Ordered extra = Ordered::object();
  if (!o.extra_inputs_json.empty()) {
    extra = Ordered::parse(o.extra_inputs_json, nullptr, false);
    if (extra.is_discarded() || !extra.is_object())
      return tl::unexpected(usage("--extra-inputs: expected a JSON object"));
  }
  if (auto it = extra.find("payload_template"); it != extra.end()) {
    // A template that happens to be valid JSON arrives parsed; its text is its dump.
    out.source = it->is_string() ? it->get<std::string>() : dump(*it);
    extra.erase(it);
  } else if (need_template) {
    return tl::unexpected(usage(
        "--endpoint-type template needs --extra-inputs payload_template:<template text, file or "
        "nv-embedqa>, e.g. payload_template:'{\"text\": {{ text|tojson }}}'"));
  }
  if (auto it = extra.find("response_field"); it != extra.end()) {
    if (!it->is_string() || it->get<std::string>().empty())
      return tl::unexpected(usage(
          "--extra-inputs response_field: expected a JMESPath text such as data[0].embedding"));
    out.response_field = it->get<std::string>();
    extra.erase(it);
  }
  if (!extra.empty()) out.extras_json = dump(extra);
  return out;
}

class TemplateEndpoint final : public Endpoint {
 public:
  TemplateEndpoint(BodyTemplate body, std::shared_ptr<const JmesPath> field, std::string model)
      : body_(std::move(body)), field_(std::move(field)), model_(std::move(model)) {}

  std::string_view name() const override { return "template"; }
  std::string_view default_path() const override { return ""; }

  std::string render_body(const TurnPayload& turn) const override {
    std::vector<std::string_view> texts;
    texts.reserve(turn.messages.size());
    size_t bytes = 64;
    for (const Message& m : turn.messages) {
      texts.push_back(m.content);
      bytes += m.content.size() + 8;
    }
    std::string out;
    out.reserve(bytes * 2);
    BodyTemplate::Values v;
    v.texts = &texts;
    v.model = turn.model.empty() ? std::string_view(model_) : std::string_view(turn.model);
    v.max_tokens = turn.max_output_tokens;
    body_.render(v, &out);
    if (turn.extras != nullptr && !turn.extras->empty()) {
      std::string extra = "{";
      bool first = true;
      turn.extras->append_members(&extra, &first);
      extra.push_back('}');
      out = merge_body_extras(out, extra);
    }
    return out;
  }

  std::unique_ptr<EventParser> make_parser() const override {
    return make_detect_parser(field_, FieldMiss::kError);
  }

 private:
  BodyTemplate body_;
  std::shared_ptr<const JmesPath> field_;
  std::string model_;
};

Result<std::unique_ptr<Endpoint>> make_template_endpoint(const EndpointOptions& o) {
  auto opts = split_options(o, /*need_template=*/true);
  if (!opts) return tl::unexpected(opts.error());
  auto source = resolve_source(opts->source);
  if (!source) return tl::unexpected(source.error());
  if (source->find('{') == std::string::npos) {
    return tl::unexpected(
        usage(std::string(kWhat) + ": '" + excerpt(*source) +
              "' is neither a named template (nv-embedqa), a readable file, nor a "
              "JSON template with {{ ... }} placeholders"));
  }
  auto extras = BodyExtras::parse(opts->extras_json, "--extra-inputs");
  if (!extras) return tl::unexpected(extras.error());
  auto body = BodyTemplate::compile(*source, o.streaming, *extras, kWhat);
  if (!body) return tl::unexpected(body.error());
  std::shared_ptr<const JmesPath> field;
  if (!opts->response_field.empty()) {
    auto f = JmesPath::compile(opts->response_field, "--extra-inputs response_field");
    if (!f) return tl::unexpected(f.error());
    field = std::make_shared<const JmesPath>(std::move(*f));
  }
  return std::unique_ptr<Endpoint>(
      std::make_unique<TemplateEndpoint>(std::move(*body), std::move(field), o.model));
}

Status check_template_options(const OptionFacts& facts) {
  return check_single_text_turn("template", facts);
}

const EndpointSpec kTemplateSpec{
    .name = "template",
    .default_path = "",
    .capabilities = core::kCapStreams | core::kCapProducesTokens | core::kCapTokenizesInput,
    .metrics_title = "LLM Metrics",
    .artifact_name = "template",
    .batches_texts = true,
    .make_endpoint = &make_template_endpoint,
    .make_parser = []() { return make_detect_parser(nullptr, FieldMiss::kAutoDetect); },
    .check = &check_template_options,
};

const EndpointRegistrar kRegistrar{kTemplateSpec};

}  // namespace

// The response-field option of --extra-inputs, shared with the raw type (raw.cc).
Result<std::shared_ptr<const JmesPath>> response_field_option(const EndpointOptions& o) {
  auto opts = split_options(o, /*need_template=*/false);
  if (!opts) return tl::unexpected(opts.error());
  if (opts->response_field.empty()) return std::shared_ptr<const JmesPath>();
  auto f = JmesPath::compile(opts->response_field, "--extra-inputs response_field");
  if (!f) return tl::unexpected(f.error());
  return std::shared_ptr<const JmesPath>(std::make_shared<const JmesPath>(std::move(*f)));
}

}  // namespace servebench::endpoints
