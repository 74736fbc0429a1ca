// Fuzz target for the request-body template compiler (endpoints/template.h): the first byte
// sets --streaming and whether extras apply, the rest is the template. Compilation either fails
// with a one-line error or succeeds; a compiled template renders a JSON object for a turn like
// the compile-time sample (texts, a count) and renders without texts without crashing.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "endpoints/template.h"

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using servebench::endpoints::BodyExtras;
  using servebench::endpoints::BodyTemplate;
  if (size == 0) return 0;
  static const BodyExtras extras = *BodyExtras::parse(R"({"n":2,"text":"x"})", "fuzz");
  const bool stream = (data[0] & 1) != 0;
  const BodyExtras none;
  std::string_view src(reinterpret_cast<const char*>(data + 1), size - 1);
  auto t = BodyTemplate::compile(src, stream, (data[0] & 2) ? extras : none, "fuzz");
  if (!t) {
    check(t.error().message.find('\n') == std::string::npos);
    return 0;
  }
  check(t->placeholder_count() > 0);
  const std::vector<std::string_view> texts{"fuzz \"quoted\"\n", "second"};
  std::string out;
  t->render(BodyTemplate::Values{&texts, "model/x", 7, "user"}, &out);
  auto j = nlohmann::json::parse(out, nullptr, false);
  check(!j.is_discarded() && j.is_object());
  std::string empty;
  t->render(BodyTemplate::Values{nullptr, "", -1, "user"}, &empty);
  return 0;
}
