// The option-combination matrix: every registered endpoint type against every option a type may
// refuse (streaming, cache-bust, multi-turn sessions, warm-up, fixed schedule, batches, shared
// prompts). Types come from the registry, so a type registered later is covered without a new
// test. Each combination is either accepted or refused with one line naming the flag; where a
// capability decides, the answer must follow it.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "endpoints/registry.h"

namespace servebench::endpoints {
namespace {

struct Case {
  std::string flag;  // what a refusal must name
  std::function<void(OptionFacts*)> set;
  // The answer the type's capabilities force: 1 accepted, 0 refused, -1 the type decides.
  std::function<int(const EndpointSpec&)> forced;
};

std::vector<Case> cases() {
  return {
      {"--streaming", [](OptionFacts* f) { f->streaming = true; },
       [](const EndpointSpec& s) { return s.has(core::kCapStreams) ? -1 : 0; }},
      {"--cache-bust", [](OptionFacts* f) { f->cache_bust = true; },
       [](const EndpointSpec& s) { return s.has(core::kCapChatMessages) ? -1 : 0; }},
      {"--session-turns-mean", [](OptionFacts* f) { f->multi_turn = true; },
       [](const EndpointSpec& s) { return s.has(core::kCapChatMessages) ? 1 : -1; }},
      {"--warmup", [](OptionFacts* f) { f->warmup = true; },
       [](const EndpointSpec&) { return 1; }},
      {"--fixed-schedule", [](OptionFacts* f) { f->fixed_schedule = true; },
       [](const EndpointSpec& s) { return s.has(core::kCapTokenizesInput) ? -1 : 0; }},
      {"--batch-size", [](OptionFacts* f) { f->batch_size = 4; },
       [](const EndpointSpec& s) { return s.batches_texts ? 1 : 0; }},
      {"--shared-system-prompt-length", [](OptionFacts* f) { f->shared_prompts = true; },
       [](const EndpointSpec&) { return -1; }},
  };
}

TEST(OptionMatrix, EveryTypeAcceptsOrRefusesEachOptionWithOneLineNamingTheFlag) {
  const auto specs = registered_specs();
  ASSERT_GE(specs.size(), 3u) << "chat, completions and embeddings at least";
  int refused = 0, accepted = 0;
  for (const EndpointSpec* spec : specs) {
    // Prompts from an --input-file: the baseline every type takes (`raw` sends only pre-built
    // payloads from a file).
    OptionFacts base;
    base.input_file = true;
    EXPECT_TRUE(check_options(*spec, base).has_value())
        << spec->name << " refuses the default options";
    for (const Case& c : cases()) {
      OptionFacts facts = base;
      c.set(&facts);
      const Status st = check_options(*spec, facts);
      const std::string where = std::string(spec->name) + " with " + c.flag;
      const int forced = c.forced(*spec);
      if (forced >= 0) {
        EXPECT_EQ(st.has_value(), forced == 1) << where;
      }
      if (st.has_value()) {
        ++accepted;
        continue;
      }
      ++refused;
      EXPECT_EQ(st.error().code, ErrorCode::kInvalidArgument) << where;
      const std::string& msg = st.error().message;
      EXPECT_EQ(msg.find('\n'), std::string::npos) << where << ": " << msg;
      EXPECT_NE(msg.find(c.flag), std::string::npos) << where << ": " << msg;
      EXPECT_NE(msg.find(spec->name), std::string::npos) << where << " names the type: " << msg;
    }
  }
  EXPECT_GT(refused, 0);
  EXPECT_GT(accepted, 0);
}

TEST(OptionMatrix, FixedScheduleNeedsATextPromptType) {
  // A spec registered only for this test would leak into the registry: build one on the stack.
  EndpointSpec no_text;
  no_text.name = "no-text-input";
  no_text.capabilities = core::kCapNone;
  OptionFacts facts;
  facts.fixed_schedule = true;
  const Status st = check_options(no_text, facts);
  ASSERT_FALSE(st.has_value());
  EXPECT_NE(st.error().message.find("--fixed-schedule"), std::string::npos);
  EXPECT_NE(st.error().message.find("chat"), std::string::npos) << "names types that take it";
  facts.fixed_schedule = false;
  facts.warmup = true;
  EXPECT_TRUE(check_options(no_text, facts).has_value());
}

}  // namespace
}  // namespace servebench::endpoints
