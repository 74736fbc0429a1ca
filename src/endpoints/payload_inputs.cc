#include "endpoints/payload_inputs.h"

#include <nlohmann/json.hpp>

namespace servebench::endpoints {

namespace {

using Json = nlohmann::ordered_json;

void add_string(const Json& obj, const char* key, PayloadInputs* out) {
  auto it = obj.find(key);
  if (it != obj.end() && it->is_string() && !it->get_ref<const std::string&>().empty())
    out->texts.push_back(it->get<std::string>());
}

void walk_item(const Json& item, PayloadInputs* out) {
  if (auto c = item.find("content"); c != item.end()) {
    if (c->is_string()) {
      out->texts.push_back(c->get<std::string>());
    } else if (c->is_array()) {
      for (const Json& part : *c) {
        if (!part.is_object()) continue;
        const std::string type = part.value("type", "");
        if (type != "text" && type != "input_text") continue;
        if (auto t = part.find("text"); t != part.end() && t->is_string())
          out->texts.push_back(t->get<std::string>());
      }
    }
  }
  if (auto calls = item.find("tool_calls"); calls != item.end() && calls->is_array()) {
    for (const Json& call : *calls) {
      if (!call.is_object()) continue;
      auto fn = call.find("function");
      if (fn == call.end() || !fn->is_object()) continue;
      add_string(*fn, "name", out);
      add_string(*fn, "arguments", out);
    }
  }
  const std::string type = item.value("type", "");
  if (type == "function_call") {
    add_string(item, "name", out);
    add_string(item, "arguments", out);
  } else if (type == "function_call_output") {
    add_string(item, "output", out);
  }
}

bool walk_items(const Json& body, PayloadInputs* out) {
  bool found = false;
  for (const char* key : {"messages", "input"}) {
    auto it = body.find(key);
    if (it == body.end() || !it->is_array() || it->empty()) continue;
    bool items = false;
    for (const Json& i : *it) items |= i.is_object() && (i.contains("role") || i.contains("type"));
    if (!items) continue;
    found = true;
    for (const Json& i : *it) {
      if (i.is_object()) walk_item(i, out);
    }
  }
  return found;
}

void walk_tools(const Json& body, PayloadInputs* out) {
  auto tools = body.find("tools");
  if (tools == body.end() || !tools->is_array()) return;
  for (const Json& tool : *tools) {
    if (!tool.is_object()) continue;
    const Json* sources[2] = {nullptr, &tool};
    if (auto fn = tool.find("function"); fn != tool.end() && fn->is_object()) sources[0] = &*fn;
    for (const Json* src : sources) {
      if (src == nullptr) continue;
      add_string(*src, "name", out);
      add_string(*src, "description", out);
      if (auto p = src->find("parameters"); p != src->end() && p->is_object())
        out->texts.push_back(p->dump(-1, ' ', false, Json::error_handler_t::replace));
    }
  }
}

bool string_or_list(const Json& body, const char* key, PayloadInputs* out) {
  auto it = body.find(key);
  if (it == body.end()) return false;
  if (it->is_string()) {
    out->texts.push_back(it->get<std::string>());
    return true;
  }
  if (!it->is_array()) return false;
  bool strings = true, ints = !it->empty(), int_lists = !it->empty();
  for (const Json& v : *it) {
    strings &= v.is_string();
    ints &= v.is_number_integer();
    bool list = v.is_array();
    if (list) {
      for (const Json& t : v) list &= t.is_number_integer();
    }
    int_lists &= list;
  }
  if (strings) {
    for (const Json& v : *it) out->texts.push_back(v.get<std::string>());
  } else if (ints) {
    out->token_ids += static_cast<int64_t>(it->size());
  } else if (int_lists) {
    for (const Json& v : *it) out->token_ids += static_cast<int64_t>(v.size());
  } else {
    return false;
  }
  return true;
}

bool query_passages(const Json& body, PayloadInputs* out) {
  auto q = body.find("query");
  if (q == body.end()) return false;
  const Json* query = &*q;
  if (query->is_object()) {
    auto t = query->find("text");
    if (t == query->end()) return false;
    query = &*t;
  }
  if (!query->is_string()) return false;
  const Json* passages = nullptr;
  for (const char* key : {"passages", "documents", "texts"}) {
    auto it = body.find(key);
    if (it != body.end() && it->is_array()) {
      passages = &*it;
      break;
    }
  }
  if (passages == nullptr) return false;
  out->texts.push_back(query->get<std::string>());
  for (const Json& p : *passages) {
    if (p.is_string()) {
      out->texts.push_back(p.get<std::string>());
    } else if (p.is_object()) {
      if (auto t = p.find("text"); t != p.end() && t->is_string())
        out->texts.push_back(t->get<std::string>());
    }
  }
  return true;
}

}  // namespace

PayloadInputs payload_inputs(std::string_view body) {
  PayloadInputs out;
  const Json j = Json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return out;
  const bool items = walk_items(j, &out);
  walk_tools(j, &out);
  if (!items) {
    if (!string_or_list(j, "prompt", &out) && !string_or_list(j, "input", &out) &&
        !query_passages(j, &out)) {
      if (auto hf = j.find("inputs"); hf != j.end() && hf->is_string())
        out.texts.push_back(hf->get<std::string>());
    }
  }
  out.found = !out.texts.empty() || out.token_ids > 0;
  return out;
}

}  // namespace servebench::endpoints
