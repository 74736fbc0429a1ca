// The template endpoint type: template compilation (endpoints/template.h), rendering, extras,
// named and file templates, errors; and the auto-detecting response parser of template and raw
// (endpoints/detect_parser.h).
#include "endpoints/template.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "endpoints/endpoint.h"
#include "endpoints/registry.h"

namespace servebench::endpoints {
namespace {

using record::ChunkKind;
using record::ErrorKind;
using record::RequestRecord;

Result<std::unique_ptr<Endpoint>> make(std::string extra_json, bool streaming = false) {
  EndpointOptions o;
  o.model = "tmpl-model";
  o.streaming = streaming;
  o.extra_inputs_json = std::move(extra_json);
  return make_endpoint("template", o);
}

std::string extra(std::string_view tmpl, std::string more = "") {
  nlohmann::ordered_json j;
  j["payload_template"] = tmpl;
  std::string s = j.dump();
  if (!more.empty()) s = s.substr(0, s.size() - 1) + "," + more + "}";
  return s;
}

TurnPayload turn(std::vector<std::string> texts, int64_t max_tokens = -1) {
  TurnPayload t;
  for (auto& s : texts) t.messages.push_back({"user", std::move(s)});
  t.max_output_tokens = max_tokens;
  return t;
}

TEST(Template, RendersEveryPlaceholder) {
  auto e = make(extra(R"({"prompt": {{ text|tojson }}, "all": {{texts}}, "model": "{{ model }}",
    "max_new_tokens": {{ max_tokens }}, "stream": {{ stream|lower }}, "s2": {{ stream|tojson }},
    "role": {{ role|tojson }}, "shout": "{{ text|lower }}"})"),
                true);
  ASSERT_TRUE(e.has_value()) << e.error().message;
  const std::string body = (*e)->render_body(turn({"Say \"Hi\"\n", "two"}, 12));
  auto j = nlohmann::json::parse(body);
  EXPECT_EQ(j["prompt"], "Say \"Hi\"\n");
  EXPECT_EQ(j["all"], nlohmann::json::parse(R"(["Say \"Hi\"\n","two"])"));
  EXPECT_EQ(j["model"], "tmpl-model");
  EXPECT_EQ(j["max_new_tokens"], 12);
  EXPECT_EQ(j["stream"], true);
  EXPECT_EQ(j["s2"], true);
  EXPECT_EQ(j["role"], "user");
  EXPECT_EQ(j["shout"], "say \"hi\"\n");
  // Literal parts are kept byte for byte.
  EXPECT_EQ(body.substr(0, 11), "{\"prompt\": ");
  TurnPayload t = turn({}, -1);
  t.model = "per-turn";
  auto k = nlohmann::json::parse((*e)->render_body(t));
  EXPECT_TRUE(k["prompt"].is_null());
  EXPECT_TRUE(k["max_new_tokens"].is_null());
  EXPECT_EQ(k["all"], nlohmann::json::array());
  EXPECT_EQ(k["model"], "per-turn");
}

TEST(Template, NamedNvEmbedqa) {
  auto e = make(R"({"payload_template":"nv-embedqa"})");
  ASSERT_TRUE(e.has_value()) << e.error().message;
  EXPECT_EQ((*e)->render_body(turn({"a", "b"})), R"({"text": ["a","b"]})");
  EXPECT_EQ((*e)->default_path(), "");
}

TEST(Template, ExtrasReplaceTemplateKeysAndAppend) {
  auto e = make(extra(R"({ "model": {{ model|tojson }}, "input": {{ texts|tojson }}, "n": 1 })",
                      R"("n":3,"user":"u")"));
  ASSERT_TRUE(e.has_value()) << e.error().message;
  EXPECT_EQ((*e)->render_body(turn({"x"})),
            R"({"model": "tmpl-model","input": ["x"],"n":3,"user":"u"})");
  // Replacing the member that holds a placeholder drops the placeholder with it.
  auto f = make(extra(R"({"a": {{ text|tojson }}, "b": {{ texts|tojson }}})", R"("a":0)"));
  ASSERT_TRUE(f.has_value()) << f.error().message;
  EXPECT_EQ((*f)->render_body(turn({"x"})), R"({"b": ["x"],"a":0})");
  // A row's own extras are merged after.
  auto row = BodyExtras::parse(R"({"b":"row"})", "extra");
  TurnPayload t = turn({"x"});
  t.extras = &*row;
  EXPECT_EQ(nlohmann::json::parse((*f)->render_body(t)),
            nlohmann::json::parse(R"({"a":0,"b":"row"})"));
}

TEST(Template, FromAFile) {
  const auto path =
      std::filesystem::temp_directory_path() / ("sb_tmpl_" + std::to_string(::getpid()) + ".json");
  {
    std::ofstream f(path);
    f << "{\n  \"prompt\": {{ text|tojson }},\n  \"max_new_tokens\": {{ max_tokens|tojson }}\n}\n";
  }
  auto e = make(extra(path.string(), R"("response_field":"generated_text")"));
  ASSERT_TRUE(e.has_value()) << e.error().message;
  EXPECT_EQ(nlohmann::json::parse((*e)->render_body(turn({"p"}, 4))),
            nlohmann::json::parse(R"({"prompt":"p","max_new_tokens":4})"));
  std::filesystem::remove(path);
}

TEST(Template, BadTemplatesAreOneLineUsageErrors) {
  struct Case {
    std::string extra_json;
    std::string words;
  };
  const std::vector<Case> cases = {
      {R"({"payload_template":"{\"text\": \"fixed\"}"})", "no {{ ... }} placeholder"},
      {R"({"payload_template":"/no/such/template.json"})", "neither a named template"},
      {R"({"temperature":1})", "payload_template"},
      {"", "payload_template"},
      {extra("{\"a\": {{ prompt }}}"), "unknown placeholder 'prompt'"},
      {extra("{\"a\": {{ text|upper }}}"), "unknown filter 'upper'"},
      {extra("{\"a\": {{ text }"), "'{{' without"},
      {extra("{% for t in texts %}{{ t }}{% endfor %}"), "not supported"},
      {extra("{\"a\": {{ text }}}"), "does not render a JSON object"},
      {extra("[{{ texts|tojson }}]"), "does not render a JSON object"},
      {extra("{\"a\": {{ texts|tojson }}}", R"("response_field":"a[?x]")"), "response_field"},
  };
  for (const auto& c : cases) {
    auto e = make(c.extra_json);
    ASSERT_FALSE(e.has_value()) << c.extra_json;
    EXPECT_EQ(e.error().code, ErrorCode::kInvalidArgument);
    EXPECT_EQ(e.error().message.find('\n'), std::string::npos) << e.error().message;
    EXPECT_NE(e.error().message.find(c.words), std::string::npos) << e.error().message;
  }
}

TEST(Template, WhitespaceControlAndJsonShapedTemplates) {
  auto t = BodyTemplate::compile("{\"a\": \n  {{- text|tojson -}}  \n}", false, BodyExtras{}, "t");
  ASSERT_TRUE(t.has_value()) << t.error().message;
  std::vector<std::string_view> texts{"x"};
  std::string out;
  t->render(BodyTemplate::Values{&texts, "m", 1, "user"}, &out);
  EXPECT_EQ(out, "{\"a\":\"x\"}");
  EXPECT_EQ(t->placeholder_count(), 1u);
  // A template that is valid JSON arrives from --extra-inputs parsed; it still works.
  auto e = make(R"({"payload_template":{"q":"{{ text }}"}})");
  ASSERT_TRUE(e.has_value()) << e.error().message;
  EXPECT_EQ((*e)->render_body(turn({"a\"b"})), R"({"q":"a\"b"})");
}

