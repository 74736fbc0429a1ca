// huggingface_generate and solido_rag: bodies as AIPerf renders them, and parsers on the answer
// shapes of TGI's API documentation (tests/unit/endpoints/data/tgi_stream.sse) and Solido's.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "endpoints/endpoint.h"
#include "endpoints/registry.h"

namespace servebench::endpoints {
namespace {

using record::ChunkKind;
using record::ErrorKind;
using record::RequestRecord;

std::unique_ptr<Endpoint> make(std::string_view type, EndpointOptions o) {
  auto e = make_endpoint(type, o);
  EXPECT_TRUE(e.has_value()) << (e ? "" : e.error().message);
  return e ? std::move(*e) : nullptr;
}

TurnPayload turn(std::vector<std::string> texts, int64_t max_tokens = -1) {
  TurnPayload t;
  for (auto& s : texts) t.messages.push_back({"user", std::move(s)});
  t.max_output_tokens = max_tokens;
  return t;
}

// SSE events of a file: the data of each blank-line separated event (our transport frames them
// the same way; `data:` without a space, as TGI writes it).
std::vector<std::string> sse_events(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> out;
  std::string line, data;
  while (std::getline(in, line)) {
    if (line.empty()) {
      if (!data.empty()) out.push_back(data);
      data.clear();
    } else if (line.rfind("data:", 0) == 0) {
      data = line.substr(line.size() > 5 && line[5] == ' ' ? 6 : 5);
    }
  }
  return out;
}

TEST(HfGenerate, BodyJoinsTextsAndPutsExtrasInParameters) {
  EndpointOptions o;
  o.model = "tgi";
  o.extra_inputs_json = R"({"temperature":0.5,"top_k":5})";
  auto e = make("huggingface_generate", o);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->default_path(), "/generate");
  EXPECT_EQ(
      e->render_body(turn({"What is", "Deep \"Learning\"?"}, 20)),
      R"({"inputs":"What is Deep \"Learning\"?","parameters":{"max_new_tokens":20,"temperature":0.5,"top_k":5}})");
  EXPECT_EQ(e->render_body(turn({"x"})),
            R"({"inputs":"x","parameters":{"temperature":0.5,"top_k":5}})");
  // A row's own extras go at the top level, after the standard members.
  auto row = BodyExtras::parse(R"({"stream":false,"parameters":{"seed":1}})", "extra");
  ASSERT_TRUE(row.has_value());
  TurnPayload t = turn({"x"}, 3);
  t.extras = &*row;
  EXPECT_EQ(e->render_body(t), R"({"inputs":"x","stream":false,"parameters":{"seed":1}})");
}

TEST(HfGenerate, StreamingChangesThePathAndExtraMaxNewTokensWins) {
  EndpointOptions o;
  o.streaming = true;
  o.extra_inputs_json = R"({"max_new_tokens":7})";
  auto e = make("huggingface_generate", o);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->default_path(), "/generate_stream");
  EXPECT_EQ(e->render_body(turn({"hi"}, 20)),
            R"({"inputs":"hi","parameters":{"max_new_tokens":7}})");
}

TEST(HfGenerate, StreamUsesTokenTextNeverTheFinalGeneratedText) {
  auto p = make_event_parser("huggingface_generate");
  ASSERT_NE(p, nullptr);
  RequestRecord rec;
  const auto events =
      sse_events(SERVEBENCH_TEST_SOURCE_DIR "/tests/unit/endpoints/data/tgi_stream.sse");
  ASSERT_EQ(events.size(), 4u);
  int64_t t = 100;
  for (const auto& ev : events) EXPECT_EQ(p->parse_event(ev, t++, &rec), ParseStatus::kOk);
  EXPECT_EQ(rec.error, ErrorKind::kNone);
  EXPECT_EQ(rec.output_text, " Deep Learning is a");
  ASSERT_EQ(rec.chunks.size(), 4u);
  for (const auto& c : rec.chunks) EXPECT_EQ(c.kind, ChunkKind::kContent);
  EXPECT_EQ(rec.chunks[1].recv_ns, 101);
  EXPECT_EQ(rec.finish_reason, "length");
  EXPECT_EQ(rec.usage.completion_tokens, 4);
  EXPECT_EQ(rec.usage.prompt_tokens, 6);
  EXPECT_EQ(rec.usage.total_tokens, 10);
}

