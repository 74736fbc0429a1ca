#include "responses.h"

#include "core/json_text.h"

#include <cstdio>

namespace servebench::mock {
namespace {

void append_int(int64_t v, std::string* out) {
  char buf[24];
  const int n = std::snprintf(buf, sizeof(buf), "%lld", static_cast<long long>(v));
  out->append(buf, static_cast<size_t>(n));
}

void append_head(const ResponseHead& head, const char* object, std::string* out) {
  out->append("{\"id\":\"");
  out->append(head.id);
  out->append("\",\"object\":\"");
  out->append(object);
  out->append("\",\"created\":");
  append_int(head.created_s, out);
  out->append(",\"model\":");
  out->append(head.model_json);
}

void append_quoted(std::string_view text, std::string* out) { core::append_json_string(text, out); }

void append_usage_object(const UsageCounts& u, std::string* out) {
  out->append("{\"prompt_tokens\":");
  append_int(u.prompt_tokens, out);
  out->append(",\"total_tokens\":");
  append_int(u.prompt_tokens + u.completion_tokens, out);
  out->append(",\"completion_tokens\":");
  append_int(u.completion_tokens, out);
  if (u.spec_steps >= 0) {
    out->append(",\"spec_verify_ct\":");
    append_int(u.spec_steps, out);
    out->append(",\"spec_accept_token_num\":");
    append_int(u.spec_accepted, out);
    out->append(",\"spec_draft_token_num\":");
    append_int(u.spec_draft, out);
  }
  if (u.cached_tokens < 0) {
    out->append(",\"prompt_tokens_details\":null}");
  } else {
    out->append(",\"prompt_tokens_details\":{\"cached_tokens\":");
    append_int(u.cached_tokens, out);
    out->append("}}");
  }
}

void append_finish(const char* finish_reason, std::string* out) {
  if (finish_reason == nullptr) {
    out->append("\"finish_reason\":null");
  } else {
    out->append("\"finish_reason\":\"");
    out->append(finish_reason);
    out->append("\",\"stop_reason\":null");
  }
}

}  // namespace

void append_json_string(std::string_view text, std::string* out) { append_quoted(text, out); }
void append_json_int(int64_t value, std::string* out) { append_int(value, out); }

std::string json_quote(std::string_view text) {
  std::string out;
  append_quoted(text, &out);
  return out;
}

void append_chat_role_event(const ResponseHead& head, std::string* out) {
  out->append("data: ");
  append_head(head, "chat.completion.chunk", out);
  out->append(
      ",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},"
      "\"logprobs\":null,\"finish_reason\":null}]}\n\n");
}

void append_chat_token_event(const ResponseHead& head, std::string_view text, bool reasoning,
                             const char* finish_reason, std::string* out) {
  out->append("data: ");
  append_head(head, "chat.completion.chunk", out);
  out->append(reasoning ? ",\"choices\":[{\"index\":0,\"delta\":{\"reasoning_content\":"
                        : ",\"choices\":[{\"index\":0,\"delta\":{\"content\":");
  append_quoted(text, out);
  out->append("},\"logprobs\":null,");
  append_finish(finish_reason, out);
  out->append("}]}\n\n");
}

void append_event_usage(const UsageCounts& usage, std::string* out) {
  if (out->size() < 3 || out->compare(out->size() - 3, 3, "}\n\n") != 0) return;
  out->resize(out->size() - 3);
  out->append(",\"usage\":");
  append_usage_object(usage, out);
  out->append("}\n\n");
}

void append_chat_tool_event(const ResponseHead& head, std::string_view text, bool first,
                            const char* finish_reason, std::string* out) {
  out->append("data: ");
  append_head(head, "chat.completion.chunk", out);
  out->append(",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,");
  if (first) {
    out->append("\"id\":\"call_0\",\"type\":\"function\",\"function\":{\"name\":");
    append_quoted(kToolName, out);
    out->append(",\"arguments\":");
  } else {
    out->append("\"function\":{\"arguments\":");
  }
  append_quoted(text, out);
  out->append("}}]},\"logprobs\":null,");
  append_finish(finish_reason, out);
  out->append("}]}\n\n");
}

void append_completion_token_event(const ResponseHead& head, std::string_view text,
                                   const char* finish_reason, std::string* out) {
  out->append("data: ");
  append_head(head, "text_completion", out);
  out->append(",\"choices\":[{\"index\":0,\"text\":");
  append_quoted(text, out);
  out->append(",\"logprobs\":null,");
  if (finish_reason == nullptr) {
    out->append("\"finish_reason\":null,\"stop_reason\":null");
  } else {
    append_finish(finish_reason, out);
  }
  out->append("}]}\n\n");
}

void append_usage_event(const ResponseHead& head, bool chat, const UsageCounts& usage,
                        std::string* out) {
  out->append("data: ");
  append_head(head, chat ? "chat.completion.chunk" : "text_completion", out);
  out->append(",\"choices\":[],\"usage\":");
  append_usage_object(usage, out);
  out->append("}\n\n");
}

void append_done_event(std::string* out) { out->append("data: [DONE]\n\n"); }

void append_error_event(std::string_view message, int code, std::string* out) {
  out->append("data: {\"error\":{\"message\":");
  append_quoted(message, out);
  out->append(",\"type\":\"InternalServerError\",\"param\":null,\"code\":");
  append_int(code, out);
  out->append("}}\n\n");
}

void append_malformed_event(const ResponseHead& head, std::string* out) {
  out->append("data: ");
  append_head(head, "chat.completion.chunk", out);
  out->append(",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"\n\n");
}

std::string chat_completion_body(const ResponseHead& head, std::string_view content,
                                 std::string_view reasoning, const char* finish_reason,
                                 const UsageCounts& usage, bool tool_call) {
  std::string out;
  out.reserve(content.size() + reasoning.size() + 320);
  append_head(head, "chat.completion", &out);
  out.append(",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",");
  if (!reasoning.empty()) {
    out.append("\"reasoning_content\":");
    append_quoted(reasoning, &out);
    out.push_back(',');
  }
  if (tool_call) {
    out.append("\"content\":null,\"tool_calls\":[{\"id\":\"call_0\",\"type\":\"function\","
               "\"function\":{\"name\":");
    append_quoted(kToolName, &out);
    out.append(",\"arguments\":");
    append_quoted(content, &out);
    out.append("}}]},\"logprobs\":null,");
  } else {
    out.append("\"content\":");
    append_quoted(content, &out);
    out.append(",\"tool_calls\":[]},\"logprobs\":null,");
  }
  append_finish(finish_reason, &out);
  out.append("}],\"usage\":");
  append_usage_object(usage, &out);
  out.append(",\"prompt_logprobs\":null}");
  return out;
}

std::string completion_body(const ResponseHead& head, std::string_view text,
                            const char* finish_reason, const UsageCounts& usage) {
  std::string out;
  out.reserve(text.size() + 256);
  append_head(head, "text_completion", &out);
  out.append(",\"choices\":[{\"index\":0,\"text\":");
  append_quoted(text, &out);
  out.append(",\"logprobs\":null,");
  append_finish(finish_reason, &out);
  out.append(",\"prompt_logprobs\":null}],\"usage\":");
  append_usage_object(usage, &out);
  out.append("}");
  return out;
}

std::string error_body(std::string_view message, std::string_view type, int code) {
  std::string out = "{\"error\":{\"message\":";
  append_quoted(message, &out);
  out.append(",\"type\":");
  append_quoted(type, &out);
  out.append(",\"param\":null,\"code\":");
  append_int(code, &out);
  out.append("}}");
  return out;
}

}  // namespace servebench::mock