// --- response parsing ---------------------------------------------------------------------

std::unique_ptr<EventParser> parser_for(std::string type, std::string extra_json) {
  EndpointOptions o;
  o.extra_inputs_json = std::move(extra_json);
  auto e = make_endpoint(type, o);
  EXPECT_TRUE(e.has_value()) << (e ? "" : e.error().message);
  if (!e) return nullptr;
  auto p = (*e)->make_parser();
  EXPECT_NE(p, nullptr);
  return p;
}

TEST(DetectParser, AutoDetectsTextEmbeddingsAndRankings) {
  auto p = make_event_parser("raw");
  ASSERT_NE(p, nullptr);
  struct Case {
    const char* body;
    const char* text;
    int64_t items;
  };
  const Case cases[] = {
      {R"({"choices":[{"message":{"role":"assistant","content":"Hello"}}],"usage":{"prompt_tokens":3,"completion_tokens":1,"total_tokens":4}})",
       "Hello", -1},
      {R"({"choices":[{"index":0,"text":"done"}]})", "done", -1},
      {R"({"generated_text":"tgi"})", "", -1},  // not one of the detected text fields
      {R"({"response":"ollama says"})", "ollama says", -1},
      {R"({"text":["a","b","c"]})", "abc", -1},
      {R"({"object":"list","data":[{"object":"embedding","embedding":[0.1,0.2]},{"object":"embedding","embedding":[0.3,0.4]}]})",
       "", 2},
      {R"({"embeddings":[[1,2],[3,4],[5,6]]})", "", 3},
      {R"({"embedding":[1,2,3]})", "", 1},
      {R"({"results":[{"index":1,"relevance_score":0.9},{"index":0,"relevance_score":0.1}]})", "",
       2},
      {R"([{"index":0,"score":0.98},{"index":1,"score":0.1}])", "", 2},
      {"plain text answer", "plain text answer", -1},
  };
  for (const auto& c : cases) {
    RequestRecord rec;
    EXPECT_EQ(p->parse_body(c.body, 7, &rec), ParseStatus::kOk) << c.body;
    EXPECT_EQ(rec.output_text, c.text) << c.body;
    EXPECT_EQ(rec.output_items, c.items) << c.body;
    EXPECT_EQ(rec.error, ErrorKind::kNone) << c.body;
    ASSERT_EQ(rec.chunks.size(), 1u);
  }
  RequestRecord u;
  p->parse_body(cases[0].body, 1, &u);
  EXPECT_EQ(u.usage.completion_tokens, 1);
  EXPECT_EQ(u.usage.prompt_tokens, 3);
}

