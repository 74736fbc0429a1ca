// Fuzz target for the user-facing text parsers of config/cli_options.h: -u/--url, -H/--header
// and --extra-inputs, alone and through the whole flag parser. The input is up to three
// newline-separated fields (URL, header, extra input). Properties:
//   - nothing crashes, hangs or throws out of the parsers;
//   - an accepted URL is http(s)://, has a host and no trailing '/';
//   - an accepted --extra-inputs merges into one JSON object;
//   - the redacted command line never shows the --api-key value or an Authorization value
//     (unless the fuzzed text itself contains it).
// Written against the parsing functions as they are on this branch; item 4 of issue 11 changes
// normalize_url (port, path, query checks) and the properties above still hold for it.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "config/cli_options.h"
#include "config/flag_table.h"
#include "core/secrets.h"

namespace {

constexpr std::string_view kKey = "FUZZKEY7A1B2C3";
constexpr std::string_view kBearer = "FUZZBEARER9Z8Y7";

std::vector<std::string> fields(std::string_view in) {
  std::vector<std::string> out;
  while (out.size() < 2) {
    const size_t nl = in.find('\n');
    if (nl == std::string_view::npos) break;
    out.emplace_back(in.substr(0, nl));
    in.remove_prefix(nl + 1);
  }
  out.emplace_back(in);
  out.resize(3);
  return out;
}

void check_url(const std::string& url) {
  auto n = servebench::config::normalize_url(url);
  if (!n) return;
  const std::string& u = *n;
  const bool http = u.rfind("http://", 0) == 0, https = u.rfind("https://", 0) == 0;
  if (!http && !https) std::abort();
  const size_t host = u.find("://") + 3;
  if (host >= u.size() || u[host] == '/') std::abort();
  // No trailing slash on the path (a query may end with one: "http://h?x=a/").
  const std::string_view before_query = std::string_view(u).substr(0, u.find('?'));
  if (before_query.back() == '/') std::abort();
}

void check_extra(const std::string& extra) {
  auto merged = servebench::config::merge_extra_inputs({extra});
  if (!merged) return;
  const auto j = nlohmann::json::parse(*merged, nullptr, false);
  if (j.is_discarded() || !j.is_object()) std::abort();
}

// The flag table's own apply functions for -u, -H and --extra-inputs (what the parser calls
// once CLI11 has split argv), then the redaction of the command line and of every header the
// config holds. Cheap: the whole CLI11 parser (~400 flags built per call) runs only for one input
// in 1024 (check_full_parse), so libFuzzer spends its time in the parsers under test.
const servebench::config::FlagSpec* flag(std::string_view long_name) {
  for (const auto& spec : servebench::config::profile_flags())
    if (spec.names.find(long_name) != std::string::npos) return &spec;
  std::abort();
}

bool has_secret(std::string_view text) {
  return text.find(kKey) != std::string_view::npos || text.find(kBearer) != std::string_view::npos;
}

void check_table(const std::vector<std::string>& f, bool fuzzed_has_secret) {
  static const auto* url = flag("--url");
  static const auto* header = flag("--header");
  static const auto* extra = flag("--extra-inputs");
  servebench::config::BenchmarkConfig c;
  servebench::config::FlagInput in;
  in.texts = {f[0]};
  (void)url->apply(in, &c);
  in.texts = {f[1], "Authorization: Bearer " + std::string(kBearer)};
  (void)header->apply(in, &c);
  in.texts = {f[2]};
  (void)extra->apply(in, &c);
  for (const auto& h : c.headers) {
    const std::string shown = servebench::core::secrets::redact_header_line(h);
    if (!fuzzed_has_secret && has_secret(shown)) std::abort();
    if (shown.find(':') == std::string::npos) std::abort();
  }
}

std::vector<std::string> profile_argv(const std::vector<std::string>& f) {
  // `--flag=value`: a fuzzed value that starts with '-' stays a value (never another flag that
  // could open a file).
  return {"profile", "-m", "m", "--url=" + f[0], "--header=" + f[1], "--extra-inputs=" + f[2],
          "--api-key", std::string(kKey), "-H", "Authorization: Bearer " + std::string(kBearer)};
}

void check_command_line(const std::vector<std::string>& args, bool fuzzed_has_secret,
                        bool full_parse) {
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  const int argc = static_cast<int>(argv.size());
  if (full_parse) (void)servebench::config::parse_profile_args(argc, argv.data());
  const std::string line = servebench::config::redacted_command_line(argc, argv.data());
  if (!fuzzed_has_secret && has_secret(line)) std::abort();
}

void check_flags(const std::vector<std::string>& f, size_t size) {
  bool fuzzed_has_secret = false;
  for (const auto& s : f) fuzzed_has_secret |= has_secret(s);
  check_table(f, fuzzed_has_secret);
  size_t h = size;
  for (const auto& s : f) h = h * 131 + std::hash<std::string>{}(s);
  check_command_line(profile_argv(f), fuzzed_has_secret, h % 1024 == 0);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 4096) return 0;
  const auto f = fields(std::string_view(reinterpret_cast<const char*>(data), size));
  check_url(f[0]);
  check_extra(f[2]);
  check_flags(f, size);
  return 0;
}
