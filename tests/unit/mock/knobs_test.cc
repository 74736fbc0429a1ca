#include "knobs.h"

#include <gtest/gtest.h>

namespace servebench::mock {
namespace {

TEST(Scenario, EmptyHeaderKeepsBase) {
  RequestKnobs base;
  base.ttft_ns = 7;
  auto k = apply_scenario(base, "");
  ASSERT_TRUE(k);
  EXPECT_EQ(k->ttft_ns, 7);
  EXPECT_FALSE(k->output_tokens.has_value());
}

TEST(Scenario, OverridesEveryKnob) {
  RequestKnobs base;
  auto k = apply_scenario(
      base,
      "ttft_ms=5;itl_ms=1.5; error_kind=reset ;error_rate=100;tokens_per_chunk=3;"
      "prefill_us_per_token=2.5;jitter_cv=0.25;reasoning_tokens=4;early_role=1;output_tokens=9;");
  ASSERT_TRUE(k) << k.error().message;
  EXPECT_EQ(k->ttft_ns, 5'000'000);
  EXPECT_EQ(k->itl_ns, 1'500'000);
  EXPECT_EQ(k->error_kind, FaultKind::kReset);
  EXPECT_DOUBLE_EQ(k->error_rate_pct, 100.0);
  EXPECT_EQ(k->tokens_per_chunk, 3);
  EXPECT_EQ(k->prefill_ns_per_token, 2'500);
  EXPECT_DOUBLE_EQ(k->jitter_cv, 0.25);
  EXPECT_EQ(k->reasoning_tokens, 4);
  EXPECT_TRUE(k->early_role);
  EXPECT_EQ(k->output_tokens, 9);
}

TEST(Scenario, ToolCallsAndCachedTokens) {
  auto k = apply_scenario(RequestKnobs{}, "tool_calls=1;cached_tokens=12");
  ASSERT_TRUE(k) << k.error().message;
  EXPECT_TRUE(k->tool_calls);
  EXPECT_EQ(k->cached_tokens, 12);
  EXPECT_EQ(RequestKnobs{}.cached_tokens, -1) << "no cache report unless asked";
  EXPECT_FALSE(apply_scenario(RequestKnobs{}, "tool_calls=yes"));
  EXPECT_FALSE(apply_scenario(RequestKnobs{}, "cached_tokens=-1"));
}

TEST(Scenario, ErrorKindsIncludingUnderscoreSpelling) {
  const std::pair<const char*, FaultKind> cases[] = {
      {"http500", FaultKind::kHttp500},       {"http429", FaultKind::kHttp429},
      {"reset", FaultKind::kReset},           {"stall", FaultKind::kStall},
      {"malformed", FaultKind::kMalformed},   {"error-event", FaultKind::kErrorEvent},
      {"error_event", FaultKind::kErrorEvent}};
  for (const auto& [text, kind] : cases) {
    auto k = apply_scenario(RequestKnobs{}, std::string("error_kind=") + text);
    ASSERT_TRUE(k) << text;
    EXPECT_EQ(k->error_kind, kind) << text;
  }
}

TEST(Scenario, RejectsBadItemsWithOneLineNamingThem) {
  auto unknown = apply_scenario(RequestKnobs{}, "ttft_ms=1;bogus=2");
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().message.find("bogus"), std::string::npos);
  auto bad = apply_scenario(RequestKnobs{}, "itl_ms=fast");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("itl_ms"), std::string::npos);
  EXPECT_FALSE(apply_scenario(RequestKnobs{}, "itl_ms=-1"));
  EXPECT_FALSE(apply_scenario(RequestKnobs{}, "tokens_per_chunk=0"));
  EXPECT_FALSE(apply_scenario(RequestKnobs{}, "tokens_per_chunk=1.5"));
  EXPECT_FALSE(apply_scenario(RequestKnobs{}, "error_rate=101"));
  // Bounded, so no header can make the server allocate or overflow without limit.
  EXPECT_FALSE(apply_scenario(RequestKnobs{}, "output_tokens=1e12"));
  EXPECT_FALSE(apply_scenario(RequestKnobs{}, "reasoning_tokens=99999999"));
  EXPECT_FALSE(apply_scenario(RequestKnobs{}, "ttft_ms=1e300"));
  EXPECT_TRUE(apply_scenario(RequestKnobs{}, "output_tokens=1048576"));
  EXPECT_FALSE(apply_scenario(RequestKnobs{}, "error_kind=explode"));
  EXPECT_FALSE(apply_scenario(RequestKnobs{}, "ttft_ms"));
  EXPECT_FALSE(apply_scenario(RequestKnobs{}, "early_role=yes"));
  for (const char* h : {"x\ny=1", "ttft_ms=\n1x", "a\rb"}) {
    auto r = apply_scenario(RequestKnobs{}, h);
    ASSERT_FALSE(r) << h;
    { EXPECT_EQ(r.error().message.find('\n'), std::string::npos); }
  }
}

TEST(FaultKind, NamesRoundTrip) {
  for (FaultKind k : {FaultKind::kHttp500, FaultKind::kHttp429, FaultKind::kReset,
                      FaultKind::kStall, FaultKind::kMalformed, FaultKind::kErrorEvent}) {
    auto parsed = parse_fault_kind(fault_kind_name(k));
    ASSERT_TRUE(parsed);
    EXPECT_EQ(*parsed, k);
  }
}

}  // namespace
}  // namespace servebench::mock