TEST(DetectParser, StreamsOfChatChunks) {
  auto p = make_event_parser("template");
  RequestRecord rec;
  EXPECT_EQ(p->parse_event(R"({"choices":[{"delta":{"role":"assistant","content":""}}]})", 1, &rec),
            ParseStatus::kOk);
  EXPECT_EQ(p->parse_event(R"({"choices":[{"delta":{"content":"Hel"}}]})", 2, &rec),
            ParseStatus::kOk);
  EXPECT_EQ(p->parse_event(R"({"choices":[{"delta":{"content":"lo"}}]})", 3, &rec),
            ParseStatus::kOk);
  EXPECT_EQ(p->parse_event("", 4, &rec), ParseStatus::kOk);
  EXPECT_EQ(
      p->parse_event(
          R"({"choices":[],"usage":{"prompt_tokens":2,"completion_tokens":2,"total_tokens":4}})", 4,
          &rec),
      ParseStatus::kOk);
  EXPECT_EQ(p->parse_event("[DONE]", 5, &rec), ParseStatus::kDone);
  EXPECT_EQ(rec.output_text, "Hello");
  ASSERT_EQ(rec.chunks.size(), 4u);
  EXPECT_EQ(rec.chunks[0].kind, ChunkKind::kEmpty);
  EXPECT_EQ(rec.chunks[1].kind, ChunkKind::kContent);
  EXPECT_EQ(rec.chunks[3].kind, ChunkKind::kUsage);
  EXPECT_EQ(rec.usage.total_tokens, 4);
}

