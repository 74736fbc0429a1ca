#include "endpoints/embeddings_parser.h"

#include "endpoints/json_walk.h"
#include "endpoints/whole_answer.h"

namespace servebench::endpoints {

namespace {

// What one body carried; views point into the walker's buffers.
struct Extract {
  int64_t items = -1;  // -1: no data array
  json::ErrorFields error;
};

class EmbeddingsParser final : public json::JsonEventParser<EmbeddingsParser> {
 public:
  // The trimmed payload of one event or body (JsonEventParser settled the rest).
  ParseStatus parse(std::string_view json, int64_t recv_ns, record::RequestRecord* rec) {
    Extract ex;
    record::Usage usage;
    const json::error_code e =
        walker_.walk_object(json, [&](json::raw_json_string key, json::value v) {
          if (key == "data") return json::count_array(v, &ex.items);
          if (key == "usage") return json::read_usage(v, &usage);
          return json::read_error_field(key, v, &ex.error);
        });
    if (e) return set_malformed(json, rec, simdjson::error_message(e));
    if (ex.error.is_error) return set_server_error(ex.error.message(), json, rec);
    if (ex.items < 0) return set_malformed(json, rec, "embeddings response without a data array");
    rec->output_items = (rec->output_items > 0 ? rec->output_items : 0) + ex.items;
    record::Usage kept;  // an embeddings answer has no completion: prompt and total counts only
    kept.prompt_tokens = usage.prompt_tokens;
    kept.total_tokens = usage.total_tokens;
    if (kept.present()) rec->usage = kept;
    mark_answer_arrival(rec, recv_ns);
    return ParseStatus::kOk;
  }

 private:
  json::JsonWalker walker_;
};

}  // namespace

std::unique_ptr<EventParser> make_embeddings_parser() {
  return std::make_unique<EmbeddingsParser>();
}

}  // namespace servebench::endpoints
