#include "endpoints/responses_parser.h"

#include "endpoints/chatlike_parse.h"
#include "endpoints/json_walk.h"

namespace servebench::endpoints {
namespace {

using json::error_code;
using json::json_type;
using json::opt_string;
using json::raw_json_string;
using json::value;

// Calls on_item(value) for each element of `v` when it is an array; other types are skipped.
template <class Fn>
error_code for_each_element(value v, Fn&& on_item) {
  json_type t;
  if (auto e = v.type().get(t)) return e;
  if (t != json_type::array) return simdjson::SUCCESS;
  simdjson::ondemand::array arr;
  if (auto e = v.get_array().get(arr)) return e;
  for (auto item : arr) {
    value iv;
    if (auto e = item.get(iv)) return e;
    if (auto e = on_item(iv)) return e;
  }
  return simdjson::SUCCESS;
}

// Responses usage: input/output/total tokens and their details.
error_code read_responses_usage(value v, record::Usage* out) {
  return json::for_each_field_if_object(v, [out](raw_json_string key, value fv) -> error_code {
    if (key == "input_tokens") return json::opt_int(fv, &out->prompt_tokens);
    if (key == "output_tokens") return json::opt_int(fv, &out->completion_tokens);
    if (key == "total_tokens") return json::opt_int(fv, &out->total_tokens);
    if (key == "input_tokens_details") {
      return json::for_each_field_if_object(fv, [out](raw_json_string dk, value dv) {
        return dk == "cached_tokens" ? json::opt_int(dv, &out->prompt_cache_read_tokens)
                                     : error_code{simdjson::SUCCESS};
      });
    }
    if (key == "output_tokens_details") {
      return json::for_each_field_if_object(fv, [out](raw_json_string dk, value dv) {
        return dk == "reasoning_tokens" ? json::opt_int(dv, &out->reasoning_tokens)
                                        : error_code{simdjson::SUCCESS};
      });
    }
    return simdjson::SUCCESS;
  });
}

// What one payload carried; views point into the walker's buffers.
struct Extract {
  std::string_view type;
  std::string_view delta;
  std::string_view status;
  std::string_view incomplete_reason;
  record::Usage usage;
  json::ErrorFields error;           // top-level error / message
  json::ErrorFields response_error;  // response.error of response.failed
};

class ResponsesParser final : public json::JsonEventParser<ResponsesParser> {
 public:
  ParseStatus parse(std::string_view json, int64_t recv_ns, record::RequestRecord* rec) {
    ex_ = Extract{};
    content_.clear();
    reasoning_.clear();
    tool_.clear();
    if (error_code e = walker_.walk_object(
            json, [this](raw_json_string key, value v) { return on_top_field(key, v); })) {
      return set_malformed(json, rec, simdjson::error_message(e));
    }
    const std::string_view type = ex_.type;
    if (type == "error" || ex_.error.is_error)
      return set_server_error(ex_.error.message(), json, rec);
    if (type == "response.failed" || ex_.response_error.is_error) {
      return set_server_error(ex_.response_error.message(), json, rec);
    }
    if (type == "response.output_text.delta") {
      append_text_chunk(record::ChunkKind::kContent, ex_.delta, recv_ns, rec);
    } else if (type == "response.reasoning_text.delta" ||
               type == "response.reasoning_summary_text.delta") {
      append_text_chunk(record::ChunkKind::kReasoning, ex_.delta, recv_ns, rec);
    } else if (type == "response.function_call_arguments.delta") {
      append_text_chunk(record::ChunkKind::kToolCall, ex_.delta, recv_ns, rec);
    } else if (type == "response.completed" || type == "response.incomplete") {
      finish(rec);
      return ParseStatus::kDone;
    } else if (type.empty()) {  // a whole body
      append_whole_answer(content_, tool_, reasoning_, recv_ns, rec);
      finish(rec);
    }
    return ParseStatus::kOk;
  }

 private:
  void finish(record::RequestRecord* rec) const {
    if (ex_.usage.present()) rec->usage = ex_.usage;
    const std::string_view reason =
        !ex_.incomplete_reason.empty() ? ex_.incomplete_reason : ex_.status;
    if (!reason.empty()) rec->finish_reason.assign(reason);
  }

  // The fields of a response object (a whole body, or the `response` of a streamed event).
  // `read_output`: walk output[] (only for a whole body; streamed events repeat the text).
  error_code on_response_field(raw_json_string key, value v, bool read_output,
                               json::ErrorFields* error) {
    if (key == "usage") return read_responses_usage(v, &ex_.usage);
    if (key == "status") return opt_string(v, &ex_.status);
    if (key == "incomplete_details") {
      return json::for_each_field_if_object(v, [this](raw_json_string k, value rv) {
        return k == "reason" ? opt_string(rv, &ex_.incomplete_reason)
                             : error_code{simdjson::SUCCESS};
      });
    }
    if (key == "output" && read_output) {
      return for_each_element(v, [this](value item) { return read_output_item(item); });
    }
    return json::read_error_field(key, v, error);
  }

  error_code on_top_field(raw_json_string key, value v) {
    if (key == "type") return opt_string(v, &ex_.type);
    if (key == "delta") return opt_string(v, &ex_.delta);
    if (key == "response") {
      return json::for_each_field_if_object(v, [this](raw_json_string k, value rv) {
        return on_response_field(k, rv, false, &ex_.response_error);
      });
    }
    return on_response_field(key, v, true, &ex_.error);
  }

  // One output[] item: its kind decides where its text goes, and it may come after the text.
  error_code read_output_item(value item) {
    std::string_view item_type, name, arguments;
    item_text_.clear();
    item_summary_.clear();
    auto e = json::for_each_field_if_object(item, [&](raw_json_string key, value fv) {
      if (key == "type") return opt_string(fv, &item_type);
      if (key == "name") return opt_string(fv, &name);
      if (key == "arguments") return opt_string(fv, &arguments);
      if (key == "content") return read_parts(fv, &item_text_);
      if (key == "summary") return read_parts(fv, &item_summary_);
      return error_code{simdjson::SUCCESS};
    });
    if (e) return e;
    if (item_type == "message") {
      content_.append(item_text_);
    } else if (item_type == "reasoning") {
      reasoning_.append(item_summary_);
      reasoning_.append(item_text_);
    } else if (item_type == "function_call") {
      tool_.append(name);
      tool_.append(arguments);
    }
    return simdjson::SUCCESS;
  }

  // The `text` of every part (output_text, reasoning_text, summary_text); a refusal has none.
  static error_code read_parts(value v, std::string* out) {
    return for_each_element(v, [out](value part) {
      return json::for_each_field_if_object(part, [out](raw_json_string k, value pv) {
        if (!(k == "text")) return error_code{simdjson::SUCCESS};
        std::string_view text;
        if (auto e = opt_string(pv, &text)) return e;
        out->append(text);
        return error_code{simdjson::SUCCESS};
      });
    });
  }

  json::JsonWalker walker_;
  Extract ex_;
  std::string content_, reasoning_, tool_;
  std::string item_text_, item_summary_;
};

}  // namespace

std::unique_ptr<EventParser> make_responses_parser() { return std::make_unique<ResponsesParser>(); }

}  // namespace servebench::endpoints
