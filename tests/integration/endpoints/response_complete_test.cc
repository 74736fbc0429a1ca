// Every endpoint type gets RequestRecord::response_complete_ns when its whole response arrived
// and parsed without error, and none when it failed: the load engine's workers against
// servebench-mock, one closed-loop slot, for each registered type the mock serves.
#include <gtest/gtest.h>

#include <mutex>

#include "config/benchmark_config.h"
#include "core/clock.h"
#include "endpoints/registry.h"
#include "integration/mock/mock_harness.h"
#include "load/load_spec.h"
#include "load/plan.h"
#include "load/runner.h"

namespace servebench::itest {
namespace {

namespace mt = mock::testing;

std::vector<record::RequestRecord> run(const std::string& type, bool streaming, uint16_t port,
                                       const std::string& scenario = "") {
  const endpoints::EndpointSpec* spec = *endpoints::find_spec(type);
  endpoints::EndpointOptions eo;
  eo.model = "mock-model";
  eo.streaming = streaming;
  auto endpoint = spec->make_endpoint(eo);
  EXPECT_TRUE(endpoint.has_value());
  endpoints::TurnPayload turn;
  turn.messages = {{"user", "one two three"}, {"user", "four"}};
  turn.max_output_tokens = 4;

  load::LoadSpec spec_load;
  spec_load.concurrency = 1;
  spec_load.request_count = 3;
  const load::Plan plan = load::build_plan(spec_load, 1);
  load::WorkerSettings settings;
  settings.urls = {"http://127.0.0.1:" + std::to_string(port) + std::string(spec->default_path)};
  settings.headers = {"Content-Type: application/json"};
  if (!scenario.empty()) settings.headers.push_back("X-Mock-Scenario: " + scenario);
  settings.models = {"mock-model"};
  load::RequestTemplate t;
  t.body = (*endpoint)->render_body(turn);
  settings.requests = {t};
  settings.order = {0};
  settings.streaming = streaming;
  settings.make_parser = spec->make_parser;
  std::mutex mu;
  std::vector<record::RequestRecord> out;
  load::Runner runner(plan, settings, 1, core::SteadyClock::instance(),
                      [&](record::PackedRecords&& batch) {
                        std::lock_guard<std::mutex> lock(mu);
                        record::PackedRecords::Reader reader(batch);
                        while (reader.next(&out.emplace_back())) {
                        }
                        out.pop_back();
                      });
  EXPECT_TRUE(runner.run().has_value());
  return out;
}

TEST(ResponseComplete, SetOnSuccessForEveryTypeStreamedOrNot) {
  auto mock = mt::MockProcess::start({"--ttft-ms", "2"});
  ASSERT_NE(mock, nullptr);
  struct Case {
    std::string type;
    bool streaming;
  };
  for (const Case& c : {Case{"chat", true}, Case{"chat", false}, Case{"completions", true},
                        Case{"completions", false}, Case{"embeddings", false}}) {
    SCOPED_TRACE(c.type + (c.streaming ? " streaming" : ""));
    const auto recs = run(c.type, c.streaming, mock->port());
    ASSERT_EQ(recs.size(), 3u);
    for (const auto& r : recs) {
      EXPECT_TRUE(r.ok()) << r.error_message;
      EXPECT_GT(r.response_complete_ns, r.request_start_ns);
      EXPECT_GE(r.response_complete_ns, r.first_byte_ns);
      EXPECT_LE(r.response_complete_ns, r.end_ns);
      if (c.type == "embeddings") {
        EXPECT_EQ(r.output_items, 2) << "one vector per input text";
        EXPECT_EQ(r.usage.prompt_tokens, 4);
      } else {
        EXPECT_EQ(r.output_items, -1);
        EXPECT_FALSE(r.output_text.empty());
      }
    }
  }
}

TEST(ResponseComplete, NotSetWhenTheResponseFailed) {
  auto mock = mt::MockProcess::start({});
  ASSERT_NE(mock, nullptr);
  for (const std::string type : {"chat", "embeddings"}) {
    for (const std::string kind : {"malformed", "http500", "error-event"}) {
      SCOPED_TRACE(type + " " + kind);
      const auto recs = run(type, false, mock->port(), "error_rate=100;error_kind=" + kind);
      ASSERT_EQ(recs.size(), 3u);
      for (const auto& r : recs) {
        EXPECT_FALSE(r.ok());
        EXPECT_EQ(r.response_complete_ns, 0);
      }
    }
  }
  // A streamed error object mid-stream: an error, no completion.
  const auto recs = run("chat", true, mock->port(), "error_rate=100;error_kind=error-event");
  ASSERT_EQ(recs.size(), 3u);
  for (const auto& r : recs) {
    EXPECT_EQ(r.error, record::ErrorKind::kServerErrorEvent) << r.error_message;
    EXPECT_EQ(r.response_complete_ns, 0);
  }
}

}  // namespace
}  // namespace servebench::itest