TEST(HfGenerate, BodyObjectOrListAndErrors) {
  auto p = make_event_parser("huggingface_generate");
  RequestRecord a;
  EXPECT_EQ(p->parse_body(R"({"generated_text":"Deep Learning is"})", 5, &a), ParseStatus::kOk);
  EXPECT_EQ(a.output_text, "Deep Learning is");
  EXPECT_FALSE(a.usage.present());
  RequestRecord b;
  EXPECT_EQ(
      p->parse_body(
          R"([{"generated_text":"x y","details":{"finish_reason":"eos_token","generated_tokens":2,"seed":null,"prefill":[],"tokens":[]}}])",
          5, &b),
      ParseStatus::kOk);
  EXPECT_EQ(b.output_text, "x y");
  EXPECT_EQ(b.finish_reason, "eos_token");
  EXPECT_EQ(b.usage.completion_tokens, 2);
  RequestRecord c;
  EXPECT_EQ(
      p->parse_body(
          R"({"error":"Input validation error: `inputs` must have less than 4096 tokens","error_type":"validation"})",
          5, &c),
      ParseStatus::kServerError);
  EXPECT_EQ(c.error, ErrorKind::kServerErrorEvent);
  EXPECT_NE(c.error_message.find("Input validation error"), std::string::npos);
  RequestRecord d;
  EXPECT_EQ(
      p->parse_event(
          R"({"error":"Request failed during generation: Server error: out of memory","error_type":"generation"})",
          5, &d),
      ParseStatus::kServerError);
  RequestRecord e;
  EXPECT_EQ(p->parse_body(R"({"generated_text": "trunc)", 5, &e), ParseStatus::kMalformed);
  EXPECT_EQ(e.error, ErrorKind::kMalformedSse);
  RequestRecord f;
  EXPECT_EQ(p->parse_body("[1, 2]", 5, &f), ParseStatus::kMalformed);
}

TEST(SolidoRag, BodyAsAiperfRendersIt) {
  EndpointOptions o;
  o.model = "solido-llm";
  auto e = make("solido_rag", o);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->default_path(), "/rag/api/prompt");
  EXPECT_EQ(
      e->render_body(turn({"How do I run SDE?", "", "second"}, 50)),
      R"({"query":["How do I run SDE?","second"],"filters":{"family":"Solido","tool":"SDE"},"inference_model":"solido-llm"})");
  o.extra_inputs_json = R"({"filters":{"family":"X"},"top_k":3})";
  auto f = make("solido_rag", o);
  TurnPayload t = turn({"q"});
  t.model = "other";
  EXPECT_EQ(f->render_body(t),
            R"({"query":["q"],"inference_model":"other","filters":{"family":"X"},"top_k":3})");
}

TEST(SolidoRag, ParsesContentOfBodiesAndEvents) {
  auto p = make_event_parser("solido_rag");
  ASSERT_NE(p, nullptr);
  RequestRecord a;
  EXPECT_EQ(
      p->parse_body(
          R"({"content":"Use the SDE launcher.","sources":[{"title":"manual.pdf","page":3}]})", 9,
          &a),
      ParseStatus::kOk);
  EXPECT_EQ(a.output_text, "Use the SDE launcher.");
  ASSERT_EQ(a.chunks.size(), 1u);
  EXPECT_EQ(a.chunks[0].kind, ChunkKind::kContent);
  RequestRecord b;
  EXPECT_EQ(p->parse_event(R"({"content":"Use"})", 1, &b), ParseStatus::kOk);
  EXPECT_EQ(p->parse_event(R"({"content":" it"})", 2, &b), ParseStatus::kOk);
  EXPECT_EQ(p->parse_event(R"({"sources":[]})", 3, &b), ParseStatus::kOk);
  EXPECT_EQ(b.output_text, "Use it");
  EXPECT_EQ(b.chunks.size(), 3u);
  EXPECT_EQ(b.chunks[2].kind, ChunkKind::kEmpty);
  RequestRecord c;
  EXPECT_EQ(p->parse_body(R"({"error":"retriever down"})", 1, &c), ParseStatus::kServerError);
  EXPECT_NE(c.error_message.find("retriever down"), std::string::npos);
}

TEST(GenericTypes, SpecsAndOptionRules) {
  for (const char* type : {"huggingface_generate", "solido_rag", "template", "raw"}) {
    auto s = find_spec(type);
    ASSERT_TRUE(s.has_value()) << type;
    EXPECT_TRUE((*s)->has(core::kCapStreams));
    EXPECT_TRUE((*s)->has(core::kCapProducesTokens));
    EXPECT_FALSE((*s)->has(core::kCapChatMessages));
  }
  EXPECT_EQ((*find_spec("solido_rag"))->metrics_title, "SOLIDO RAG Metrics");
  EXPECT_EQ((*find_spec("huggingface_generate"))->metrics_title, "LLM Metrics");
  EXPECT_EQ((*find_spec("template"))->default_path, "");
  OptionFacts shared;
  shared.shared_prompts = true;
  OptionFacts turns;
  turns.multi_turn = true;
  for (const char* type : {"huggingface_generate", "solido_rag", "template"}) {
    for (const OptionFacts& f : {shared, turns}) {
      Status st = check_options(**find_spec(type), f);
      ASSERT_FALSE(st.has_value()) << type;
      EXPECT_EQ(st.error().message.find('\n'), std::string::npos);
      EXPECT_NE(st.error().message.find(type), std::string::npos);
    }
  }
  OptionFacts none;
  Status raw = check_options(**find_spec("raw"), none);
  ASSERT_FALSE(raw.has_value());
  EXPECT_NE(raw.error().message.find("--input-file"), std::string::npos);
  OptionFacts file;
  file.input_file = true;
  file.streaming = true;
  EXPECT_TRUE(check_options(**find_spec("raw"), file).has_value());
  OptionFacts batch;
  batch.batch_size = 4;
  EXPECT_TRUE(check_options(**find_spec("template"), batch).has_value());
  EXPECT_FALSE(check_options(**find_spec("huggingface_generate"), batch).has_value());
}

}  // namespace
}  // namespace servebench::endpoints
