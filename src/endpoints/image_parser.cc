#include "endpoints/image_parser.h"

#include "endpoints/json_walk.h"
#include "endpoints/whole_answer.h"

namespace servebench::endpoints {

namespace {

// What one body or event carried; views point into the walker's buffers.
struct Extract {
  int64_t data_items = -1;  // -1: no data array
  bool has_b64 = false;     // a top-level b64_json (a streamed image)
  bool partial = false;     // a partial_image_index, or a partial_image event type
  bool completed = false;   // an image_generation.completed / image_edit.completed type
  json::ErrorFields error;
};

json::error_code read_type(json::value v, Extract* ex) {
  std::string_view type;
  if (auto e = json::opt_string(v, &type)) return e;
  if (type.ends_with(".partial_image")) ex->partial = true;
  if (type.ends_with(".completed")) ex->completed = true;
  return simdjson::SUCCESS;
}

json::error_code read_partial_index(json::value v, Extract* ex) {
  json::json_type t;
  if (auto e = v.type().get(t)) return e;
  if (t != json::json_type::null) ex->partial = true;
  return simdjson::SUCCESS;
}

class ImageParser final : public json::JsonEventParser<ImageParser> {
 public:
  // The trimmed payload of one event or body (JsonEventParser settled the rest).
  ParseStatus parse(std::string_view json, int64_t recv_ns, record::RequestRecord* rec) {
    Extract ex;
    record::Usage usage;
    const json::error_code e =
        walker_.walk_object(json, [&](json::raw_json_string key, json::value v) {
          if (key == "data") return json::count_array(v, &ex.data_items);
          if (key == "b64_json") {
            ex.has_b64 = true;
            return simdjson::SUCCESS;
          }
          if (key == "type") return read_type(v, &ex);
          if (key == "partial_image_index") return read_partial_index(v, &ex);
          if (key == "usage") return json::read_usage(v, &usage);
          return json::read_error_field(key, v, &ex.error);
        });
    if (e) return set_malformed(json, rec, simdjson::error_message(e));
    if (ex.error.is_error) return set_server_error(ex.error.message(), json, rec);
    int64_t images = 0;
    if (ex.data_items >= 0) {
      images = ex.data_items;
    } else if (ex.has_b64 || ex.completed) {
      images = ex.completed || !ex.partial ? 1 : 0;
    } else {
      return set_malformed(json, rec, "image response without a data array or b64_json");
    }
    rec->output_items = (rec->output_items > 0 ? rec->output_items : 0) + images;
    if (usage.present()) rec->usage = usage;
    mark_answer_arrival(rec, recv_ns);
    return ParseStatus::kOk;
  }

 private:
  json::JsonWalker walker_;
};

}  // namespace

std::unique_ptr<EventParser> make_image_parser() { return std::make_unique<ImageParser>(); }

}  // namespace servebench::endpoints
