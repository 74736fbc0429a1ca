#include "config/redaction.h"

#include <functional>
#include <string_view>
#include <vector>

#include "config/url.h"
#include "core/secrets.h"

namespace servebench::config {
namespace {

enum class SecretKind { kNone, kApiKey, kHeader, kUrl };

struct Spelling {
  std::string_view prefix;  // "--api-key", "-H", ...
  SecretKind kind;
};

constexpr Spelling kSpellings[] = {
    {"--api-key", SecretKind::kApiKey}, {"-H", SecretKind::kHeader},
    {"--header", SecretKind::kHeader},  {"-u", SecretKind::kUrl},
    {"--url", SecretKind::kUrl},
};

std::vector<std::string_view> split_commas(std::string_view s) {
  std::vector<std::string_view> out;
  size_t start = 0;
  for (size_t comma; (comma = s.find(',', start)) != std::string_view::npos; start = comma + 1)
    out.push_back(s.substr(start, comma - start));
  out.push_back(s.substr(start));
  return out;
}

std::string redact_value(SecretKind kind, std::string_view value) {
  switch (kind) {
    case SecretKind::kApiKey:
      return "<redacted>";
    case SecretKind::kHeader:
      return core::secrets::redact_header_line(value);
    case SecretKind::kUrl: {
      // -u takes comma-separated lists: redact each URL.
      std::string out;
      for (std::string_view u : split_commas(value))
        out += (out.empty() ? "" : ",") + redact_url(u);
      return out;
    }
    case SecretKind::kNone:
      break;
  }
  return std::string(value);
}

void register_value(SecretKind kind, std::string_view value) {
  switch (kind) {
    case SecretKind::kApiKey:
      core::secrets::add(value);
      break;
    case SecretKind::kHeader:
      core::secrets::add_header_value(value);
      break;
    case SecretKind::kUrl:
      for (std::string_view one : split_commas(value)) {
        if (auto u = parse_base_url(one); u && u->has_user_info) {
          core::secrets::add(u->raw_user_info);
          core::secrets::add(u->password);
        }
      }
      break;
    case SecretKind::kNone:
      break;
  }
}

// Calls `on(i, kind, value_offset)` for each argv entry that carries a secret value: the entry
// after a bare flag (offset 0), or the part after "--flag=" / "-Xvalue" in the same entry.
void for_each_secret(int argc, const char* const* argv,
                     const std::function<void(int, SecretKind, size_t)>& on) {
  SecretKind pending = SecretKind::kNone;
  for (int i = 0; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (pending != SecretKind::kNone) {
      on(i, pending, 0);
      pending = SecretKind::kNone;
      continue;
    }
    for (const Spelling& s : kSpellings) {
      if (a == s.prefix) {
        pending = s.kind;
      } else if (a.size() > s.prefix.size() + 1 &&
                 a.substr(0, s.prefix.size() + 1) == std::string(s.prefix) + "=") {
        on(i, s.kind, s.prefix.size() + 1);
      } else if (s.prefix.size() == 2 && a.size() > 2 && a.substr(0, 2) == s.prefix) {
        on(i, s.kind, 2);  // "-Hvalue", "-uvalue"
      } else {
        continue;
      }
      break;
    }
  }
}

std::string shell_quote(const std::string& s) {
  if (!s.empty() && s.find_first_of(" \t\n'\"\\$`!*?[]{}()<>|&;#~") == std::string::npos) return s;
  std::string out = "'";
  for (char ch : s) {
    if (ch == '\'')
      out += "'\\''";
    else
      out.push_back(ch);
  }
  return out + "'";
}

}  // namespace

std::string redacted_command_line(int argc, const char* const* argv) {
  std::vector<std::string> args(argv, argv + argc);
  for_each_secret(argc, argv, [&](int i, SecretKind kind, size_t offset) {
    args[i] =
        args[i].substr(0, offset) + redact_value(kind, std::string_view(args[i]).substr(offset));
  });
  std::string out = "servebench";
  for (const auto& a : args) {
    out += ' ';
    out += shell_quote(a);
  }
  return core::secrets::scrub(out);
}

void register_argv_secrets(int argc, const char* const* argv) {
  for_each_secret(argc, argv, [&](int i, SecretKind kind, size_t offset) {
    register_value(kind, std::string_view(argv[i]).substr(offset));
  });
}

void register_config_secrets(const BenchmarkConfig& config) {
  if (!config.api_key.empty()) core::secrets::add(config.api_key);
  for (const auto& h : config.headers) core::secrets::add_header_value(h);
}

}  // namespace servebench::config
