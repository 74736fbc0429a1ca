#include "endpoints/rankings_parser.h"

#include "endpoints/json_walk.h"
#include "endpoints/whole_answer.h"

namespace servebench::endpoints {

namespace {

struct Extract {
  int64_t items = -1;  // -1: the shape's list was not found
  json::ErrorFields error;
  record::Usage usage;
};

std::string_view list_key(RankingsShape shape) {
  return shape == RankingsShape::kNim ? "rankings" : "results";
}

class RankingsParser final : public json::JsonEventParser<RankingsParser> {
 public:
  explicit RankingsParser(RankingsShape shape) : shape_(shape) {}

  ParseStatus parse(std::string_view json, int64_t recv_ns, record::RequestRecord* rec) {
    Extract ex;
    bool list = false;
    const std::string_view key = list_key(shape_);
    const json::error_code e = walker_.walk_root(json, [&](json::value root) -> json::error_code {
      json::json_type t;
      if (auto err = root.type().get(t)) return err;
      if (t == json::json_type::array) {
        list = true;
        // TEI's bare list; for the other shapes a list is not an answer (walked, not counted).
        if (shape_ == RankingsShape::kTei) return json::count_array(root, &ex.items);
        int64_t ignored = -1;
        return json::count_array(root, &ignored);
      }
      json::object obj;
      if (auto err = root.get_object().get(obj)) return err;
      return json::for_each_field(obj, [&](json::raw_json_string k, json::value v) {
        if (k == key) return json::count_array(v, &ex.items);
        if (k == "usage") return json::read_usage(v, &ex.usage);
        return json::read_error_field(k, v, &ex.error);
      });
    });
    if (e == simdjson::SCALAR_DOCUMENT_AS_VALUE)
      return set_malformed(json, rec, "rankings response is not a JSON object or list");
    if (e) return set_malformed(json, rec, simdjson::error_message(e));
    if (ex.error.is_error) return set_server_error(ex.error.message(), json, rec);
    if (list && shape_ != RankingsShape::kTei)
      return set_malformed(json, rec, "rankings response is a bare list, not an object");
    if (ex.items < 0) {
      return set_malformed(json, rec,
                           shape_ == RankingsShape::kTei
                               ? "rankings response is neither a list nor has a results array"
                               : "rankings response without a " + std::string(key) + " array");
    }
    rec->output_items = (rec->output_items > 0 ? rec->output_items : 0) + ex.items;
    record::Usage kept;  // a ranking has no completion: prompt and total counts only
    kept.prompt_tokens = ex.usage.prompt_tokens;
    kept.total_tokens = ex.usage.total_tokens;
    if (kept.present()) rec->usage = kept;
    mark_answer_arrival(rec, recv_ns);
    return ParseStatus::kOk;
  }

 private:
  RankingsShape shape_;
  json::JsonWalker walker_;
};

}  // namespace

std::unique_ptr<EventParser> make_rankings_parser(RankingsShape shape) {
  return std::make_unique<RankingsParser>(shape);
}

}  // namespace servebench::endpoints
