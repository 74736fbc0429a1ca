#include "endpoints/template.h"

#include <cctype>
#include <nlohmann/json.hpp>

#include "endpoints/json_text.h"
#include "endpoints/parse_errors.h"

namespace servebench::endpoints {

namespace {

constexpr char kSlot = '\x01';  // stands for a placeholder in the skeleton while compiling
constexpr const char* kNames = "text, texts, model, max_tokens, stream, role";

struct Slot {
  BodyTemplate::Var var;
  BodyTemplate::Filter filter;
};

Error bad(std::string_view what, const std::string& why) {
  return Error{ErrorCode::kInvalidArgument, std::string(what) + ": " + why};
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

Result<BodyTemplate::Var> parse_var(std::string_view name, std::string_view what) {
  using V = BodyTemplate::Var;
  if (name == "text") return V::kText;
  if (name == "texts") return V::kTexts;
  if (name == "model") return V::kModel;
  if (name == "max_tokens") return V::kMaxTokens;
  if (name == "stream") return V::kStream;
  if (name == "role") return V::kRole;
  return tl::unexpected(bad(what, "unknown placeholder '" + excerpt(name) + "'; known: " + kNames));
}

Result<BodyTemplate::Filter> parse_filter(std::string_view name, std::string_view what) {
  if (name.empty()) return BodyTemplate::Filter::kNone;
  if (name == "tojson") return BodyTemplate::Filter::kToJson;
  if (name == "lower") return BodyTemplate::Filter::kLower;
  return tl::unexpected(bad(what, "unknown filter '" + excerpt(name) + "'; known: tojson, lower"));
}

// Splits `source` into a skeleton (kSlot where a placeholder was) and the placeholders in order.
// `stream` placeholders are rendered at once: the value is fixed for the run.
Status tokenize(std::string_view source, bool stream, std::string_view what, std::string* skeleton,
                std::vector<Slot>* slots, size_t* placeholders) {
  size_t i = 0;
  bool strip_next = false;
  while (i < source.size()) {
    const size_t open = source.find('{', i);
    const size_t lit_end = open == std::string_view::npos ? source.size() : open;
    std::string_view lit = source.substr(i, lit_end - i);
    if (strip_next) {
      while (!lit.empty() && is_space(lit.front())) lit.remove_prefix(1);
      strip_next = false;
    }
    skeleton->append(lit);
    if (open == std::string_view::npos) break;
    const char next = open + 1 < source.size() ? source[open + 1] : '\0';
    if (next == '%' || next == '#') {
      return tl::unexpected(
          bad(what, std::string("Jinja ") + (next == '%' ? "statements {% %}" : "comments {# #}") +
                        " are not supported; use {{ name|filter }} placeholders"));
    }
    if (next != '{') {
      skeleton->push_back('{');
      i = open + 1;
      continue;
    }
    const size_t close = source.find("}}", open + 2);
    if (close == std::string_view::npos)
      return tl::unexpected(bad(what, "'{{' without a closing '}}'"));
    std::string_view expr = source.substr(open + 2, close - open - 2);
    if (!expr.empty() && expr.front() == '-') {  // {{- : strip whitespace before
      expr.remove_prefix(1);
      while (!skeleton->empty() && is_space(skeleton->back())) skeleton->pop_back();
    }
    if (!expr.empty() && expr.back() == '-') {  // -}} : strip whitespace after
      expr.remove_suffix(1);
      strip_next = true;
    }
    expr = trim(expr);
    const size_t bar = expr.find('|');
    auto var = parse_var(trim(expr.substr(0, bar)), what);
    if (!var) return tl::unexpected(var.error());
    auto filter = parse_filter(
        bar == std::string_view::npos ? std::string_view() : trim(expr.substr(bar + 1)), what);
    if (!filter) return tl::unexpected(filter.error());
    ++*placeholders;
    if (*var == BodyTemplate::Var::kStream) {
      skeleton->append(*filter == BodyTemplate::Filter::kNone ? (stream ? "True" : "False")
                                                              : (stream ? "true" : "false"));
    } else {
      skeleton->push_back(kSlot);
      slots->push_back({*var, *filter});
    }
    i = close + 2;
  }
  return {};
}

// A member of the skeleton's top-level object: [start, end) and its key when the key is a plain
// literal string.
struct Member {
  size_t start = 0;
  size_t end = 0;
  std::string key;
  bool literal_key = false;
};

// Finds the top-level object's members; false when the skeleton is not one object.
bool scan_members(const std::string& s, size_t* open, size_t* close, std::vector<Member>* out) {
  size_t i = 0;
  while (i < s.size() && is_space(s[i])) ++i;
  if (i >= s.size() || s[i] != '{') return false;
  *open = i;
  int depth = 0;
  bool in_string = false;
  Member cur;
  bool in_member = false;
  for (size_t j = i; j < s.size(); ++j) {
    const char c = s[j];
    if (in_string) {
      if (c == '\\')
        ++j;
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (depth == 1 && !in_member && !is_space(c) && c != ',' && c != '}') {
      in_member = true;
      cur = Member{};
      cur.start = j;
      if (c == '"') {
        const size_t q = s.find('"', j + 1);
        if (q != std::string::npos) {
          cur.key = s.substr(j + 1, q - j - 1);
          cur.literal_key =
              cur.key.find('\\') == std::string::npos && cur.key.find(kSlot) == std::string::npos;
        }
      }
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      --depth;
      if (depth == 0) {
        if (in_member) {
          cur.end = j;
          out->push_back(cur);
        }
        *close = j;
        return true;
      }
    } else if (c == ',' && depth == 1 && in_member) {
      cur.end = j;
      out->push_back(cur);
      in_member = false;
    }
  }
  return false;
}

// AIPerf's payload.update(extras) on the skeleton: members with an extra's key are dropped and
// every extra member is appended.
void apply_extras(const BodyExtras& extras, std::string* skeleton, std::vector<Slot>* slots) {
  if (extras.empty()) return;
  size_t open = 0, close = 0;
  std::vector<Member> members;
  if (!scan_members(*skeleton, &open, &close, &members)) return;
  std::string out = skeleton->substr(0, open + 1);
  std::vector<Slot> kept_slots;
  size_t slot_index = 0;
  auto count_slots = [&](size_t from, size_t to, bool keep) {
    for (size_t k = from; k < to; ++k) {
      if ((*skeleton)[k] != kSlot) continue;
      if (keep) kept_slots.push_back((*slots)[slot_index]);
      ++slot_index;
    }
  };
  count_slots(0, open + 1, true);
  bool first = true;
  size_t prev_end = open + 1;
  for (const Member& m : members) {
    count_slots(prev_end, m.start, false);  // separators hold no slots
    const bool drop = m.literal_key && extras.has(m.key);
    std::string_view text = trim(std::string_view(*skeleton).substr(m.start, m.end - m.start));
    count_slots(m.start, m.end, !drop);
    prev_end = m.end;
    if (drop) continue;
    if (!first) out.push_back(',');
    first = false;
    out.append(text);
  }
  extras.append_members(&out, &first);
  count_slots(prev_end, close, false);
  count_slots(close, skeleton->size(), true);
  out.append(skeleton->substr(close));
  *skeleton = std::move(out);
  *slots = std::move(kept_slots);
}

// A string value: lower-cased for |lower; quoted for |tojson (and list items), else escaped but
// unquoted.
void append_text(std::string_view s, bool lower, bool quoted, std::string* out) {
  std::string lowered;
  if (lower) {
    lowered.assign(s);
    for (char& c : lowered) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    s = lowered;
  }
  const size_t at = out->size();
  append_json_string(s, out);
  if (quoted) return;
  out->pop_back();    // closing quote
  out->erase(at, 1);  // opening quote
}

}  // namespace

std::string_view named_template(std::string_view name) {
  if (name == "nv-embedqa") return R"({"text": {{ texts|tojson }}})";
  return {};
}

Result<BodyTemplate> BodyTemplate::compile(std::string_view source, bool stream,
                                           const BodyExtras& extras, std::string_view what) {
  // The marker byte stands for placeholders while compiling; JSON text cannot hold it raw.
  if (source.find(kSlot) != std::string_view::npos)
    return tl::unexpected(bad(what, "the template holds a raw control character (U+0001)"));
  std::string skeleton;
  std::vector<Slot> slots;
  BodyTemplate t;
  if (auto st = tokenize(source, stream, what, &skeleton, &slots, &t.placeholders_); !st)
    return tl::unexpected(st.error());
  if (t.placeholders_ == 0) {
    return tl::unexpected(
        bad(what,
            "the template has no {{ ... }} placeholder; put e.g. {{ text|tojson }} "
            "where the prompt goes"));
  }
  apply_extras(extras, &skeleton, &slots);
  size_t slot = 0;
  Segment seg;
  for (char c : skeleton) {
    if (c != kSlot) {
      seg.literal.push_back(c);
      continue;
    }
    seg.has_slot = true;
    seg.var = slots[slot].var;
    seg.filter = slots[slot].filter;
    ++slot;
    t.segments_.push_back(std::move(seg));
    seg = Segment{};
  }
  if (!seg.literal.empty()) t.segments_.push_back(std::move(seg));
  // A sample rendering must be one JSON object (AIPerf parses the rendered text the same way).
  const std::vector<std::string_view> sample_texts{"sample"};
  std::string sample;
  t.render(Values{&sample_texts, "model", 1, "user"}, &sample);
  auto parsed = nlohmann::json::parse(sample, nullptr, false);
  if (parsed.is_discarded() || !parsed.is_object()) {
    std::string shown = sample.substr(0, 160);
    for (char& c : shown) {
      if (c == '\n' || c == '\r') c = ' ';
    }
    return tl::unexpected(bad(what, "the template does not render a JSON object (sample: " + shown +
                                        "); quote values with |tojson"));
  }
  return t;
}

void BodyTemplate::render(const Values& v, std::string* out) const {
  static const std::vector<std::string_view> kNone;
  const std::vector<std::string_view>& texts = v.texts != nullptr ? *v.texts : kNone;
  for (const Segment& s : segments_) {
    out->append(s.literal);
    if (!s.has_slot) continue;
    switch (s.var) {
      case Var::kText:
        if (texts.empty()) {
          out->append("null");
        } else {
          append_text(texts.front(), s.filter == Filter::kLower, s.filter == Filter::kToJson, out);
        }
        break;
      case Var::kTexts:
        out->push_back('[');
        for (size_t i = 0; i < texts.size(); ++i) {
          if (i) out->push_back(',');
          append_text(texts[i], s.filter == Filter::kLower, /*quoted=*/true, out);
        }
        out->push_back(']');
        break;
      case Var::kModel:
        append_text(v.model, s.filter == Filter::kLower, s.filter == Filter::kToJson, out);
        break;
      case Var::kMaxTokens:
        out->append(v.max_tokens >= 0 ? std::to_string(v.max_tokens) : "null");
        break;
      case Var::kRole:
        append_text(v.role, s.filter == Filter::kLower, s.filter == Filter::kToJson, out);
        break;
      case Var::kStream:
        break;  // rendered at compile time
    }
  }
}

}  // namespace servebench::endpoints
