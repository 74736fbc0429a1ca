// Fuzz target for the Jinja renderer: any bytes are parsed as a template and, when they parse,
// rendered with a small chat context. Errors are expected; crashes, hangs and unbounded memory
// are not.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "jinja/template.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using servebench::jinja::Template;
  auto t = Template::parse(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!t) return 0;
  static const auto ctx = servebench::jinja::value_from_json(
      R"({"messages": [{"role": "system", "content": "s"}, {"role": "user", "content": "u"},
          {"role": "assistant", "content": "a", "tool_calls": [{"function": {"name": "f",
          "arguments": {"x": 1}}}]}], "tools": [{"type": "function", "function": {"name": "f"}}],
          "add_generation_prompt": true, "bos_token": "<s>", "eos_token": "</s>"})");
  servebench::jinja::RenderOptions options;
  options.strftime_now = [](const std::string&) { return std::string("2025-01-15"); };
  (void)t->render(*ctx, options);
  return 0;
}
