#include "dataset/loaders/dataset_file.h"

#include <cstdio>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

namespace servebench::dataset {
namespace {

DatasetFile parse_ok(std::string_view text, FileFormat f) {
  auto r = parse_dataset_text(text, f, "test.jsonl");
  EXPECT_TRUE(r) << (r ? "" : r.error().message);
  return r ? *r : DatasetFile{};
}

std::string parse_err(std::string_view text, FileFormat f) {
  auto r = parse_dataset_text(text, f, "test.jsonl");
  EXPECT_FALSE(r);
  return r ? "" : r.error().message;
}

TEST(FormatNames, RoundTripAndUnknown) {
  for (auto f : {FileFormat::kSingleTurn, FileFormat::kMultiTurn, FileFormat::kRandomPool,
                 FileFormat::kMooncakeTrace, FileFormat::kBailianTrace, FileFormat::kBurstGptTrace,
                 FileFormat::kInputsJson, FileFormat::kRawPayload, FileFormat::kShareGpt})
    EXPECT_EQ(*parse_file_format(file_format_name(f)), f);
  auto bad = parse_file_format("moon");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("mooncake_trace"), std::string::npos);
  EXPECT_TRUE(bad.error().is_usage());
}

TEST(SingleTurn, TextsSessionsTimingExtra) {
  auto d = parse_ok(
      "{\"text\": \"hello\", \"output_length\": 5, \"timestamp\": 10}\n"
      "\n"
      "{\"texts\": [\"a\", {\"name\": \"q\", \"contents\": [\"b\", \"c\"]}], \"session_id\": \"s1\", "
      "\"delay\": 3.5, \"extra\": {\"temperature\": 0}}\r\n"
      "{\"text\": \"again\", \"session_id\": \"s1\", \"role\": \"user\"}\n",
      FileFormat::kSingleTurn);
  ASSERT_EQ(d.conversations.size(), 2u);
  EXPECT_EQ(d.lines, 3);
  const auto& t0 = d.conversations[0].turns[0];
  EXPECT_EQ(t0.texts, std::vector<std::string>{"hello"});
  EXPECT_EQ(t0.output_length, 5);
  EXPECT_DOUBLE_EQ(t0.timestamp_ms, 10);
  EXPECT_EQ(t0.line, 1);
  ASSERT_EQ(d.conversations[1].session_id, "s1");
  ASSERT_EQ(d.conversations[1].turns.size(), 2u);
  const auto& t1 = d.conversations[1].turns[0];
  EXPECT_EQ(t1.texts, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_DOUBLE_EQ(t1.delay_ms, 3.5);
  EXPECT_EQ(t1.extra_json, "{\"temperature\":0}");
  EXPECT_EQ(t1.line, 3);
  EXPECT_EQ(d.conversations[1].turns[1].role, "user");
  EXPECT_TRUE(d.has_timestamps);
}

TEST(SingleTurn, ErrorsNameFileLineAndField) {
  EXPECT_EQ(parse_err("{\"text\": \"a\"}\n{\"text\": 5}\n", FileFormat::kSingleTurn),
            "test.jsonl:2: field 'text': expected a string");
  EXPECT_EQ(parse_err("{\"text\": \"a\", \"timestamp\": 1, \"delay\": 2}", FileFormat::kSingleTurn),
            "test.jsonl:1: field 'timestamp': give either 'timestamp' or 'delay', not both");
  EXPECT_EQ(parse_err("{\"text\": \"a\", \"output_length\": 0}", FileFormat::kSingleTurn),
            "test.jsonl:1: field 'output_length': expected a whole number > 0");
  EXPECT_NE(parse_err("{\"text\": \"a\"}\n{not json}\n", FileFormat::kSingleTurn).find("test.jsonl:2: invalid JSON"),
            std::string::npos);
  EXPECT_EQ(parse_err("{\"role\": \"user\"}", FileFormat::kSingleTurn),
            "test.jsonl:1: field 'text': each entry needs 'text', 'texts' or a media field (image, audio, video)");
  EXPECT_EQ(parse_err("{\"text\": \"a\", \"image\": \"x.png\", \"images\": [\"y.png\"]}", FileFormat::kSingleTurn),
            "test.jsonl:1: field 'image': give either 'image' or 'images', not both");
  EXPECT_EQ(parse_err("{\"text\": \"a\", \"audios\": \"x.wav\"}", FileFormat::kSingleTurn),
            "test.jsonl:1: field 'audios': expected an array of strings");
  EXPECT_EQ(parse_err("{\"video\": 3}", FileFormat::kSingleTurn),
            "test.jsonl:1: field 'video': expected a file path, an http(s) URL or a data URL (a non-empty string)");
  EXPECT_NE(parse_err("\n\n", FileFormat::kSingleTurn).find("empty"), std::string::npos);
}

TEST(SingleTurn, MediaFieldsInKindOrderWithTheirLines) {
  auto d = parse_ok(
      "{\"text\": \"a\"}\n"
      "{\"videos\": [\"v.webm\"], \"audio\": \"wav,AAAA\", \"images\": [\"a.png\", \"http://h/b.jpg\"]}\n",
      FileFormat::kSingleTurn);
  ASSERT_EQ(d.conversations.size(), 2u);
  EXPECT_TRUE(d.conversations[0].turns[0].media.empty());
  const auto& t = d.conversations[1].turns[0];
  EXPECT_TRUE(t.texts.empty());  // a media-only row is a request (AIPerf: one modality needed)
  ASSERT_EQ(t.media.size(), 4u);
  EXPECT_EQ(t.media[0].value, "a.png");
  EXPECT_EQ(t.media[0].field, "images");
  EXPECT_EQ(t.media[1].value, "http://h/b.jpg");
  EXPECT_EQ(t.media[2].kind, core::MediaKind::kAudio);
  EXPECT_EQ(t.media[2].field, "audio");
  EXPECT_EQ(t.media[3].kind, core::MediaKind::kVideo);
  EXPECT_EQ(t.media[3].line, 2);
  auto m = parse_ok("{\"turns\": [{\"text\": \"q\", \"image\": \"p.png\"}]}", FileFormat::kMultiTurn);
  ASSERT_EQ(m.conversations[0].turns[0].media.size(), 1u);
  auto r = parse_ok("{\"text\": \"q\", \"image\": \"p.png\"}", FileFormat::kRandomPool);
  ASSERT_EQ(r.conversations[0].turns[0].media.size(), 1u);
}

TEST(MultiTurn, TurnsInOrder) {
  auto d = parse_ok(
      "{\"session_id\": \"c1\", \"turns\": [{\"text\": \"hi\", \"role\": \"system\"}, "
      "{\"text\": \"q1\", \"delay\": 100}, {\"text\": \"q2\", \"output_length\": 9}]}\n"
      "{\"turns\": [{\"text\": \"solo\"}]}\n",
      FileFormat::kMultiTurn);
  ASSERT_EQ(d.conversations.size(), 2u);
  ASSERT_EQ(d.conversations[0].turns.size(), 3u);
  EXPECT_EQ(d.conversations[0].turns[0].role, "system");
  EXPECT_DOUBLE_EQ(d.conversations[0].turns[1].delay_ms, 100);
  EXPECT_EQ(d.conversations[0].turns[2].output_length, 9);
  EXPECT_FALSE(d.conversations[1].session_id.empty());
  EXPECT_EQ(parse_err("{\"turns\": []}", FileFormat::kMultiTurn), "test.jsonl:1: field 'turns': must not be empty");
}

TEST(Mooncake, FourInputModesAndSessions) {
  auto d = parse_ok(
      "{\"timestamp\": 0, \"input_length\": 655, \"output_length\": 52, \"hash_ids\": [46, 47]}\n"
      "{\"timestamp\": 10, \"text_input\": \"hello\", \"session_id\": \"a\"}\n"
      "{\"delay\": 5, \"messages\": [{\"role\": \"user\", \"content\": \"x\"}], \"tools\": [], \"session_id\": \"a\"}\n"
      "{\"payload\": {\"model\": \"m\", \"prompt\": \"p\"}}\n",
      FileFormat::kMooncakeTrace);
  EXPECT_EQ(d.default_block_size, 512);
  ASSERT_EQ(d.conversations.size(), 3u);
  EXPECT_EQ(d.conversations[0].turns[0].input_length, 655);
  EXPECT_EQ(d.conversations[0].turns[0].hash_ids, (std::vector<int64_t>{46, 47}));
  ASSERT_EQ(d.conversations[1].turns.size(), 2u);  // session "a": incremental turns
  EXPECT_EQ(d.conversations[1].turns[0].texts[0], "hello");
  EXPECT_EQ(d.conversations[1].turns[1].messages_json, "[{\"role\":\"user\",\"content\":\"x\"}]");
  EXPECT_EQ(d.conversations[1].turns[1].tools_json, "[]");
  EXPECT_EQ(d.conversations[2].turns[0].payload_json, "{\"model\":\"m\",\"prompt\":\"p\"}");
  EXPECT_TRUE(d.has_timestamps);
}

TEST(Mooncake, ExactlyOneInputMode) {
  EXPECT_EQ(parse_err("{\"output_length\": 5}", FileFormat::kMooncakeTrace),
            "test.jsonl:1: field 'input_length': each row needs one of 'input_length', 'text_input', "
            "'messages', 'payload'");
  EXPECT_EQ(parse_err("{\"input_length\": 5, \"text_input\": \"x\"}", FileFormat::kMooncakeTrace),
            "test.jsonl:1: field 'input_length': give exactly one of 'input_length', 'text_input', "
            "'messages', 'payload'");
  EXPECT_EQ(parse_err("{\"input_length\": 5, \"hash_ids\": [1, \"x\"]}", FileFormat::kMooncakeTrace),
            "test.jsonl:1: field 'hash_ids': expected an array of integers");
  EXPECT_EQ(parse_err("{\"input_length\": -5}", FileFormat::kMooncakeTrace),
            "test.jsonl:1: field 'input_length': expected a whole number > 0");
}

TEST(Bailian, ChainsByParentAndConvertsSeconds) {
  auto d = parse_ok(
      "{\"chat_id\": 1, \"parent_chat_id\": -1, \"timestamp\": 0.5, \"input_length\": 40, "
      "\"output_length\": 10, \"type\": \"text\", \"turn\": 1, \"hash_ids\": [1, 2, 3]}\n"
      "{\"chat_id\": 2, \"parent_chat_id\": -1, \"timestamp\": 1.0, \"input_length\": 20, \"output_length\": 5}\n"
      "{\"chat_id\": 3, \"parent_chat_id\": 1, \"timestamp\": 2.0, \"input_length\": 60, \"output_length\": 7}\n"
      "{\"chat_id\": 4, \"parent_chat_id\": 3, \"timestamp\": 3.0, \"input_length\": 80, \"output_length\": 7}\n",
      FileFormat::kBailianTrace);
  EXPECT_EQ(d.default_block_size, 16);
  ASSERT_EQ(d.conversations.size(), 2u);
  ASSERT_EQ(d.conversations[0].turns.size(), 3u);
  EXPECT_DOUBLE_EQ(d.conversations[0].turns[0].timestamp_ms, 500);
  EXPECT_EQ(d.conversations[0].turns[2].input_length, 80);
  EXPECT_EQ(d.conversations[1].turns.size(), 1u);
}

TEST(BurstGpt, CsvColumnsByName) {
  auto d = parse_ok(
      "Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type\n"
      "5,ChatGPT,472,18,490,Conversation log\n"
      "45.5,GPT-4,1087,0,1087,API log\n",
      FileFormat::kBurstGptTrace);
  ASSERT_EQ(d.conversations.size(), 2u);
  EXPECT_DOUBLE_EQ(d.conversations[0].turns[0].timestamp_ms, 5000);
  EXPECT_EQ(d.conversations[0].turns[0].input_length, 472);
  EXPECT_EQ(d.conversations[1].turns[0].output_length, 1);  // zero-length responses ask for one
  EXPECT_EQ(d.conversations[1].turns[0].line, 3);
  EXPECT_EQ(parse_err("Timestamp,Model,Request tokens,Response tokens\n1,m,x,3\n", FileFormat::kBurstGptTrace),
            "test.jsonl:2: field 'Request tokens': expected a number, got 'x'");
  EXPECT_NE(parse_err("a,b\n1,2\n", FileFormat::kBurstGptTrace).find("expected BurstGPT columns"),
            std::string::npos);
}

TEST(InputsJson, PayloadsPerSession) {
  auto d = parse_ok(
      "{\"data\": [{\"session_id\": \"s\", \"payloads\": [{\"model\": \"m\", \"messages\": []}, "
      "{\"model\": \"m\"}]}]}",
      FileFormat::kInputsJson);
  ASSERT_EQ(d.conversations.size(), 1u);
  EXPECT_EQ(d.conversations[0].session_id, "s");
  ASSERT_EQ(d.conversations[0].turns.size(), 2u);
  EXPECT_EQ(d.conversations[0].turns[0].payload_json, "{\"model\":\"m\",\"messages\":[]}");
}

TEST(RawPayload, VerbatimBodies) {
  auto d = parse_ok("{\"payload\": {\"a\": [1, 2]}}\n", FileFormat::kRawPayload);
  ASSERT_EQ(d.conversations.size(), 1u);
  EXPECT_EQ(d.conversations[0].turns[0].payload_json, "{\"a\":[1,2]}");
  EXPECT_EQ(parse_err("{\"payload\": 3}", FileFormat::kRawPayload),
            "test.jsonl:1: field 'payload': expected {\"payload\": {...}} per line");
}

TEST(ShareGpt, HumanGptPairsBecomeTurns) {
  auto d = parse_ok(
      "[{\"id\": \"x\", \"conversations\": [{\"from\": \"human\", \"value\": \"q1\"}, "
      "{\"from\": \"gpt\", \"value\": \"a1\"}, {\"from\": \"human\", \"value\": \"q2\"}, "
      "{\"from\": \"gpt\", \"value\": \"a2\"}, {\"from\": \"human\", \"value\": \"dangling\"}]}, "
      "{\"id\": \"empty\", \"conversations\": []}, {\"no\": \"conversations\"}]",
      FileFormat::kShareGpt);
  ASSERT_EQ(d.conversations.size(), 1u);
  ASSERT_EQ(d.conversations[0].turns.size(), 2u);
  EXPECT_EQ(d.conversations[0].turns[1].texts[0], "q2");
  EXPECT_EQ(d.conversations[0].turns[1].expected_output, "a2");
}

class TempDir : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("sb_dataset_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    auto p = dir_ / name;
    std::ofstream(p) << text;
    return p.string();
  }
  std::filesystem::path dir_;
};

TEST_F(TempDir, DetectsFormats) {
  EXPECT_EQ(*detect_file_format(write("a.jsonl", "{\"text\": \"x\"}\n")), FileFormat::kSingleTurn);
  EXPECT_EQ(*detect_file_format(write("b.jsonl", "{\"turns\": []}\n")), FileFormat::kMultiTurn);
  EXPECT_EQ(*detect_file_format(write("c.jsonl", "{\"input_length\": 3, \"hash_ids\": [1]}\n")),
            FileFormat::kMooncakeTrace);
  EXPECT_EQ(*detect_file_format(write("d.jsonl", "{\"chat_id\": 1, \"parent_chat_id\": -1}\n")),
            FileFormat::kBailianTrace);
  EXPECT_EQ(*detect_file_format(write("e.csv", "Timestamp,Model,Request tokens,Response tokens\n")),
            FileFormat::kBurstGptTrace);
  EXPECT_EQ(*detect_file_format(write("f.json", "{\n \"data\": [\n]\n}\n")), FileFormat::kInputsJson);
  EXPECT_EQ(*detect_file_format(write("g.jsonl", "{\"payload\": {}}\n")), FileFormat::kRawPayload);
  EXPECT_EQ(*detect_file_format(write("h.json", "[{\"conversations\": []}]")), FileFormat::kShareGpt);
}

TEST_F(TempDir, MissingFileIsUsageError) {
  auto r = load_dataset_file((dir_ / "nope.jsonl").string(), std::nullopt);
  ASSERT_FALSE(r);
  EXPECT_TRUE(r.error().is_usage());
  EXPECT_NE(r.error().message.find("nope.jsonl"), std::string::npos);
}

TEST_F(TempDir, RandomPoolFolderAndRawPayloadSessions) {
  std::filesystem::create_directories(dir_ / "pool");
  write("pool/1.jsonl", "{\"text\": \"a\"}\n{\"text\": \"b\"}\n");
  write("pool/2.jsonl", "{\"text\": \"c\"}\n");
  auto pool = load_dataset_file((dir_ / "pool").string(), std::nullopt);
  ASSERT_TRUE(pool) << pool.error().message;
  EXPECT_EQ(pool->format, FileFormat::kRandomPool);
  EXPECT_EQ(pool->conversations.size(), 3u);

  std::filesystem::create_directories(dir_ / "raw");
  write("raw/s1.jsonl", "{\"payload\": {\"t\": 1}}\n{\"payload\": {\"t\": 2}}\n");
  auto raw = load_dataset_file((dir_ / "raw").string(), FileFormat::kRawPayload);
  ASSERT_TRUE(raw) << raw.error().message;
  ASSERT_EQ(raw->conversations.size(), 1u);
  EXPECT_EQ(raw->conversations[0].turns.size(), 2u);
}

}  // namespace
}  // namespace servebench::dataset
