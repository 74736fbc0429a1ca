// Endpoint, credentials and tokenizer flags (config/flag_table.h).
#include <fmt/format.h>

#include "config/cli_options.h"
#include "config/flag_kinds.h"
#include "config/url.h"
#include "core/secrets.h"
#include "endpoints/registry.h"

namespace servebench::config {
namespace {

using namespace flags;  // NOLINT: the builders read as a table

Result<std::string> normalize_header(const std::string& h) {
  const size_t colon = h.find(':');
  // The argument is not echoed: a header without ':' may still be a credential.
  if (colon == std::string::npos || colon == 0)
    return usage(
        "-H/--header needs 'Name: value'; an argument has no header name before ':' (not shown: it "
        "may "
        "hold a credential)");
  std::string name = h.substr(0, colon);
  std::string value = h.substr(colon + 1);
  while (!value.empty() && value.front() == ' ') value.erase(value.begin());
  while (!name.empty() && name.back() == ' ') name.pop_back();
  return name + ": " + value;
}

// -u/--url: validated base URLs; user info becomes one Basic Authorization header.
Status apply_urls(const FlagInput& in, C* c) {
  std::string basic;
  for (const auto& text : in.texts) {
    auto u = parse_base_url(text);
    if (!u) return tl::unexpected(u.error());
    c->urls.push_back(u->url);
    if (!u->has_user_info) continue;
    const std::string header = u->basic_auth_header();
    if (!basic.empty() && header != basic)
      return usage(
          "-u/--url: the URLs carry different user:password@ credentials; use one for all, or send "
          "credentials with -H 'Authorization: ...'");
    basic = header;
  }
  if (!basic.empty()) {
    c->headers.insert(c->headers.begin(), basic);
    c->url_basic_auth = true;
  }
  return {};
}

Status apply_headers(const FlagInput& in, C* c) {
  for (const auto& h : in.texts) {
    auto n = normalize_header(h);
    if (!n) return tl::unexpected(n.error());
    c->headers.push_back(*n);
  }
  return {};
}

}  // namespace

void add_endpoint_flags(std::vector<FlagSpec>* out) {
  {
    FlagSpec s = base("-m,--model,--model-names", "Model name(s); the first is sent",
                      "/endpoint/model_names");
    s.arity = FlagArity::kList;
    s.delimiter = ',';
    s.apply = [](const FlagInput& in, C* c) -> Status {
      c->models = in.texts;
      return {};
    };
    s.to_json = field_json(&C::models);
    out->push_back(std::move(s));
  }
  {
    FlagSpec s = base("-u,--url",
                      "Server base URL(s), repeatable: round robin. "
                      "http(s)://[user:pass@]host[:port][/path][?query]; "
                      "user:pass@ is sent as Basic auth, the query after the endpoint path",
                      "/endpoint/urls");
    s.arity = FlagArity::kList;
    s.delimiter = ',';
    s.default_text = "http://localhost:8000";
    s.apply = apply_urls;
    s.to_json = field_json(&C::urls);
    out->push_back(std::move(s));
  }
  // The endpoint registry names the types; this flag only carries the name to it.
  out->push_back(string_flag("--endpoint-type", "API type: " + endpoints::type_names(),
                             &C::endpoint_type, false, "/endpoint/type"));
  out->push_back(count_flag("-b,--batch-size,--batch-size-text,--prompt-batch-size", "--batch-size",
                            "Texts per request (embeddings; default 1)", &C::batch_size, 1,
                            "/input/prompt/batch_size"));
  {
    FlagSpec s =
        string_flag("--custom-endpoint,--endpoint", "URL path overriding the type's default",
                    &C::custom_endpoint, true, "/endpoint/custom_endpoint");
    s.apply = [](const FlagInput& in, C* c) -> Status {
      c->custom_endpoint = in.text;
      // A path, not a URL: the scheme and host belong in --url (AIPerf joins the two).
      if (in.text.find("://") != std::string::npos ||
          in.text.find_first_of(" \t\r\n#") != std::string::npos) {
        return make_error(ErrorCode::kInvalidArgument,
                          "--endpoint takes a URL path, not a URL (it may carry a key, so it is "
                          "not echoed); give a path such as /v1/chat/completions and put the "
                          "scheme and host in --url");
      }
      if (!c->custom_endpoint.empty() && c->custom_endpoint.front() != '/')
        c->custom_endpoint.insert(c->custom_endpoint.begin(), '/');
      return {};
    };
    out->push_back(std::move(s));
  }
  out->push_back(switch_flag("--streaming", "Request SSE streaming (needed for TTFT/ITL)",
                             &C::streaming, "/endpoint/streaming"));
  {
    FlagSpec s = string_flag(
        "--api-key",
        "Sent as 'Authorization: Bearer <key>' ('x-api-key' for messages; never exported)",
        &C::api_key, true, "/endpoint/api_key");
    s.to_json = [](const C& c) {
      return c.api_key.empty() ? JsonValue(nullptr) : JsonValue("<redacted>");
    };
    out->push_back(std::move(s));
  }
  {
    std::string harmless;
    for (std::string_view h : core::secrets::harmless_headers())
      harmless += (harmless.empty() ? "" : ", ") + std::string(h);
    FlagSpec s = base("-H,--header",
                      "Extra HTTP header 'Name: value' (repeatable). Values are redacted in every "
                      "output, except for " +
                          harmless,
                      "/input/headers");
    s.arity = FlagArity::kList;
    s.apply = apply_headers;
    s.to_json = [](const C& c) {
      std::vector<std::string> shown;
      for (const auto& h : c.headers) shown.push_back(core::secrets::redact_header_line(h));
      return JsonValue(shown);
    };
    out->push_back(std::move(s));
  }
  {
    FlagSpec s = base("--extra-inputs",
                      "key:value or JSON object merged into every body (repeat the flag for more)",
                      "/input/extra");
    s.arity = FlagArity::kList;
    s.one_value_per_use = true;
    s.apply = [](const FlagInput& in, C* c) -> Status {
      auto extra = merge_extra_inputs(in.texts);
      if (!extra) return tl::unexpected(extra.error());
      c->extra_inputs_json = *extra;
      return {};
    };
    s.to_json = [](const C& c) {
      return RawJson{c.extra_inputs_json.empty() ? "{}" : c.extra_inputs_json};
    };
    out->push_back(std::move(s));
  }
  out->push_back(seconds_flag("--request-timeout-seconds", "--request-timeout-seconds",
                              "Whole-request timeout", &C::request_timeout_ns, false,
                              "/endpoint/timeout_seconds"));
  out->push_back(choice_flag<int>(
      "--http-version", "--http-version", "1.1 or 2 (HTTP/2 multiplexing)", &C::http_version,
      {{"1.1", 1}, {"1", 1}, {"2", 2}, {"2.0", 2}}, "1.1 or 2", false, "/endpoint/http_version"));
  out->push_back(switch_flag("--insecure",
                             "Do not verify TLS certificates (self-signed test servers)",
                             &C::insecure_tls, "/endpoint/insecure_tls"));
  out->push_back(choice_flag<ConnectionReuse>(
      "--connection-reuse-strategy", "--connection-reuse-strategy",
      "pooled, never, sticky-user-sessions", &C::connection_reuse,
      {{"pooled", ConnectionReuse::kPooled},
       {"never", ConnectionReuse::kNever},
       {"sticky-user-sessions", ConnectionReuse::kStickyUserSessions},
       {"sticky_user_sessions", ConnectionReuse::kStickyUserSessions}},
      "pooled, never or sticky-user-sessions", false, "/endpoint/connection_reuse_strategy"));
  out->push_back(switch_flag("--use-legacy-max-tokens",
                             "Send max_tokens instead of max_completion_tokens",
                             &C::use_legacy_max_tokens, "/endpoint/use_legacy_max_tokens"));
  out->push_back(switch_flag("--use-server-token-count", "Use the server's usage for token counts",
                             &C::use_server_token_count, "/endpoint/use_server_token_count"));
  out->push_back(switch_flag("--per-chunk-usage",
                             "chat, streamed: ask for usage on every chunk "
                             "(stream_options.continuous_usage_stats; vLLM, TensorRT-LLM) so ITL "
                             "subtracts the first chunk's real token count; needs "
                             "--use-server-token-count",
                             &C::per_chunk_usage, "/endpoint/per_chunk_usage"));
  out->push_back(switch_flag("--download-video-content",
                             "video_generation: download the finished video (in request latency)",
                             &C::download_video_content, "/endpoint/download_video_content"));
  // Tokenizer.
  out->push_back(string_flag("--tokenizer", "builtin, simple, a tokenizer.json path or a hub id",
                             &C::tokenizer, false, "/tokenizer/name"));
  out->push_back(string_flag("--tokenizer-revision", "Hub revision", &C::tokenizer_revision, false,
                             "/tokenizer/revision"));
}

}  // namespace servebench::config
