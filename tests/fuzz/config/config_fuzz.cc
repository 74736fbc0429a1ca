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
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "config/cli_options.h"

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

void check_flags(const std::vector<std::string>& f) {
  const std::string key(kKey), auth = "Authorization: Bearer " + std::string(kBearer);
  // `--flag=value`: a fuzzed value that starts with '-' stays a value (never another flag that
  // could open a file).
  std::vector<std::string> args = {"profile",
                                   "-m",
                                   "m",
                                   "--url=" + f[0],
                                   "--header=" + f[1],
                                   "--extra-inputs=" + f[2],
                                   "--api-key",
                                   key,
                                   "-H",
                                   auth};
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  const int argc = static_cast<int>(argv.size());
  (void)servebench::config::parse_profile_args(argc, argv.data());
  const std::string line = servebench::config::redacted_command_line(argc, argv.data());
  bool fuzzed_has_secret = false;
  for (const auto& s : f)
    fuzzed_has_secret |= s.find(kKey) != std::string::npos || s.find(kBearer) != std::string::npos;
  if (!fuzzed_has_secret &&
      (line.find(kKey) != std::string::npos || line.find(kBearer) != std::string::npos))
    std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 4096) return 0;
  const auto f = fields(std::string_view(reinterpret_cast<const char*>(data), size));
  check_url(f[0]);
  check_extra(f[2]);
  check_flags(f);
  return 0;
}
