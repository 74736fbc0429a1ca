// Media in each non-chat API's shape: responses input_image/input_audio, Anthropic image blocks,
// NIM embeddings <img> inputs, chat embeddings' multimodal content; and the registry's media
// rules (which types take which kinds), as one-line usage errors.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "endpoints/registry.h"

namespace servebench::endpoints {
namespace {

using nlohmann::json;

core::MediaPart image(std::string b64, std::string url = "") {
  core::MediaPart m;
  m.kind = core::MediaKind::kImage;
  m.mime = "image/png";
  m.format = "png";
  m.base64 = std::move(b64);
  m.url = std::move(url);
  return m;
}

core::MediaPart audio() {
  core::MediaPart m;
  m.kind = core::MediaKind::kAudio;
  m.mime = "audio/wav";
  m.format = "wav";
  m.base64 = "UklGRg==";
  return m;
}

json render(const std::string& type, const TurnPayload& turn) {
  EndpointOptions o;
  o.model = "m";
  auto e = make_endpoint(type, o);
  EXPECT_TRUE(e) << (e ? "" : e.error().message);
  return json::parse((*e)->render_body(turn));
}

TurnPayload turn(std::vector<core::MediaPart> media, std::vector<Message> messages = {{"user", "look"}}) {
  TurnPayload t;
  t.messages = std::move(messages);
  t.media = std::move(media);
  return t;
}

TEST(MediaShapes, ChatImagePartsCarryVllmUuidsAndStrippedOnesAreNull) {
  core::MediaPart whole = image("iVBO"), stripped = image("");
  whole.uuid = "img-1";
  stripped.uuid = "img-2";
  stripped.stripped = true;
  const json body = render("chat", turn({whole, stripped, image("AAAA")}));
  const json& parts = body["messages"].back()["content"];
  ASSERT_EQ(parts.size(), 4u);  // text, then the three images
  EXPECT_EQ(parts[1], json::parse(R"({"type":"image_url","image_url":{"url":"data:image/png;base64,iVBO"},"uuid":"img-1"})"));
  EXPECT_EQ(parts[2], json::parse(R"({"type":"image_url","image_url":null,"uuid":"img-2"})"));
  EXPECT_EQ(parts[3], json::parse(R"({"type":"image_url","image_url":{"url":"data:image/png;base64,AAAA"}})"));
}

TEST(MediaShapes, ResponsesInputImageAndAudioOnTheLastMessage) {
  const json b = render("responses", turn({image("iVBO"), image("", "https://h/x.png"), audio()},
                                          {{"system", "s"}, {"user", "a"}, {"assistant", "b"}, {"user", "look"}}));
  ASSERT_EQ(b["input"].size(), 3u);
  EXPECT_EQ(b["input"][0]["content"][0]["type"], "input_text");  // earlier turns stay text
  const json& c = b["input"][2]["content"];
  ASSERT_EQ(c.size(), 4u);
  EXPECT_EQ(c[0], (json{{"type", "input_text"}, {"text", "look"}}));
  EXPECT_EQ(c[1], (json{{"type", "input_image"}, {"image_url", "data:image/png;base64,iVBO"}}));
  EXPECT_EQ(c[2], (json{{"type", "input_image"}, {"image_url", "https://h/x.png"}}));
  EXPECT_EQ(c[3], (json{{"type", "input_audio"}, {"input_audio", {{"data", "UklGRg=="}, {"format", "wav"}}}}));
  EXPECT_EQ(b["instructions"], "s");
}

TEST(MediaShapes, AnthropicImageBlocksWithBase64OrUrlSource) {
  const json b = render("messages", turn({image("iVBO"), image("", "https://h/x.png")}));
  const json& c = b["messages"][0]["content"];
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0], (json{{"type", "text"}, {"text", "look"}}));
  EXPECT_EQ(c[1], (json{{"type", "image"},
                        {"source", {{"type", "base64"}, {"media_type", "image/png"}, {"data", "iVBO"}}}}));
  EXPECT_EQ(c[2], (json{{"type", "image"}, {"source", {{"type", "url"}, {"url", "https://h/x.png"}}}}));
  // Without media the content stays a plain string.
  EXPECT_EQ(render("messages", turn({}))["messages"][0]["content"], "look");
}

