// BodyTemplate: the request-body template of the `template` endpoint type, a JSON text with
// Jinja-style `{{ ... }}` placeholders, compiled once before the run; per request only the
// placeholders' values are spliced between the pre-rendered literal parts.
//
// Placeholders: `{{ name }}` or `{{ name|filter }}` (whitespace inside the braces is free).
//   names    text       the turn's first text (null when it has none)
//            texts      all texts of the turn (a list)
//            model      the request's model
//            max_tokens the turn's output-token limit (null when the server decides)
//            stream     whether --streaming is set
//            role       the turn's role ("user")
//   filters  tojson     the value as JSON: a quoted, escaped string, a list, a number, true/false
//                       or null
//            lower      lower-case text (`{{ stream|lower }}` gives true/false)
//   Without a filter a string is inserted JSON-escaped but unquoted (so "{{ text }}" inside a
//   JSON string stays valid), a list as JSON, a number as digits, null as null, and a boolean as
//   Jinja prints it (True/False; use tojson or lower in JSON).
// Jinja statements ({% ... %}), comments ({# ... #}), other names and filters are compile
// errors that name what is supported.
//
// compile() checks the template: at least one placeholder, and a sample rendering (text
// "sample", model "model", max_tokens 1) must be one JSON object. `extras` (already without
// payload_template and response_field) are then set as top-level members the way AIPerf's
// payload.update does: a template member with the same literal key is removed and the extra
// member is appended at the end.
//
// Thread safety: immutable after compile(); render() may be called from any thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "endpoints/body_extras.h"

namespace servebench::endpoints {

class BodyTemplate {
 public:
  enum class Var { kText, kTexts, kModel, kMaxTokens, kStream, kRole };
  enum class Filter { kNone, kToJson, kLower };

  struct Values {
    const std::vector<std::string_view>* texts = nullptr;  // may be null (no texts)
    std::string_view model;
    int64_t max_tokens = -1;  // -1: null
    std::string_view role = "user";
  };

  // `what` names the template's origin in errors (e.g. "--extra-inputs payload_template").
  static Result<BodyTemplate> compile(std::string_view source, bool stream,
                                      const BodyExtras& extras, std::string_view what);

  void render(const Values& values, std::string* out) const;
  size_t placeholder_count() const { return placeholders_; }

 private:
  struct Segment {
    std::string literal;  // rendered before the placeholder
    bool has_slot = false;
    Var var = Var::kText;
    Filter filter = Filter::kNone;
  };

  std::vector<Segment> segments_;
  size_t placeholders_ = 0;
};

// The templates AIPerf names: "nv-embedqa" → {"text": {{ texts|tojson }}}. Empty when `name` is
// not one of them.
std::string_view named_template(std::string_view name);

}  // namespace servebench::endpoints