TEST(DetectParser, ErrorsAreRecorded) {
  auto p = make_event_parser("raw");
  RequestRecord a;
  EXPECT_EQ(p->parse_body(R"({"error":{"message":"bad model","code":404}})", 1, &a),
            ParseStatus::kServerError);
  EXPECT_EQ(a.error, ErrorKind::kServerErrorEvent);
  EXPECT_NE(a.error_message.find("bad model"), std::string::npos);
  RequestRecord b;
  EXPECT_EQ(p->parse_body(R"({"object":"error","message":"too long"})", 1, &b),
            ParseStatus::kServerError);
  EXPECT_NE(b.error_message.find("too long"), std::string::npos);
  RequestRecord c;
  EXPECT_EQ(p->parse_event(SseEventView{"error", "boom"}, 1, &c), ParseStatus::kServerError);
  RequestRecord d;
  EXPECT_EQ(p->parse_body("  ", 1, &d), ParseStatus::kMalformed);
  RequestRecord t;  // a truncated JSON answer is broken, not text
  EXPECT_EQ(p->parse_body(R"({"choices":[{"message":{"content":"cut)", 1, &t),
            ParseStatus::kMalformed);
  EXPECT_EQ(t.error, ErrorKind::kMalformedSse);
  EXPECT_TRUE(t.output_text.empty());
}

TEST(DetectParser, ResponseFieldStrictForTemplateLenientForRaw) {
  const std::string field =
      R"({"payload_template":"nv-embedqa","response_field":"outputs[0].vector"})";
  auto strict = parser_for("template", field);
  ASSERT_NE(strict, nullptr);
  RequestRecord a;
  EXPECT_EQ(strict->parse_body(R"({"outputs":[{"vector":[1,2]}],"text":"ignored"})", 1, &a),
            ParseStatus::kOk);
  EXPECT_EQ(a.output_items, 1);
  EXPECT_EQ(a.output_text, "");
  RequestRecord b;
  EXPECT_EQ(strict->parse_body(R"({"text":"auto would find me"})", 1, &b), ParseStatus::kMalformed);
  EXPECT_NE(b.error_message.find("outputs[0].vector"), std::string::npos);
  RequestRecord s;  // a streamed event that misses is skipped, not an error
  EXPECT_EQ(strict->parse_event(R"({"usage":{"total_tokens":3}})", 1, &s), ParseStatus::kOk);
  EXPECT_EQ(s.error, ErrorKind::kNone);

  auto lenient = parser_for("raw", R"({"response_field":"out.text"})");
  ASSERT_NE(lenient, nullptr);
  RequestRecord c;
  EXPECT_EQ(lenient->parse_body(R"({"out":{"text":"picked"},"content":"not this"})", 1, &c),
            ParseStatus::kOk);
  EXPECT_EQ(c.output_text, "picked");
  RequestRecord d;
  EXPECT_EQ(lenient->parse_body(R"({"content":"fallback"})", 1, &d), ParseStatus::kOk);
  EXPECT_EQ(d.output_text, "fallback");
  auto proj = parser_for("raw", R"({"response_field":"choices[*].text"})");
  RequestRecord e;
  EXPECT_EQ(proj->parse_body(R"({"choices":[{"text":"a"},{"text":"b"}]})", 1, &e),
            ParseStatus::kOk);
  EXPECT_EQ(e.output_text, "ab");
}

TEST(Raw, SendsTheTextAsTheBody) {
  EndpointOptions o;
  auto e = make_endpoint("raw", o);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ((*e)->render_body(turn({R"({"prompt":"x"})"})), R"({"prompt":"x"})");
  EXPECT_EQ((*e)->default_path(), "");
  EXPECT_NE((*e)->make_parser(), nullptr);
}

}  // namespace
}  // namespace servebench::endpoints
