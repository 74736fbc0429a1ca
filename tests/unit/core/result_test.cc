#include "core/result.h"

#include <gtest/gtest.h>

#include <string>

namespace servebench::core {
namespace {

Result<int> parse_positive(int v, int* calls) {
  ++*calls;
  if (v <= 0) return make_error(ErrorCode::kInvalidArgument, "not positive: " + std::to_string(v));
  return v;
}

Status check(bool ok) {
  if (!ok) return make_error(ErrorCode::kParse, "check failed");
  return ok_status();
}

// Uses both macros; `reached` records how far it got.
Result<std::string> chain(int a, bool ok, int* calls, int* reached) {
  SB_TRY_ASSIGN(const int x, parse_positive(a, calls));
  *reached = 1;
  SB_TRY(check(ok));
  *reached = 2;
  int y = 0;
  SB_TRY_ASSIGN(y, parse_positive(x + 1, calls));
  *reached = 3;
  return std::to_string(x + y);
}

TEST(Result, TryMacrosPassValuesThrough) {
  int calls = 0, reached = 0;
  auto r = chain(2, true, &calls, &reached);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(*r, "5");
  EXPECT_EQ(reached, 3);
  EXPECT_EQ(calls, 2) << "each expression evaluated once";
}

TEST(Result, TryAssignReturnsTheFirstError) {
  int calls = 0, reached = 0;
  auto r = chain(-4, true, &calls, &reached);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(r.error().message, "not positive: -4");
  EXPECT_EQ(reached, 0);
  EXPECT_EQ(calls, 1);
}

TEST(Result, TryReturnsAStatusError) {
  int calls = 0, reached = 0;
  auto r = chain(1, false, &calls, &reached);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kParse);
  EXPECT_EQ(reached, 1);
}

TEST(Result, TryWorksInStatusFunctions) {
  int calls = 0;
  auto f = [&](int v) -> Status {
    SB_TRY(parse_positive(v, &calls));
    return ok_status();
  };
  EXPECT_TRUE(f(3));
  EXPECT_FALSE(f(0));
}

TEST(Result, InterruptedIsNotAUsageError) {
  const Error e{ErrorCode::kInterrupted, "stopped"};
  EXPECT_FALSE(e.is_usage());
  EXPECT_STREQ(error_code_name(ErrorCode::kInterrupted), "interrupted");
}

}  // namespace
}  // namespace servebench::core
