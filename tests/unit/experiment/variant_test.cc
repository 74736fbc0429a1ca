// AIPerf's --variant/--sweep-variant (config/flags_variant.cc): each use is one cell of a
// scenarios sweep, equal to the same cells given as --sweep-scenarios JSON.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "config/cli_options.h"
#include "experiment/sweep.h"

namespace servebench::experiment {
namespace {

Result<config::ParsedArgs> parse(std::vector<std::string> args) {
  args.insert(args.begin(), {"profile", "-m", "m", "--tokenizer", "builtin"});
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  return config::parse_profile_args(static_cast<int>(argv.size()), argv.data());
}

TEST(Variant, CellsAreScenarios) {
  auto p = parse({"--variant", "short: isl=32, concurrency=2", "--sweep-variant",
                  "request-rate=5.5, --osl=7"});
  ASSERT_TRUE(p) << p.error().message;
  auto cells = expand_sweep(p->sweep, p->config.experiment);
  ASSERT_TRUE(cells) << cells.error().message;
  ASSERT_EQ(cells->size(), 2u);
  EXPECT_EQ((*cells)[0].label, "short");
  auto c0 = cell_config(p->config, (*cells)[0]);
  ASSERT_TRUE(c0) << c0.error().message;
  EXPECT_EQ(c0->concurrency, 2);
  EXPECT_DOUBLE_EQ(c0->isl_mean_tokens, 32);
  auto c1 = cell_config(p->config, (*cells)[1]);
  ASSERT_TRUE(c1) << c1.error().message;
  EXPECT_DOUBLE_EQ(*c1->request_rate, 5.5);
  EXPECT_DOUBLE_EQ(c1->osl_mean_tokens, 7);
}

TEST(Variant, ErrorsNameTheFlag) {
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"--variant", "isl=32"},                         // one cell
           {"--variant", "isl", "--variant", "isl=8"},      // not KEY=VALUE
           {"--variant", ": isl=8", "--variant", "isl=8"},  // empty name
           {"--variant", "isl=8", "--variant", "isl=9", "--sweep-scenarios", R"([{"isl":1}])"}}) {
    auto p = parse(args);
    ASSERT_FALSE(p) << args[1];
    EXPECT_NE(p.error().message.find("--variant"), std::string::npos) << p.error().message;
  }
  auto unknown = parse({"--variant", "isl=8", "--variant", "temprature=1"});
  ASSERT_TRUE(unknown);
  auto cells = expand_sweep(unknown->sweep, unknown->config.experiment);
  ASSERT_FALSE(cells);
  EXPECT_NE(cells.error().message.find("'temprature'"), std::string::npos);
}

}  // namespace
}  // namespace servebench::experiment
