#include "app/load_setup.h"

#include <gtest/gtest.h>

#include "load/plan.h"

namespace servebench::app {
namespace {

config::BenchmarkConfig base() {
  config::BenchmarkConfig c;
  c.models = {"m"};
  c.urls = {"http://127.0.0.1:1"};
  return c;
}

TEST(LoadSpecFromConfig, DefaultsFollowAiperf) {
  auto c = base();
  const load::LoadSpec s = make_load_spec(c, WorkloadShape{});
  EXPECT_EQ(s.concurrency, 1);  // neither rate nor concurrency: closed loop of one
  EXPECT_FALSE(s.concurrency_ceiling);
  EXPECT_EQ(s.request_count, 10);  // max(10, 2 * concurrency)
  EXPECT_EQ(s.grace_ns, load::kNever);
  c.benchmark_duration_ns = 5'000'000'000;
  c.warmup_request_count = 3;
  const load::LoadSpec d = make_load_spec(c, WorkloadShape{});
  EXPECT_FALSE(d.request_count);
  EXPECT_EQ(d.grace_ns, 30'000'000'000);  // AIPerf's default grace
  EXPECT_TRUE(d.has_warmup());
  c.grace_period_ns = config::kInfiniteNs;
  EXPECT_EQ(make_load_spec(c, WorkloadShape{}).grace_ns, load::kNever);
}

TEST(LoadSpecFromConfig, RateKeepsItsCeilingAndPattern) {
  auto c = base();
  c.request_rate = 20;
  c.arrival_pattern = config::ArrivalPattern::kGamma;
  c.arrival_smoothness = 2.5;
  c.concurrency = 7;
  c.request_rate_ramp_ns = 1'000;
  const load::LoadSpec s = make_load_spec(c, WorkloadShape{});
  EXPECT_EQ(s.request_rate, 20);
  EXPECT_EQ(s.arrival_pattern, load::ArrivalPattern::kGamma);
  EXPECT_EQ(s.arrival_smoothness, 2.5);
  EXPECT_EQ(s.concurrency, 7);
  EXPECT_EQ(s.concurrency_ceiling, 7);
  EXPECT_EQ(s.rate_ramp_ns, 1'000);
}

TEST(LoadSpecFromConfig, FilePlaysEveryEntryOnceWithoutChangingTheConfig) {
  auto c = base();
  c.input_file = "data.jsonl";
  WorkloadShape shape;
  shape.from_file = true;
  shape.entries = 37;
  const config::BenchmarkConfig before = c;
  EXPECT_EQ(make_load_spec(c, shape).request_count, 37);
  EXPECT_EQ(effective_config(c, shape).request_count, 37);
  EXPECT_EQ(c.request_count, before.request_count) << "the configuration stays as given";
  shape.sessions = true;
  const load::LoadSpec s = make_load_spec(c, shape);
  EXPECT_EQ(s.session_count, 37);
  EXPECT_FALSE(s.request_count);
  EXPECT_TRUE(s.sessions);
  c.request_count = 5;  // an explicit count wins
  EXPECT_EQ(make_load_spec(c, shape).request_count, 5);
  EXPECT_FALSE(make_load_spec(c, shape).session_count);
}

TEST(LoadSpecFromConfig, WorkerCountFromTheSpec) {
  auto c = base();
  c.concurrency = 3;
  EXPECT_EQ(load::default_worker_count(make_load_spec(c, WorkloadShape{}), 8), 3);
  c.workers_max = 2;
  EXPECT_EQ(load::default_worker_count(make_load_spec(c, WorkloadShape{}), 8), 2);
}

TEST(UserHeaders, CredentialThenUserHeaders) {
  auto c = base();
  c.api_key = "k";
  c.headers = {"X-A: 1"};
  EXPECT_EQ(user_headers(c), (std::vector<std::string>{"Authorization: Bearer k", "X-A: 1"}));
}

TEST(UserHeaders, TheEndpointTypeChoosesTheCredentialHeaders) {
  auto c = base();
  c.endpoint_type = "messages";
  c.api_key = "sk-ant-k";
  c.headers = {"X-A: 1"};
  EXPECT_EQ(user_headers(c), (std::vector<std::string>{"x-api-key: sk-ant-k",
                                                       "anthropic-version: 2023-06-01", "X-A: 1"}));
  c.api_key.clear();
  EXPECT_EQ(user_headers(c), (std::vector<std::string>{"X-A: 1"}));
}

}  // namespace
}  // namespace servebench::app
