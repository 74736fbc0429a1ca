#include "endpoints/anthropic_parser.h"

#include <algorithm>

#include "endpoints/chatlike_parse.h"
#include "endpoints/json_walk.h"

namespace servebench::endpoints {
namespace {

using json::error_code;
using json::json_type;
using json::opt_int;
using json::opt_string;
using json::raw_json_string;
using json::value;

// Anthropic's own usage counts as the payload gave them (-1 = absent).
struct AnthropicUsage {
  int64_t input = -1;
  int64_t cache_read = -1;
  int64_t cache_write = -1;
  int64_t output = -1;
  bool any() const { return input >= 0 || cache_read >= 0 || cache_write >= 0 || output >= 0; }
};

error_code read_anthropic_usage(value v, AnthropicUsage* out) {
  return json::for_each_field_if_object(v, [out](raw_json_string key, value fv) -> error_code {
    if (key == "input_tokens") return opt_int(fv, &out->input);
    if (key == "output_tokens") return opt_int(fv, &out->output);
    if (key == "cache_read_input_tokens") return opt_int(fv, &out->cache_read);
    if (key == "cache_creation_input_tokens") return opt_int(fv, &out->cache_write);
    return simdjson::SUCCESS;
  });
}

int64_t or_zero(int64_t n) { return std::max<int64_t>(0, n); }

// Folds the counts of one payload into the record's usage (see the header for the mapping). A
// count the payload repeats replaces the earlier one; the uncached input of an earlier payload
// is kept when this one reports only cache counts.
void merge_usage(const AnthropicUsage& a, record::Usage* u) {
  const int64_t old_uncached = u->prompt_tokens >= 0
                                   ? u->prompt_tokens - or_zero(u->prompt_cache_read_tokens) -
                                         or_zero(u->prompt_cache_write_tokens)
                                   : -1;
  if (a.cache_read >= 0) u->prompt_cache_read_tokens = a.cache_read;
  if (a.cache_write >= 0) u->prompt_cache_write_tokens = a.cache_write;
  const int64_t uncached = a.input >= 0 ? a.input : old_uncached;
  if (uncached >= 0 && (a.input >= 0 || a.cache_read >= 0 || a.cache_write >= 0)) {
    u->prompt_tokens =
        uncached + or_zero(u->prompt_cache_read_tokens) + or_zero(u->prompt_cache_write_tokens);
  }
  if (a.output >= 0) u->completion_tokens = a.output;
  if (u->prompt_tokens >= 0 && u->completion_tokens >= 0)
    u->total_tokens = u->prompt_tokens + u->completion_tokens;
}

// A content block or a delta: its type and whichever text it carries.
struct Block {
  std::string_view type;
  std::string_view text;
  std::string_view thinking;
  std::string_view partial_json;
  std::string_view input;  // tool_use input, as JSON text
  std::string_view stop_reason;
};

error_code read_block(value v, Block* b) {
  return json::for_each_field_if_object(v, [b](raw_json_string key, value fv) -> error_code {
    if (key == "type") return opt_string(fv, &b->type);
    if (key == "text") return opt_string(fv, &b->text);
    if (key == "thinking") return opt_string(fv, &b->thinking);
    if (key == "partial_json") return opt_string(fv, &b->partial_json);
    if (key == "stop_reason") return opt_string(fv, &b->stop_reason);
    if (key == "input") {
      json_type t;
      if (auto e = fv.type().get(t)) return e;
      if (t != json_type::object) return opt_string(fv, &b->input);
      simdjson::ondemand::object obj;
      if (auto e = fv.get_object().get(obj)) return e;
      return obj.raw_json().get(b->input);
    }
    return simdjson::SUCCESS;
  });
}

struct Extract {
  std::string_view type;
  Block block;  // content_block (start) or delta
  AnthropicUsage usage;
  std::string_view stop_reason;
  json::ErrorFields error;
};

class AnthropicParser final : public json::JsonEventParser<AnthropicParser> {
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
    if (ex_.usage.any()) merge_usage(ex_.usage, &rec->usage);
    if (!ex_.stop_reason.empty()) rec->finish_reason.assign(ex_.stop_reason);
    const Block& b = ex_.block;
    if (type == "content_block_delta" || type == "content_block_start") {
      if (b.type == "text" || b.type == "text_delta") {
        append_text_chunk(record::ChunkKind::kContent, b.text, recv_ns, rec);
      } else if (b.type == "thinking" || b.type == "thinking_delta") {
        append_text_chunk(record::ChunkKind::kReasoning, b.thinking, recv_ns, rec);
      } else if (b.type == "input_json_delta") {
        append_text_chunk(record::ChunkKind::kToolCall, b.partial_json, recv_ns, rec);
      }
    } else if (type == "message") {  // a whole body
      append_whole_answer(content_, tool_, reasoning_, recv_ns, rec);
    } else if (type == "message_stop") {
      return ParseStatus::kDone;
    }
    return ParseStatus::kOk;
  }

 private:
  error_code on_top_field(raw_json_string key, value v) {
    if (key == "type") return opt_string(v, &ex_.type);
    if (key == "content_block" || key == "delta") {
      if (auto e = read_block(v, &ex_.block)) return e;
      if (!ex_.block.stop_reason.empty()) ex_.stop_reason = ex_.block.stop_reason;
      return simdjson::SUCCESS;
    }
    if (key == "message") {  // message_start: the message object without content yet
      return json::for_each_field_if_object(
          v, [this](raw_json_string k, value mv) { return on_message_field(k, mv); });
    }
    return on_message_field(key, v);
  }

  // The fields of a message object (a whole body, or message_start's `message`).
  error_code on_message_field(raw_json_string key, value v) {
    if (key == "usage") return read_anthropic_usage(v, &ex_.usage);
    if (key == "stop_reason") return opt_string(v, &ex_.stop_reason);
    if (key == "content") return read_content(v);
    return json::read_error_field(key, v, &ex_.error);
  }

  error_code read_content(value v) {
    json_type t;
    if (auto e = v.type().get(t)) return e;
    if (t != json_type::array) return simdjson::SUCCESS;
    simdjson::ondemand::array arr;
    if (auto e = v.get_array().get(arr)) return e;
    for (auto item : arr) {
      value iv;
      if (auto e = item.get(iv)) return e;
      Block b;
      if (auto e = read_block(iv, &b)) return e;
      if (b.type == "text") {
        content_.append(b.text);
      } else if (b.type == "thinking") {
        reasoning_.append(b.thinking);
      } else if (b.type == "tool_use") {
        tool_.append(b.input);
      }
    }
    return simdjson::SUCCESS;
  }

  json::JsonWalker walker_;
  Extract ex_;
  std::string content_, reasoning_, tool_;
};

}  // namespace

std::unique_ptr<EventParser> make_anthropic_parser() { return std::make_unique<AnthropicParser>(); }

}  // namespace servebench::endpoints