TEST(MediaShapes, NimEmbeddingsPairTextsWithImagesOrListThemApart) {
  const json paired = render("nim_embeddings", turn({image("AAAA"), image("BBBB")}, {{"user", "one"}, {"user", "two"}}));
  EXPECT_EQ(paired["input"], (json{"one <img src='data:image/png;base64,AAAA'/>", "two <img src='data:image/png;base64,BBBB'/>"}));
  const json apart = render("nim_embeddings", turn({image("AAAA"), image("BBBB")}, {{"user", "one"}}));
  EXPECT_EQ(apart["input"], (json{"one", "<img src='data:image/png;base64,AAAA'/>", "<img src='data:image/png;base64,BBBB'/>"}));
  const json only = render("nim_embeddings", turn({image("AAAA")}, {{"user", ""}}));
  EXPECT_EQ(only["input"], (json{"<img src='data:image/png;base64,AAAA'/>"}));
}

TEST(MediaShapes, ChatEmbeddingsMultimodalUserMessage) {
  const json b = render("chat_embeddings", turn({image("iVBO"), audio()}, {{"system", "s"}, {"user", "look"}}));
  ASSERT_EQ(b["messages"].size(), 2u);
  EXPECT_EQ(b["messages"][0]["role"], "system");
  const json& c = b["messages"][1]["content"];
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0], (json{{"type", "text"}, {"text", "look"}}));
  EXPECT_EQ(c[1], (json{{"type", "image_url"}, {"image_url", {{"url", "data:image/png;base64,iVBO"}}}}));
  EXPECT_EQ(c[2]["type"], "input_audio");
}

TEST(MediaShapes, RegistryRefusesKindsAnApiDoesNotTake) {
  struct Case {
    const char* type;
    core::MediaKind kind;
    bool ok;
  };
  const Case cases[] = {{"chat", core::MediaKind::kVideo, true},       {"responses", core::MediaKind::kAudio, true},
                        {"responses", core::MediaKind::kVideo, false}, {"messages", core::MediaKind::kImage, true},
                        {"messages", core::MediaKind::kAudio, false},  {"nim_embeddings", core::MediaKind::kImage, true},
                        {"nim_embeddings", core::MediaKind::kAudio, false}, {"chat_embeddings", core::MediaKind::kVideo, true},
                        {"embeddings", core::MediaKind::kImage, false}, {"completions", core::MediaKind::kImage, false}};
  for (const Case& c : cases) {
    auto spec = find_spec(c.type);
    ASSERT_TRUE(spec);
    auto st = check_media_kind(**spec, c.kind, "src");
    EXPECT_EQ(st.has_value(), c.ok) << c.type;
    if (!st) {
      EXPECT_EQ(st.error().code, ErrorCode::kInvalidArgument);
      EXPECT_EQ(st.error().message.find('\n'), std::string::npos);
      EXPECT_EQ(st.error().message.rfind("src: endpoint type '" + std::string(c.type) + "' refuses ", 0), 0u)
          << st.error().message;
    }
  }
  auto msg = check_media_kind(**find_spec("messages"), core::MediaKind::kAudio, "--audio-*");
  EXPECT_EQ(msg.error().message,
            "--audio-*: endpoint type 'messages' refuses audio (the Anthropic Messages API takes images only, no "
            "audio or video); drop them or use --endpoint-type chat");
  OptionFacts facts;
  facts.media = true;
  facts.media_audio = true;
  EXPECT_FALSE(check_options(**find_spec("messages"), facts));
  EXPECT_TRUE(check_options(**find_spec("responses"), facts));
}

}  // namespace
}  // namespace servebench::endpoints
