// Template: a native renderer for the Jinja subset that chat templates use, with the settings
// Hugging Face `transformers` renders them with (trim_blocks, lstrip_blocks, no autoescape,
// loop controls, raise_exception and strftime_now as globals, tojson without key sorting or
// HTML escaping).
//
// Supported: text, {{ }}, comments, whitespace control; if/elif/else, for (tuple targets,
// "if" filter, else, loop.index/index0/revindex/revindex0/first/last/length/previtem/nextitem,
// break/continue), set (names, tuples, ns.attr, block set), macro (defaults, keyword
// arguments, recursion), call blocks, filter blocks, generation blocks; literals, lists,
// dicts, tuples, attribute/item access, slicing, calls, filters, tests, arithmetic, ~,
// comparisons, in/not in, and/or/not, x if c else y; globals range, namespace, dict,
// raise_exception, strftime_now. Anything else is a TemplateError naming the line.
//
// Thread safety: a parsed Template is immutable; render() may run on several threads at once.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "core/result.h"
#include "jinja/value.h"

namespace servebench::jinja {

struct Node;

struct RenderOptions {
  // strftime_now(format): the wall clock by default; tests pass a fixed time (seconds since
  // the Unix epoch, local time zone).
  std::function<std::string(const std::string& format)> strftime_now;
};

class Template {
 public:
  // Errors: kParse, "template line N: <what>".
  static core::Result<Template> parse(std::string_view source);

  // `context` is a dict of the variables the template sees (messages, tools, bos_token, ...).
  // Errors: kInvalidArgument for raise_exception ("template line N: raised: <message>") and
  // kParse for any other failure while rendering.
  core::Result<std::string> render(const Value& context, const RenderOptions& options = {}) const;

 private:
  std::shared_ptr<const std::vector<std::unique_ptr<Node>>> body_;
};

}  // namespace servebench::jinja
