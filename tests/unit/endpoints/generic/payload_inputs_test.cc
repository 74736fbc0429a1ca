// The input texts of pre-built bodies (endpoints/payload_inputs.h), on the body shapes AIPerf's
// extract_inputs reads.
#include "endpoints/payload_inputs.h"

#include <gtest/gtest.h>

namespace servebench::endpoints {
namespace {

using Texts = std::vector<std::string>;

TEST(PayloadInputs, ChatMessagesPartsAndToolCalls) {
  auto in = payload_inputs(R"({"model":"m","messages":[
    {"role":"system","content":"sys"},
    {"role":"user","content":[{"type":"text","text":"look"},{"type":"image_url","image_url":{"url":"x"}}]},
    {"role":"assistant","content":null,"tool_calls":[{"id":"1","type":"function","function":{"name":"f","arguments":"{\"a\":1}"}}]}],
    "tools":[{"type":"function","function":{"name":"f","description":"does f","parameters":{"type":"object","properties":{}}}}],
    "prompt":"ignored: an items array was found"})");
  EXPECT_TRUE(in.found);
  EXPECT_EQ(in.texts, (Texts{"sys", "look", "f", "{\"a\":1}", "f", "does f",
                             R"({"type":"object","properties":{}})"}));
}

TEST(PayloadInputs, ResponsesItems) {
  auto in =
      payload_inputs(R"({"input":[{"role":"user","content":[{"type":"input_text","text":"q"}]},
    {"type":"function_call","name":"g","arguments":"{}"},{"type":"function_call_output","output":"42"}]})");
  EXPECT_EQ(in.texts, (Texts{"q", "g", "{}", "42"}));
}

TEST(PayloadInputs, FlatShapes) {
  EXPECT_EQ(payload_inputs(R"({"prompt":"p"})").texts, Texts{"p"});
  EXPECT_EQ(payload_inputs(R"({"prompt":["a","b"]})").texts, (Texts{"a", "b"}));
  EXPECT_EQ(payload_inputs(R"({"input":["x","y"],"model":"e"})").texts, (Texts{"x", "y"}));
  auto ids = payload_inputs(R"({"prompt":[1,2,3]})");
  EXPECT_TRUE(ids.found);
  EXPECT_EQ(ids.token_ids, 3);
  EXPECT_EQ(payload_inputs(R"({"input":[[1,2],[3]]})").token_ids, 3);
  EXPECT_EQ(payload_inputs(R"({"query":{"text":"q"},"passages":[{"text":"p1"},"p2"]})").texts,
            (Texts{"q", "p1", "p2"}));
  EXPECT_EQ(payload_inputs(R"({"query":"q","documents":["d"]})").texts, (Texts{"q", "d"}));
  EXPECT_EQ(payload_inputs(R"({"inputs":"tgi","parameters":{}})").texts, Texts{"tgi"});
}

TEST(PayloadInputs, NothingRecognised) {
  for (const char* body : {R"({"foo":"bar"})", "[1,2]", "not json", R"({"prompt":[1,"a"]})",
                           R"({"query":"q"})", R"({"input":[]})"}) {
    auto in = payload_inputs(body);
    EXPECT_FALSE(in.found) << body;
    EXPECT_TRUE(in.texts.empty()) << body;
  }
}

}  // namespace
}  // namespace servebench::endpoints
