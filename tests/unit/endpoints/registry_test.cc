#include "endpoints/registry.h"

#include <gtest/gtest.h>

#include <set>

namespace servebench::endpoints {
namespace {

TEST(Registry, EverySpecIsComplete) {
  const auto specs = registered_specs();
  ASSERT_GE(specs.size(), 3u);
  for (const EndpointSpec* s : specs) {
    SCOPED_TRACE(std::string(s->name));
    EXPECT_FALSE(s->name.empty());
    // An empty path (raw, template): the --url's own path is used.
    if (!s->default_path.empty()) {
      EXPECT_EQ(s->default_path.front(), '/');
    }
    EXPECT_NE(s->capabilities, core::kCapNone);
    EXPECT_FALSE(s->metrics_title.empty());
    EXPECT_NE(s->artifact_name.find(s->name), std::string_view::npos);
    ASSERT_NE(s->make_endpoint, nullptr);
    ASSERT_NE(s->make_parser, nullptr);
    EXPECT_NE(s->make_parser(), nullptr);
    EndpointOptions o;
    o.model = "m";
    // Types configured through --extra-inputs get a minimal configuration.
    if (s->name == "template") o.extra_inputs_json = R"({"payload_template":"nv-embedqa"})";
    auto e = s->make_endpoint(o);
    ASSERT_TRUE(e.has_value()) << e.error().message;
    EXPECT_EQ((*e)->name(), s->name);
    EXPECT_EQ((*e)->default_path(), s->default_path);
  }
}

TEST(Registry, NamesAreUniqueAndSorted) {
  std::vector<std::string> names;
  for (const EndpointSpec* s : registered_specs()) names.emplace_back(s->name);
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size());
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  EXPECT_EQ(names, endpoint_types());
}

TEST(Registry, UnknownTypeErrorListsKnownTypes) {
  auto s = find_spec("teleport");
  ASSERT_FALSE(s.has_value());
  EXPECT_EQ(s.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(s.error().message.find('\n'), std::string::npos);
  EXPECT_NE(s.error().message.find("'teleport'"), std::string::npos);
  for (const std::string& t : endpoint_types())
    EXPECT_NE(s.error().message.find(t), std::string::npos) << t;
  EXPECT_FALSE(make_endpoint("teleport", {}).has_value());
  EXPECT_EQ(make_event_parser("teleport"), nullptr);
}

TEST(Registry, KnownTypesAndTheirFacts) {
  auto chat = find_spec("chat");
  ASSERT_TRUE(chat.has_value());
  EXPECT_TRUE((*chat)->has(core::kCapChatMessages));
  EXPECT_TRUE((*chat)->has(core::kCapStreams));
  EXPECT_EQ((*chat)->metrics_title, "LLM Metrics");
  EXPECT_EQ((*chat)->artifact_name, "openai-chat");
  auto emb = find_spec("embeddings");
  ASSERT_TRUE(emb.has_value());
  EXPECT_EQ((*emb)->capabilities, core::kCapTokenizesInput);
  EXPECT_EQ((*emb)->metrics_title, "Embeddings Metrics");
  EXPECT_EQ((*emb)->default_path, "/v1/embeddings");
  EXPECT_EQ((*emb)->artifact_name, "openai-embeddings");
  EXPECT_TRUE((*emb)->batches_texts);
  // Lists exactly the types with the capability, in name order.
  EXPECT_EQ(type_names(core::kCapChatMessages).rfind("chat, ", 0), 0u);
  EXPECT_EQ(type_names(core::kCapChatMessages).find("completions"), std::string::npos);
  EXPECT_EQ(type_names(core::kCapStreams, " or ").rfind("chat or completions", 0), 0u);
  EXPECT_EQ(type_names(core::kCapStreams).find("embeddings"), std::string::npos);
}

Status check(std::string_view type, OptionFacts f) { return check_options(**find_spec(type), f); }

void expect_rejected(std::string_view type, OptionFacts f, std::vector<std::string> words) {
  Status s = check(type, f);
  ASSERT_FALSE(s.has_value()) << type;
  EXPECT_EQ(s.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(s.error().message.find('\n'), std::string::npos);
  for (const auto& w : words)
    EXPECT_NE(s.error().message.find(w), std::string::npos) << s.error().message;
}

TEST(Registry, OptionChecksFollowCapabilities) {
  OptionFacts streaming;
  streaming.streaming = true;
  EXPECT_TRUE(check("chat", streaming).has_value());
  EXPECT_TRUE(check("completions", streaming).has_value());
  expect_rejected("embeddings", streaming, {"--streaming", "embeddings", "chat"});

  OptionFacts bust;
  bust.cache_bust = true;
  EXPECT_TRUE(check("chat", bust).has_value());
  expect_rejected("completions", bust, {"--cache-bust", "chat"});
  expect_rejected("embeddings", bust, {"--cache-bust"});

  OptionFacts batch;
  batch.batch_size = 4;
  EXPECT_TRUE(check("embeddings", batch).has_value());
  expect_rejected("chat", batch, {"--batch-size", "embeddings"});
  batch.batch_size = 0;
  expect_rejected("embeddings", batch, {"--batch-size"});

  OptionFacts prompts;
  prompts.shared_prompts = true;
  EXPECT_TRUE(check("chat", prompts).has_value());
  EXPECT_TRUE(check("completions", prompts).has_value());
  expect_rejected("embeddings", prompts, {"--shared-system-prompt-length"});

  OptionFacts turns;
  turns.multi_turn = true;
  EXPECT_TRUE(check("chat", turns).has_value());
  expect_rejected("embeddings", turns, {"--session-turns-mean"});
}

// AIPerf's three rules for --per-chunk-usage, in its order.
TEST(Registry, PerChunkUsageNeedsServerCountsChatAndStreaming) {
  OptionFacts f;
  f.per_chunk_usage = true;
  f.streaming = true;
  expect_rejected("chat", f, {"--per-chunk-usage requires --use-server-token-count"});
  f.server_token_count = true;
  EXPECT_TRUE(check("chat", f).has_value());
  expect_rejected("completions", f, {"--per-chunk-usage", "'completions'", "chat"});
  f.streaming = false;
  expect_rejected("chat", f, {"--per-chunk-usage requires --streaming"});
  f.per_chunk_usage = false;
  EXPECT_TRUE(check("completions", f).has_value());
}

}  // namespace
}  // namespace servebench::endpoints
