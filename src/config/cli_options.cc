#include "config/cli_options.h"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "config/flag_table.h"
#include "config/scenario.h"
#include "core/secrets.h"
#include "core/units.h"

namespace servebench::config {
namespace {

// CLI11 writes into these; one per table entry, same order.
struct Slot {
  FlagInput input;
  bool on = false;
  CLI::Option* option = nullptr;
};

std::string help_with_default(const FlagSpec& f) {
  std::string shown = f.default_text;
  if (shown.empty() && f.to_json) shown = json_value_text(f.to_json(BenchmarkConfig{}));
  return shown.empty() ? f.help : fmt::format("{} (default: {})", f.help, shown);
}

void define(CLI::App& app, const FlagSpec& f, Slot& slot) {
  const std::string help = help_with_default(f);
  switch (f.arity) {
    case FlagArity::kSwitch:
      slot.option = app.add_flag(cli_names(f), slot.on, help);
      break;
    case FlagArity::kCounter:
      slot.option = app.add_flag(f.names, slot.input.count, help);
      break;
    case FlagArity::kValue:
      slot.option = app.add_option(f.names, slot.input.text, help);
      break;
    case FlagArity::kList:
      slot.option = app.add_option(f.names, slot.input.texts, help);
      if (f.delimiter != 0) slot.option->delimiter(f.delimiter);
      if (f.one_value_per_use) slot.option->allow_extra_args(false);
      if (f.value_optional) slot.option->expected(0, CLI::detail::expected_max_vector_size);
      break;
  }
}

// Rules across flags that no single flag's conversion can check.
Status finish(BenchmarkConfig* c) {
  if (c->urls.empty()) c->urls.push_back("http://localhost:8000");
  if (c->url_basic_auth) {
    if (!c->api_key.empty())
      return make_error(ErrorCode::kInvalidArgument,
                        "-u/--url user:password@ and --api-key both set Authorization; keep one");
    for (size_t i = 1; i < c->headers.size(); ++i) {
      std::string name = c->headers[i].substr(0, c->headers[i].find(':'));
      for (char& ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      if (name == "authorization")
        return make_error(
            ErrorCode::kInvalidArgument,
            "-u/--url user:password@ and -H 'Authorization: ...' both set Authorization; keep one");
    }
  }
  return {};
}

// Error messages echo user input; control characters would break the one-line rule, and no
// secret may be shown.
std::string one_line(const std::string& raw) {
  const std::string text = core::secrets::scrub(raw);
  std::string out;
  for (char ch : text) {
    if (ch == '\n')
      out += "\\n";
    else if (ch == '\r')
      out += "\\r";
    else if (ch == '\t')
      out += "\\t";
    else if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f)
      out += fmt::format("\\x{:02x}", static_cast<unsigned char>(ch));
    else
      out.push_back(ch);
  }
  return out;
}

// "1, 2,4" → {"1","2","4"}; empty items are an error.
Result<std::vector<std::string>> split_list(const FlagSpec& f, const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  for (;;) {
    const size_t comma = text.find(',', start);
    std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    while (!item.empty() && item.front() == ' ') item.erase(item.begin());
    while (!item.empty() && item.back() == ' ') item.pop_back();
    if (item.empty())
      return make_error(ErrorCode::kInvalidArgument,
                        fmt::format("--{} '{}' has an empty item; expected a comma list such as 1,2,4",
                                    f.sweep_name, text));
    out.push_back(std::move(item));
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}

// A sweepable flag with a comma list becomes an axis: every value must convert; the first one
// lands in the config.
Status apply_sweep_list(const FlagSpec& f, size_t index, FlagInput input, BenchmarkConfig* c,
                        std::vector<SweepAxis>* axes) {
  auto values = split_list(f, input.text);
  if (!values) return tl::unexpected(values.error());
  for (const auto& v : *values) {
    BenchmarkConfig scratch = *c;
    input.text = v;
    if (auto st = f.apply(input, &scratch); !st) return st;
  }
  input.text = values->front();
  if (auto st = f.apply(input, c); !st) return st;
  axes->push_back(SweepAxis{index, f.sweep_name, std::move(*values)});
  return {};
}

}  // namespace

namespace {
// Request bodies are JSON, which must be valid UTF-8.
bool valid_utf8(const std::string& s) {
  try {
    (void)nlohmann::json(s).dump();
    return true;
  } catch (const nlohmann::json::exception&) {
    return false;
  }
}
}  // namespace

Result<std::string> merge_extra_inputs(const std::vector<std::string>& entries) {
  if (entries.empty()) return std::string();
  constexpr const char* kForms =
      "expected key:value (e.g. temperature:0.7) or a JSON object (e.g. '{\"top_k\":5}')";
  nlohmann::json merged = nlohmann::json::object();
  for (const auto& e : entries) {
    if (!valid_utf8(e))
      return make_error(ErrorCode::kInvalidArgument,
                        fmt::format("--extra-inputs: a value is not valid UTF-8; {}", kForms));
    std::string_view sv(e);
    while (!sv.empty() && sv.front() == ' ') sv.remove_prefix(1);
    if (!sv.empty() && (sv.front() == '{' || sv.front() == '[')) {
      auto j = nlohmann::json::parse(sv, nullptr, false);
      if (j.is_discarded() || !j.is_object())
        return make_error(
            ErrorCode::kInvalidArgument,
            fmt::format("--extra-inputs '{}' is not a valid JSON object; {}", e, kForms));
      merged.update(j);
      continue;
    }
    const size_t colon = sv.find(':');
    if (colon == std::string_view::npos || colon == 0)
      return make_error(ErrorCode::kInvalidArgument,
                        fmt::format("--extra-inputs '{}' is invalid; {}", e, kForms));
    const std::string key(sv.substr(0, colon));
    const std::string value(sv.substr(colon + 1));
    nlohmann::json v;
    if (value == "true")
      v = true;
    else if (value == "false")
      v = false;
    else if (value == "null")
      v = nullptr;
    else if (auto i = core::parse_count(value);
             i && value.find_first_of("kKmMgG.eE") == std::string::npos)
      v = *i;
    else if (auto d = core::parse_double(value))
      v = *d;
    else if (!value.empty() && (value.front() == '{' || value.front() == '[')) {
      v = nlohmann::json::parse(value, nullptr, false);
      if (v.is_discarded()) v = value;
    } else {
      v = value;
    }
    merged[key] = std::move(v);
  }
  return merged.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

Result<ParsedArgs> parse_profile_args(int argc, const char* const* argv) {
  // First, so that every message below (CLI11's included) is scrubbed of them.
  register_argv_secrets(argc, argv);
  CLI::App app{"servebench profile: benchmark an OpenAI-compatible server (AIPerf flags)",
               "profile"};
  const std::vector<FlagSpec>& table = profile_flags();
  std::vector<Slot> slots(table.size());
  for (size_t i = 0; i < table.size(); ++i) define(app, table[i], slots[i]);
  ParsedArgs out;
  try {
    // CLI11 wants argv without the program name; argv[0] here is the subcommand.
    std::vector<std::string> args;
    for (int i = argc - 1; i >= 1; --i) args.emplace_back(argv[i]);
    app.parse(args);
  } catch (const CLI::CallForHelp&) {
    out.help = true;
    out.help_text = app.help();
    return out;
  } catch (const CLI::ParseError& e) {
    return make_error(ErrorCode::kInvalidArgument,
                      one_line(e.what()) + " (see servebench profile --help)");
  }
  BenchmarkConfig& c = out.config;
  for (size_t i = 0; i < table.size(); ++i) {
    if (slots[i].option->count() == 0) continue;
    slots[i].input.on = slots[i].on;
    if (table[i].sweepable && slots[i].input.text.find(',') != std::string::npos) {
      if (auto st = apply_sweep_list(table[i], i, slots[i].input, &c, &out.sweep); !st)
        return make_error(st.error().code, one_line(st.error().message));
      continue;
    }
    if (auto st = table[i].apply(slots[i].input, &c); !st)
      return make_error(st.error().code, one_line(st.error().message));
  }
  if (auto st = finish(&c); !st) return make_error(st.error().code, one_line(st.error().message));
  if (auto st = apply_scenario(&c); !st) return make_error(st.error().code, one_line(st.error().message));
  register_config_secrets(c);
  c.cli_command = redacted_command_line(argc, argv);
  out.argv.assign(argv, argv + argc);
  if (auto st = validate(c); !st) return make_error(st.error().code, one_line(st.error().message));
  return out;
}

}  // namespace servebench::config
