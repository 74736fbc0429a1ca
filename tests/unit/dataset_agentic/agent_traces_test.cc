#include <gtest/gtest.h>

#include <string>

#include "dataset/loaders/dataset_file.h"
#include "dataset/loaders/sagemaker_capture.h"
#include "dataset/loaders/weka_trace.h"

namespace servebench::dataset {
namespace {

const char* kWeka = R"({"id":"demo","models":["big"],"block_size":64,"hash_id_scope":"local","requests":[
 {"t":0.0,"type":"s","model":"big","in":256,"out":40,"hash_ids":[1,2,3,4],"api_time":0.9,"ttft":0.2},
 {"t":1.4,"type":"n","model":"big","in":384,"out":30,"hash_ids":[1,2,3,4,5,6],"api_time":0.7,"think_time":0.5},
 {"t":2.3,"type":"subagent","agent_id":"a1","subagent_type":"Explore","status":"completed",
  "models":["small"],"duration_ms":1500,"requests":[
   {"t":2.4,"type":"n","model":"small","in":192,"out":25,"hash_ids":[70,71,72],"api_time":1.2}]},
 {"t":4.1,"type":"n","model":"big","in":512,"out":50,"hash_ids":[1,2,3,4,5,6,7,8,9],"api_time":1.0}]})";

TEST(WekaTrace, ParentTurnsChildrenJoinAndModels) {
  auto f = parse_dataset_text(kWeka, FileFormat::kWekaTrace, "demo.json");
  ASSERT_TRUE(f) << f.error().message;
  ASSERT_EQ(f->conversations.size(), 2u);
  const auto& root = f->conversations[0];
  EXPECT_EQ(root.session_id, "demo");
  EXPECT_FALSE(root.carry_history);
  ASSERT_EQ(root.turns.size(), 3u);
  EXPECT_EQ(root.turns[0].input_length, 256);
  EXPECT_EQ(root.turns[2].output_length, 50);
  EXPECT_DOUBLE_EQ(root.turns[1].timestamp_ms, 1400);
  EXPECT_DOUBLE_EQ(root.turns[1].delay_ms, 1400);
  EXPECT_DOUBLE_EQ(root.turns[1].think_time_ms, 500);
  // 9 ids for 512 tokens of 64: the tail id beyond ceil(512/64) = 8 is dropped.
  EXPECT_EQ(root.turns[2].hash_ids.size(), 8u);
  EXPECT_EQ(root.turns[0].hash_ids[0], root.turns[2].hash_ids[0]);  // shared prefix block
  ASSERT_EQ(root.branches.size(), 1u);
  EXPECT_EQ(root.branches[0].after_turn, 1);  // last parent request before the marker
  EXPECT_EQ(root.branches[0].join_turn, 2);   // 2.3 + 1.5 = 3.8 <= 4.1
  ASSERT_EQ(root.branches[0].children.size(), 1u);
  EXPECT_EQ(root.branches[0].children[0], "demo::sa:a1");
  EXPECT_NEAR(root.branches[0].child_delay_ms[0], 100, 1e-6);
  const auto& child = f->conversations[1];
  EXPECT_EQ(child.session_id, "demo::sa:a1");
  EXPECT_EQ(child.turns[0].input_length, 192);
  EXPECT_EQ(child.turns[0].model_rank, 1);
  EXPECT_EQ(root.turns[0].model_rank, 0);
  EXPECT_EQ(f->default_block_size, 64);
  EXPECT_TRUE(f->has_timestamps);
}

TEST(WekaTrace, TheoreticalPrefixHitsWalkRequestsInTimeOrder) {
  auto f = parse_dataset_text(kWeka, FileFormat::kWekaTrace, "demo.json");
  ASSERT_TRUE(f);
  const auto& root = f->conversations[0];
  EXPECT_EQ(root.turns[0].prefix_hit_blocks, 0);
  EXPECT_EQ(root.turns[0].prefix_total_blocks, 4);
  EXPECT_EQ(root.turns[1].prefix_hit_blocks, 4);
  EXPECT_EQ(root.turns[2].prefix_hit_blocks, 6);
  EXPECT_EQ(root.turns[2].prefix_total_blocks, 8);
  EXPECT_EQ(f->conversations[1].turns[0].prefix_hit_blocks, 0);
}

