#include "endpoints/body_extras.h"

#include <nlohmann/json.hpp>

#include "endpoints/endpoint.h"
#include "endpoints/json_text.h"

namespace servebench::endpoints {

namespace {

using Ordered = nlohmann::ordered_json;

std::string dump(const Ordered& v) {
  return v.dump(-1, ' ', false, Ordered::error_handler_t::replace);
}

}  // namespace

Result<BodyExtras> BodyExtras::parse(std::string_view json_object, std::string_view what) {
  BodyExtras out;
  if (json_object.empty()) return out;
  Ordered j;
  try {
    j = Ordered::parse(json_object);
  } catch (const std::exception& e) {
    return make_error(ErrorCode::kInvalidArgument, std::string(what) + ": not valid JSON (" +
                                                       e.what() +
                                                       "); pass key:value pairs or a JSON object");
  }
  if (!j.is_object()) {
    return make_error(ErrorCode::kInvalidArgument,
                      std::string(what) +
                          ": expected a JSON object such as {\"ignore_eos\":true}, got " +
                          std::string(j.type_name()));
  }
  // ordered_json already folds a repeated key into its first position.
  for (auto it = j.begin(); it != j.end(); ++it) {
    std::string member;
    append_json_string(it.key(), &member);
    member.push_back(':');
    member.append(dump(it.value()));
    out.members_.emplace_back(it.key(), std::move(member));
  }
  return out;
}

bool BodyExtras::has(std::string_view key) const {
  for (const auto& m : members_) {
    if (m.first == key) return true;
  }
  return false;
}

void BodyExtras::append_members(std::string* out, bool* first, const BodyExtras* skip) const {
  for (const auto& m : members_) {
    if (skip != nullptr && skip->has(m.first)) continue;
    if (!*first) out->push_back(',');
    *first = false;
    out->append(m.second);
  }
}

std::string merge_body_extras(std::string_view body, std::string_view extra_json) {
  if (extra_json.empty()) return std::string(body);
  auto b = Ordered::parse(body, nullptr, false);
  auto e = Ordered::parse(extra_json, nullptr, false);
  if (b.is_discarded() || !b.is_object() || e.is_discarded() || !e.is_object()) {
    return std::string(body);
  }
  for (auto it = e.begin(); it != e.end(); ++it) b[it.key()] = it.value();
  return dump(b);
}

}  // namespace servebench::endpoints
