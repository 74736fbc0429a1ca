#include "app/fd_budget.h"

#include <gtest/gtest.h>

namespace servebench::app {
namespace {

load::LoadSpec closed_loop(int64_t concurrency) {
  load::LoadSpec s;
  s.concurrency = concurrency;
  s.concurrency_ceiling = concurrency;
  return s;
}

TEST(FdBudget, ClosedLoopNeedsAConnectionPerSlotAndUrl) {
  const FdNeed one = estimate_fd_need(closed_loop(5000), 1, 4, 1);
  EXPECT_EQ(one.descriptors, 5000 + kFdBase + 4 * kFdPerWorker);
  const FdNeed two = estimate_fd_need(closed_loop(5000), 2, 4, 1);
  EXPECT_EQ(two.descriptors, 10000 + kFdBase + 4 * kFdPerWorker);
  EXPECT_NE(two.cause.find("2 URLs"), std::string::npos);
}

TEST(FdBudget, Http2MultiplexesStreams) {
  const FdNeed need = estimate_fd_need(closed_loop(5000), 1, 4, 2);
  EXPECT_EQ(need.descriptors, 50 + kFdBase + 4 * kFdPerWorker);  // 100 streams per connection
}

TEST(FdBudget, OpenLoopWithoutCeilingIsNotChecked) {
  load::LoadSpec s;
  s.request_rate = 100000;
  const FdNeed need = estimate_fd_need(s, 1, 4, 1);
  EXPECT_FALSE(need.slots);
  EXPECT_TRUE(check_fd_budget(need, 128, 1, 4));
}

TEST(FdBudget, FastOpenLoopPastTheLimitIsAWarning) {
  load::LoadSpec s;
  s.request_rate = 5000;
  EXPECT_EQ(open_loop_fd_warning(s, 1, 4, 1 << 20), "");
  const std::string w = open_loop_fd_warning(s, 1, 4, 1024);
  EXPECT_NE(w.find("--concurrency"), std::string::npos) << w;
  EXPECT_NE(w.find("ulimit -n"), std::string::npos) << w;
  s.concurrency = 100;  // a ceiling: checked exactly instead
  EXPECT_EQ(open_loop_fd_warning(s, 1, 4, 1024), "");
}

TEST(FdBudget, FixedScheduleCountsOnlyTheGivenCeiling) {
  load::LoadSpec s = closed_loop(1);
  s.concurrency_ceiling.reset();
  s.fixed_offsets_ns = std::make_shared<std::vector<int64_t>>(std::vector<int64_t>{0});
  EXPECT_FALSE(estimate_fd_need(s, 1, 1, 1).slots);
  s.concurrency_ceiling = 3000;
  EXPECT_EQ(estimate_fd_need(s, 1, 1, 1).slots, 3000);
}

TEST(FdBudget, OverTheLimitIsAUsageErrorWithTheUlimitFix) {
  const FdNeed need = estimate_fd_need(closed_loop(5000), 1, 4, 1);
  EXPECT_TRUE(check_fd_budget(need, 1 << 20, 1, 4));
  auto st = check_fd_budget(need, 1024, 1, 4);
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().code, ErrorCode::kInvalidArgument);
  const std::string& m = st.error().message;
  EXPECT_NE(m.find("--concurrency 5000"), std::string::npos) << m;
  EXPECT_NE(m.find("ulimit -n 5120"), std::string::npos) << m;        // 5112 rounded up to 1024s
  EXPECT_NE(m.find("--concurrency to 912"), std::string::npos) << m;  // 1024 - 64 - 48
  EXPECT_EQ(m.find('\n'), std::string::npos);
}

}  // namespace
}  // namespace servebench::app