TEST(WekaTrace, LateSubagentIsBackgroundAndEarlyOneIsDropped) {
  const std::string text = R"({"id":"x","models":["m"],"block_size":16,"hash_id_scope":"local","requests":[
    {"t":0,"type":"subagent","agent_id":"early","models":["m"],"requests":[{"t":0,"type":"n","model":"m","in":4,"out":1}]},
    {"t":0.5,"type":"n","model":"m","in":16,"out":2},
    {"t":1,"type":"subagent","agent_id":"late","models":["m"],"duration_ms":9000,"requests":[{"t":0.1,"type":"n","model":"m","in":4,"out":1}]},
    {"t":2,"type":"n","model":"m","in":32,"out":2}]})";
  auto f = parse_dataset_text(text, FileFormat::kWekaTrace, "x.json");
  ASSERT_TRUE(f) << f.error().message;
  ASSERT_EQ(f->conversations.size(), 2u);
  ASSERT_EQ(f->conversations[0].branches.size(), 1u);
  EXPECT_EQ(f->conversations[0].branches[0].join_turn, -1);
  EXPECT_EQ(f->conversations[0].branches[0].children[0], "x::sa:late");
  // Inner t 0.1 < marker t 1: relative to the marker, so the child starts at once.
  EXPECT_NEAR(f->conversations[0].branches[0].child_delay_ms[0], 100, 1e-6);
}

TEST(WekaTrace, StrictFieldsAreOneLineErrors) {
  const char* bad[] = {
      R"({"id":"x","models":[],"block_size":16,"hash_id_scope":"global","requests":[]})",
      R"({"id":"x","models":[],"block_size":16,"hash_id_scope":"local","requests":[{"t":0,"type":"n","model":"m","in":4}]})",
      R"({"id":"x","models":[],"block_size":16,"hash_id_scope":"local","typo":1,"requests":[]})",
      R"({"id":"x","models":[],"block_size":0,"hash_id_scope":"local","requests":[]})",
  };
  for (const char* text : bad) {
    auto f = parse_dataset_text(text, FileFormat::kWekaTrace, "bad.json");
    ASSERT_FALSE(f) << text;
    EXPECT_NE(f.error().message.find("bad.json"), std::string::npos);
    EXPECT_EQ(f.error().message.find('\n'), std::string::npos);
  }
}

TEST(WekaTrace, OptionsThinkTimeAndMaxContext) {
  auto f = parse_dataset_text(kWeka, FileFormat::kWekaTrace, "demo.json");
  ASSERT_TRUE(f);
  WekaOptions o;
  o.think_time_only = true;
  ASSERT_TRUE(apply_weka_options(&*f, o));
  EXPECT_DOUBLE_EQ(f->conversations[0].turns[1].delay_ms, 500);
  EXPECT_LT(f->conversations[0].turns[1].timestamp_ms, 0);
  EXPECT_DOUBLE_EQ(f->conversations[0].turns[2].delay_ms, 2700);  // null think_time: start-to-start
  o = {};
  o.max_context_length = 561;  // peak 512 + 50 = 562
  auto g = parse_dataset_text(kWeka, FileFormat::kWekaTrace, "demo.json");
  ASSERT_TRUE(g);
  EXPECT_FALSE(apply_weka_options(&*g, o));
  o.max_context_length = 562;
  EXPECT_TRUE(apply_weka_options(&*g, o));
  EXPECT_EQ(g->conversations.size(), 2u);
}

TEST(DagJsonl, ForksSpawnsJoinsAndMessages) {
  const std::string text =
      "\xEF\xBB\xBF"
      R"({"session_id":"lead","turns":[{"messages":[{"role":"system","content":"Be terse."},{"role":"user","content":"Split."}],"max_tokens":50,"model":"a","spawns":[{"children":["w1","w2"],"join_at":1}]},{"messages":[{"role":"user","content":"Merge."}],"forks":["audit"],"tools":[{"type":"function"}]}]})"
      "\n\n"
      R"({"session_id":"w1","turns":[{"messages":[{"role":"user","content":[{"type":"text","text":"p1"}]}],"delay":5}]})"
      "\n"
      R"({"session_id":"audit","turns":[{"messages":[{"role":"user","content":"Audit."}],"extra":{"temperature":0},"model":"b"}]})";
  auto f = parse_dataset_text(text, FileFormat::kDagJsonl, "dag.jsonl");
  ASSERT_TRUE(f) << f.error().message;
  ASSERT_EQ(f->conversations.size(), 3u);
  const auto& lead = f->conversations[0];
  ASSERT_EQ(lead.branches.size(), 2u);
  EXPECT_EQ(lead.branches[0].after_turn, 0);
  EXPECT_EQ(lead.branches[0].join_turn, 1);
  EXPECT_FALSE(lead.branches[0].fork);
  EXPECT_EQ(lead.branches[1].after_turn, 1);
  EXPECT_TRUE(lead.branches[1].fork);
  EXPECT_EQ(lead.turns[0].lead_messages.size(), 1u);
  EXPECT_EQ(lead.turns[0].lead_messages[0].first, "system");
  EXPECT_EQ(lead.turns[0].texts[0], "Split.");
  EXPECT_EQ(lead.turns[0].output_length, 50);
  EXPECT_EQ(lead.turns[1].extra_json, R"({"tools":[{"type":"function"}]})");
  EXPECT_EQ(f->conversations[1].turns[0].texts[0], R"([{"type":"text","text":"p1"}])");
  EXPECT_DOUBLE_EQ(f->conversations[1].turns[0].delay_ms, 5);
  EXPECT_EQ(f->conversations[2].turns[0].model_rank, 1);
  EXPECT_EQ(f->conversations[2].turns[0].extra_json, R"({"temperature":0})");
}

