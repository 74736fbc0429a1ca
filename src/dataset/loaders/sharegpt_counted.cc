#include "dataset/loaders/sharegpt_counted.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <vector>

#include "core/interrupt.h"
#include "dataset/loaders/parsers.h"

namespace servebench::dataset {
namespace {

struct Parsed {
  bool kept = false;
  bool has_id = false;
  std::string id;
  std::vector<FileTurn> turns;
  std::string error;  // a malformed element
};

// The array's object elements, as views into `text` (other elements hold no conversation).
Result<std::vector<std::string_view>> split_array(const std::string& text, const std::string& name) {
  simdjson::ondemand::parser parser;
  simdjson::ondemand::document doc;
  simdjson::ondemand::array items;
  const simdjson::padded_string_view padded(text.data(), text.size(), text.capacity());
  auto bad = [&](simdjson::error_code e) {
    return make_error(ErrorCode::kParse, fmt::format("{}: invalid JSON ({})", name, simdjson::error_message(e)));
  };
  if (auto e = parser.iterate(padded).get(doc); e) return bad(e);
  if (auto e = doc.get_array().get(items); e) {
    if (e == simdjson::INCORRECT_TYPE)
      return make_error(ErrorCode::kParse, fmt::format("{}: field '(root)': expected a JSON array of conversations", name));
    return bad(e);
  }
  std::vector<std::string_view> out;
  for (auto item : items) {
    simdjson::ondemand::value v;
    if (auto e = item.get(v); e) return bad(e);
    simdjson::ondemand::json_type type;
    if (auto e = v.type().get(type); e) return bad(e);
    if (type != simdjson::ondemand::json_type::object) continue;
    simdjson::ondemand::object o;
    std::string_view raw;
    if (auto e = v.get_object().get(o); e) return bad(e);
    if (auto e = o.raw_json().get(raw); e) return bad(e);
    out.push_back(raw);
    if ((out.size() & 1023) == 0 && core::interrupt_requested()) return parsers::interrupted(name);
  }
  return out;
}

Parsed parse_item(std::string_view raw, const ShareGptCountedOptions& o) {
  thread_local simdjson::dom::parser parser;
  Parsed p;
  simdjson::dom::element item;
  // The view lies inside the padded file buffer, so the bytes after it are readable padding.
  if (auto e = parser.parse(raw.data(), raw.size(), false).get(item); e) {
    p.error = simdjson::error_message(e);
    return p;
  }
  std::string_view id;
  // Once an exchange dooms the conversation, nothing after it is counted or kept: the workload
  // builder rejects the conversation at that exchange or earlier.
  bool doomed = false;
  p.kept = parsers::read_sharegpt_item(item, &id, &p.has_id, [&](std::string_view prompt, std::string_view reply) {
    FileTurn t;
    if (doomed) {
      t.texts.emplace_back();
      t.text_tokens = 0;
      t.expected_output_tokens = 0;
      p.turns.push_back(std::move(t));
      return;
    }
    t.texts.emplace_back(prompt);
    t.text_tokens = o.count(prompt);
    // A prompt that fails with an empty reply fails with any: its reply need not be counted.
    doomed = o.exchange_may_pass && !o.exchange_may_pass(t.text_tokens, 0);
    t.expected_output_tokens = doomed ? 0 : o.count(reply);
    doomed = doomed || (o.exchange_may_pass && !o.exchange_may_pass(t.text_tokens, t.expected_output_tokens));
    p.turns.push_back(std::move(t));
  });
  if (p.has_id) p.id = std::string(id);
  if (doomed)
    for (FileTurn& t : p.turns) t.texts = {std::string()};
  return p;
}

}  // namespace

Result<DatasetFile> parse_sharegpt_counted(std::string text, const ShareGptCountedOptions& o, const std::string& name) {
  text.reserve(text.size() + simdjson::SIMDJSON_PADDING);
  SB_TRY_ASSIGN(const std::vector<std::string_view> raws, split_array(text, name));
  std::vector<Parsed> parsed(raws.size());
  o.for_each(raws.size(), [&](size_t i) { parsed[i] = parse_item(raws[i], o); });
  if (core::interrupt_requested()) return parsers::interrupted(name);
  DatasetFile out;
  out.format = FileFormat::kShareGpt;
  for (auto& p : parsed) {
    if (!p.error.empty()) return make_error(ErrorCode::kParse, fmt::format("{}: invalid JSON ({})", name, p.error));
    if (!p.kept || p.turns.empty()) continue;
    FileConversation conv;
    conv.session_id = p.has_id ? std::move(p.id) : fmt::format("sharegpt-{}", out.conversations.size());
    conv.turns = std::move(p.turns);
    out.conversations.push_back(std::move(conv));
  }
  out.lines = static_cast<int64_t>(out.conversations.size());
  if (out.conversations.empty())
    return make_error(ErrorCode::kParse, fmt::format("{}: no usable conversations found", name));
  return out;
}

}  // namespace servebench::dataset
