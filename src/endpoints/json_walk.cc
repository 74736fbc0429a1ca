#include "endpoints/json_walk.h"

#include <cstring>

namespace servebench::endpoints::json {

error_code JsonWalker::iterate(std::string_view json, simdjson::ondemand::document* doc) {
  // simdjson reads up to SIMDJSON_PADDING bytes past the end: parse a padded copy.
  const size_t need = json.size() + simdjson::SIMDJSON_PADDING;
  if (scratch_.size() < need) scratch_.resize(need);
  std::memcpy(scratch_.data(), json.data(), json.size());
  std::memset(scratch_.data() + json.size(), 0, simdjson::SIMDJSON_PADDING);
  return parser_.iterate(scratch_.data(), json.size(), scratch_.size()).get(*doc);
}

}  // namespace servebench::endpoints::json