TEST(DagJsonl, RuleViolationsAreErrorsNamingTheLine) {
  const char* bad[] = {
      R"({"session_id":"a","turns":[{"messages":[{"role":"user","content":"x"}],"forks":["b"]},{"messages":[{"role":"user","content":"y"}]}]})",
      R"({"session_id":"a","turns":[{"messages":[{"role":"user","content":"x"}],"spawns":[{"children":["b"],"join_at":0}]}]})",
      R"({"session_id":"a","turns":[{"messages":[]}]})",
      R"({"session_id":"a","turns":[{"messages":[{"role":"user","content":"x"}],"max_tokens":true}]})",
      R"({"session_id":"a","turns":[{"messages":[{"role":"user","content":"x"}]},{"messages":[{"role":"system","content":"s"}]}]})",
      R"({"session_id":"a","turns":[{"messages":[{"role":"user","content":"x"}],"spawns":["b","b"]}]})",
      R"({"session_id":"a","turns":[{"messages":[{"role":"user","content":"x"}]}],"extra_key":1})",
  };
  for (const char* text : bad) {
    auto f = parse_dataset_text(text, FileFormat::kDagJsonl, "d.jsonl");
    ASSERT_FALSE(f) << text;
    EXPECT_NE(f.error().message.find("d.jsonl:1"), std::string::npos) << f.error().message;
  }
  auto dup = parse_dataset_text(
      "{\"session_id\":\"a\",\"turns\":[{\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}]}\n"
      "{\"session_id\":\"a\",\"turns\":[{\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}]}",
      FileFormat::kDagJsonl, "d.jsonl");
  ASSERT_FALSE(dup);
  EXPECT_NE(dup.error().message.find("d.jsonl:2"), std::string::npos);
}

TEST(SageMakerCapture, JsonAndBase64InputsWithRebasedTimes) {
  const std::string text =
      R"({"captureData":{"endpointInput":{"data":"{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_tokens\":5}","encoding":"JSON"}},"eventMetadata":{"inferenceTime":"2024-05-01T12:00:01.5Z"}})"
      "\n"
      R"({"captureData":{"endpointInput":{"data":"eyJpbnB1dHMiOiJoZWxsbyIsInBhcmFtZXRlcnMiOnsibWF4X25ld190b2tlbnMiOjd9fQ==","encoding":"BASE64"}},"eventMetadata":{"inferenceTime":"2024-05-01T12:00:00Z"}})"
      "\n"
      R"({"captureData":{"endpointOutput":{"data":"{}","encoding":"JSON"}}})";
  auto f = parse_dataset_text(text, FileFormat::kSageMakerCapture, "cap.jsonl");
  ASSERT_TRUE(f) << f.error().message;
  ASSERT_EQ(f->conversations.size(), 2u);
  EXPECT_EQ(f->conversations[0].turns[0].messages_json, R"([{"role":"user","content":"hi"}])");
  EXPECT_EQ(f->conversations[0].turns[0].output_length, 5);
  EXPECT_DOUBLE_EQ(f->conversations[0].turns[0].timestamp_ms, 1500);
  EXPECT_EQ(f->conversations[1].turns[0].texts[0], "hello");
  EXPECT_EQ(f->conversations[1].turns[0].output_length, 7);
  EXPECT_DOUBLE_EQ(f->conversations[1].turns[0].timestamp_ms, 0);
}

TEST(SageMakerCapture, Iso8601AndBase64Helpers) {
  double ms = 0;
  ASSERT_TRUE(parsers::parse_iso8601_ms("1970-01-02T00:00:00Z", &ms));
  EXPECT_DOUBLE_EQ(ms, 86400000);
  ASSERT_TRUE(parsers::parse_iso8601_ms("2000-03-01T00:00:00.125+00:00", &ms));
  EXPECT_DOUBLE_EQ(ms, 951868800125);
  EXPECT_FALSE(parsers::parse_iso8601_ms("2000-03-01 00:00:00", &ms));
  EXPECT_FALSE(parsers::parse_iso8601_ms("2000-13-01T00:00:00Z", &ms));
}

TEST(AgentTraceDetection, FirstRecordPicksTheFormat) {
  // parse via detection through a temp file is covered by integration; here the names round-trip.
  for (const char* name : {"weka_trace", "dag_jsonl", "sagemaker_data_capture"}) {
    auto f = parse_file_format(name);
    ASSERT_TRUE(f) << name;
    EXPECT_STREQ(file_format_name(*f), name);
  }
}

}  // namespace
}  // namespace servebench::dataset
