// Test helpers: `servebench profile` flags parsed as the CLI parses them, and the one-line usage
// error a bad combination must give.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "config/cli_options.h"

namespace servebench::config::profile_test {

using Args = std::vector<std::string>;

// `profile -m m` plus `extra`.
inline Result<ParsedArgs> parse(Args extra) {
  Args args{"profile", "-m", "m"};
  args.insert(args.end(), extra.begin(), extra.end());
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  return parse_profile_args(static_cast<int>(argv.size()), argv.data());
}

// `extra` is refused with one line (exit code 2's kind) that contains `needle`.
inline void expect_error(const Args& extra, const std::string& needle) {
  auto r = parse(extra);
  ASSERT_FALSE(r.has_value()) << "accepted " << extra.front();
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(r.error().message.find('\n'), std::string::npos);
  EXPECT_NE(r.error().message.find(needle), std::string::npos) << r.error().message;
}

}  // namespace servebench::config::profile_test
