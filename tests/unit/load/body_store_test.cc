#include "load/body_store.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace servebench::load {
namespace {

std::string pattern(size_t n, char seed) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>(seed + static_cast<char>(i % 61));
  return s;
}

TEST(BodyStore, ViewsHoldTheBytesAndStayValidAsTheMappingGrows) {
  auto store = BodyStore::open(::testing::TempDir());
  ASSERT_TRUE(store) << store.error().message;
  std::vector<std::string> bodies = {pattern(10, 'a'), "", pattern(70u << 20, 'b'),  // > one chunk
                                     pattern(5000, 'c'), pattern(64u << 20, 'd')};
  std::vector<std::string_view> views;
  for (const auto& b : bodies) {
    auto v = (*store)->append(b);
    ASSERT_TRUE(v) << v.error().message;
    views.push_back(*v);
  }
  int64_t total = 0;
  for (size_t i = 0; i < bodies.size(); ++i) {
    EXPECT_EQ(views[i], bodies[i]) << "body " << i;
    total += static_cast<int64_t>(bodies[i].size());
  }
  EXPECT_EQ((*store)->bytes(), total);
  // Released pages are read back from the file.
  (*store)->release(views[2]);
  (*store)->release(views[3]);
  EXPECT_EQ(views[2], bodies[2]);
  EXPECT_EQ(views[3], bodies[3]);
  (*store)->release(std::string_view(bodies[0]));  // not in the store: ignored
  EXPECT_EQ(views[0], bodies[0]);
}

TEST(BodyStore, LeavesNoFileBehind) {
  const auto dir = std::filesystem::path(::testing::TempDir()) / "sb-body-store-test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  {
    auto store = BodyStore::open(dir.string());
    ASSERT_TRUE(store);
    ASSERT_TRUE((*store)->append("{}"));
    EXPECT_TRUE(std::filesystem::is_empty(dir));
  }
  std::filesystem::remove_all(dir);
}

TEST(BodyStore, AFolderThatCannotTakeFilesIsNamed) {
  auto store = BodyStore::open("/nonexistent-servebench-dir");
  ASSERT_FALSE(store);
  EXPECT_NE(store.error().message.find("/nonexistent-servebench-dir"), std::string::npos);
  EXPECT_NE(store.error().message.find("TMPDIR"), std::string::npos);
}

}  // namespace
}  // namespace servebench::load
