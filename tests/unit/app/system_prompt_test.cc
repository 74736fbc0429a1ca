// app/system_prompt.h: --system-prompt goes first in the preamble, merged into a system message
// the dataset brought.
#include "app/system_prompt.h"

#include <gtest/gtest.h>

namespace servebench::app {
namespace {

TEST(SystemPrompt, InsertedBeforeTheOtherPreambleMessages) {
  std::vector<endpoints::Message> p = {{"user", "context"}};
  add_system_prompt("Be terse.", &p);
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0].role, "system");
  EXPECT_EQ(p[0].content, "Be terse.");
  EXPECT_EQ(p[1].content, "context");
}

TEST(SystemPrompt, JoinedWithTheDatasetsSystemMessage) {
  std::vector<endpoints::Message> p = {{"system", "You are a pirate."}};
  add_system_prompt("Be terse.", &p);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].content, "Be terse.\n\nYou are a pirate.");
}

TEST(SystemPrompt, EmptyTextChangesNothing) {
  std::vector<endpoints::Message> p;
  add_system_prompt("", &p);
  EXPECT_TRUE(p.empty());
}

}  // namespace
}  // namespace servebench::app
