// Prompt flags (config/flag_table.h): how synthetic prompts are made and counted.
//   --apply-chat-template  ISL counted through the model's chat template (chat_template/), and
//                          synthetic prompts shortened by the template's overhead so the server's
//                          prompt_tokens equal the target (app/chat_template_isl.h).
//   --prompt-corpus        sonnet: the embedded prose corpus (dataset/embedded_corpus.h);
//                          coding: the generated code/tool-output corpus (dataset/coding_corpus.h);
//                          random: uniformly random vocabulary tokens, no special or added tokens
//                          (dataset/random_prompts.h); not with hash-id traces (prompt_validate.h).
//   --random-corpus-style  vllm | sglang: the --random-range-ratio window (as --range-ratio-style).
//   --random-range-ratio   r (both lengths) or, vllm style, {"input": r1, "output": r2}: ISL and
//                          OSL drawn uniformly from a window around --isl and --osl.
//   --system-prompt[-file] a verbatim system message in every conversation (synthetic or file),
//                          put before a system message the dataset brings, joined by a blank line.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "config/flag_kinds.h"

namespace servebench::config {
namespace {

using namespace flags;  // NOLINT: the builders read as a table

// A system prompt file larger than this is surely not one (and would be sent with every request).
constexpr uintmax_t kMaxSystemPromptBytes = 16u << 20;

bool blank(const std::string& s) { return s.find_first_not_of(" \t\r\n") == std::string::npos; }

FlagSpec prompt_corpus_flag() {
  FlagSpec s = base("--prompt-corpus",
                    "Synthetic prompt text: sonnet (prose), coding, or random (random vocabulary tokens)",
                    "/input/prompt/corpus");
  s.apply = [](const FlagInput& in, C* c) -> Status {
    if (in.text.empty()) return {};
    if (in.text != "sonnet" && in.text != "coding" && in.text != "random") {
      return usage("--prompt-corpus '" + in.text + "' is invalid; expected sonnet, coding or random");
    }
    c->prompt_corpus = in.text;
    return {};
  };
  s.to_json = [](const C& c) -> JsonValue {
    return c.prompt_corpus.empty() ? JsonValue(nullptr) : JsonValue(c.prompt_corpus);
  };
  return s;
}

// "0.3", or (vllm style) {"input": 0.3, "output": 0.5}. The style flags come earlier in the table,
// so c->range_ratio_sglang is already final here.
Status apply_random_range_ratio(const std::string& text, C* c) {
  const std::string fix = c->range_ratio_sglang
                              ? "give one ratio, 0 < r <= 1, e.g. 0.3"
                              : "give a ratio 0 <= r < 1 or {\"input\": r1, \"output\": r2}";
  auto fail = [&] { return usage("--random-range-ratio '" + text + "' is invalid; " + fix); };
  if (c->isl_range_ratio || c->osl_range_ratio)
    return usage("--random-range-ratio and --isl-range-ratio/--osl-range-ratio both set the window; keep one");
  double in = 0, out = 0;
  if (auto v = to_double("--random-range-ratio", text, "a ratio"); v) {
    in = out = *v;
  } else {
    const auto j = nlohmann::json::parse(text, nullptr, false);
    if (c->range_ratio_sglang || !j.is_object() || j.size() != 2 || !j.contains("input") ||
        !j.contains("output") || !j["input"].is_number() || !j["output"].is_number())
      return fail();
    in = j["input"].get<double>();
    out = j["output"].get<double>();
  }
  auto ok = [&](double r) { return c->range_ratio_sglang ? (r > 0 && r <= 1) : (r >= 0 && r < 1); };
  if (!ok(in) || !ok(out)) return fail();
  c->isl_range_ratio = in;
  c->osl_range_ratio = out;
  c->random_range_ratio_given = true;
  return {};
}

FlagSpec random_range_ratio_flag() {
  FlagSpec s = base("--random-range-ratio",
                    "ISL and OSL uniform in a window around --isl/--osl (see --random-corpus-style)",
                    "/input/prompt/random_range_ratio");
  s.apply = [](const FlagInput& in, C* c) -> Status {
    if (in.text.empty()) return {};
    return apply_random_range_ratio(in.text, c);
  };
  s.to_json = [](const C& c) -> JsonValue {
    return c.random_range_ratio_given && c.isl_range_ratio ? JsonValue(*c.isl_range_ratio)
                                                           : JsonValue(nullptr);
  };
  return s;
}

FlagSpec system_prompt_flag() {
  FlagSpec s = base("--system-prompt", "A verbatim system message sent in every conversation",
                    "/input/prompt/system_prompt");
  s.apply = [](const FlagInput& in, C* c) -> Status {
    if (blank(in.text))
      return usage("--system-prompt is empty; give the text or drop the flag");
    c->system_prompt = in.text;
    return {};
  };
  s.to_json = [](const C& c) -> JsonValue {
    return c.system_prompt_file.empty() ? string_or_null(c.system_prompt) : JsonValue(nullptr);
  };
  return s;
}

Result<std::string> read_prompt_file(const std::string& path) {
  std::error_code ec;
  const std::string fix = "; give a readable UTF-8 text file";
  if (!std::filesystem::is_regular_file(path, ec))
    return usage(fmt::format("--system-prompt-file '{}' is not a readable regular file{}", path, fix));
  if (std::filesystem::file_size(path, ec) > kMaxSystemPromptBytes)
    return usage(fmt::format("--system-prompt-file '{}' is over 16 MiB{}", path, fix));
  std::ifstream f(path, std::ios::binary);
  std::ostringstream text;
  text << f.rdbuf();
  if (!f) return usage(fmt::format("--system-prompt-file '{}' cannot be read{}", path, fix));
  if (blank(text.str()))
    return usage(fmt::format("--system-prompt-file '{}' is empty; give the text or drop the flag", path));
  return text.str();
}

FlagSpec system_prompt_file_flag() {
  FlagSpec s = base("--system-prompt-file", "A UTF-8 file holding the verbatim system message",
                    "/input/prompt/system_prompt_file");
  s.apply = [](const FlagInput& in, C* c) -> Status {
    if (in.text.empty()) return usage("--system-prompt-file needs a path; give a text file");
    if (!c->system_prompt.empty())
      return usage("--system-prompt and --system-prompt-file both set the system prompt; keep one");
    auto text = read_prompt_file(in.text);
    if (!text) return tl::unexpected(text.error());
    c->system_prompt = std::move(*text);
    c->system_prompt_file = in.text;
    return {};
  };
  s.to_json = [](const C& c) { return string_or_null(c.system_prompt_file); };
  return s;
}

}  // namespace

void add_prompts_flags(std::vector<FlagSpec>* out) {
  out->push_back(switch_flag("--apply-chat-template",
                             "Count ISL through the model's chat template and shorten synthetic "
                             "prompts by its overhead",
                             &C::apply_chat_template, "/tokenizer/apply_chat_template"));
  out->push_back(prompt_corpus_flag());
  // Before --random-range-ratio: its parse depends on the style.
  out->push_back(choice_flag<bool>("--random-corpus-style", "--random-corpus-style",
                                   "Range-ratio window: vllm [L(1-r), L(1+r)] or sglang [L*r, L]",
                                   &C::range_ratio_sglang, {{"vllm", false}, {"sglang", true}},
                                   "vllm or sglang", true, "/input/prompt/random_corpus_style"));
  out->push_back(random_range_ratio_flag());
  out->push_back(system_prompt_flag());
  out->push_back(system_prompt_file_flag());
}

}  // namespace servebench::config
