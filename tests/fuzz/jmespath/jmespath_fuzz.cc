// Fuzz target for the JMESPath subset: the input is an expression, a newline, and a JSON
// document. Compilation either fails with a one-line error or succeeds; a compiled expression
// searched on a valid document gives valid JSON, the same on a second search.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string_view>

#include "endpoints/jmespath.h"

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  const size_t nl = in.find('\n');
  const std::string_view expr = in.substr(0, nl);
  const std::string_view doc =
      nl == std::string_view::npos ? std::string_view("{}") : in.substr(nl + 1);
  auto path = servebench::endpoints::JmesPath::compile(expr, "fuzz");
  if (!path) {
    check(path.error().message.find('\n') == std::string::npos);
    return 0;
  }
  auto first = path->search_json(doc);
  auto second = path->search_json(doc);
  check(first.has_value() == second.has_value());
  if (!first) return 0;
  check(*first == *second);
  check(nlohmann::json::accept(*first));
  return 0;
}
