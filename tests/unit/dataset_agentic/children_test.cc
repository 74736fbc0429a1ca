#include <gtest/gtest.h>

#include "load/children.h"

namespace servebench::load {
namespace {

SessionTemplate conv(std::string id, int turns) {
  SessionTemplate s;
  s.conversation_id = std::move(id);
  s.turns.resize(static_cast<size_t>(turns));
  return s;
}

SessionBranch branch(int after, int join, std::vector<std::string> kids) {
  SessionBranch b;
  b.after_turn = after;
  b.join_turn = join;
  b.child_ids = std::move(kids);
  return b;
}

TEST(LinkChildren, ResolvesChildrenAndKeepsOnlyRootsInTheOrder) {
  SessionWorkload w;
  w.conversations = {conv("p", 3), conv("a", 1), conv("b", 2), conv("q", 1)};
  w.conversations[0].branches.push_back(branch(0, 1, {"a", "b"}));
  w.order = {0, 1, 2, 3, 0, 2};
  ASSERT_TRUE(link_children(&w, "f"));
  EXPECT_TRUE(w.has_children);
  EXPECT_EQ(w.conversations[0].branches[0].children, (std::vector<uint32_t>{1, 2}));
  EXPECT_TRUE(w.conversations[1].is_child);
  EXPECT_FALSE(w.conversations[3].is_child);
  EXPECT_EQ(w.order, (std::vector<uint32_t>{0, 3, 0}));
}

TEST(LinkChildren, NoBranchesChangesNothing) {
  SessionWorkload w;
  w.conversations = {conv("p", 2), conv("q", 1)};
  w.order = {1, 0};
  ASSERT_TRUE(link_children(&w, "f"));
  EXPECT_FALSE(w.has_children);
  EXPECT_EQ(w.order, (std::vector<uint32_t>{1, 0}));
}

TEST(LinkChildren, UnknownChildCycleAndBadJoinAreErrors) {
  SessionWorkload w;
  w.conversations = {conv("p", 2)};
  w.conversations[0].branches.push_back(branch(0, 1, {"ghost"}));
  w.order = {0};
  auto r = link_children(&w, "f");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("ghost"), std::string::npos);

  SessionWorkload c;
  c.conversations = {conv("r", 1), conv("x", 1), conv("y", 1)};
  c.conversations[0].branches.push_back(branch(0, -1, {"x"}));
  c.conversations[1].branches.push_back(branch(0, -1, {"y"}));
  c.conversations[2].branches.push_back(branch(0, -1, {"x"}));
  c.order = {0};
  r = link_children(&c, "f");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("ancestor"), std::string::npos);

  SessionWorkload j;
  j.conversations = {conv("p", 2), conv("a", 1)};
  j.conversations[0].branches.push_back(branch(1, 2, {"a"}));
  j.order = {0};
  r = link_children(&j, "f");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("join"), std::string::npos);
}

}  // namespace
}  // namespace servebench::load
