#include "app/artifact_dir.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <atomic>
#include <fstream>
#include <thread>

namespace servebench::app {
namespace {

namespace fs = std::filesystem;

std::string temp_root(const std::string& tag) {
  std::string tmpl = (fs::temp_directory_path() / ("sb-app-" + tag + "-XXXXXX")).string();
  return mkdtemp(tmpl.data()) ? tmpl : "";
}

TEST(ExportPrefix, PlainNamesPassPathsFail) {
  EXPECT_TRUE(check_export_prefix(""));
  EXPECT_TRUE(check_export_prefix("my_run"));
  EXPECT_TRUE(check_export_prefix("..run"));  // a name that starts with dots stays inside
  for (const char* bad : {"../../x", "/tmp/x", "sub/x", ".", "..", "a\\b"}) {
    auto st = check_export_prefix(bad);
    ASSERT_FALSE(st) << bad;
    EXPECT_EQ(st.error().code, ErrorCode::kInvalidArgument);
    EXPECT_NE(st.error().message.find("--profile-export-prefix"), std::string::npos);
    EXPECT_EQ(st.error().message.find('\n'), std::string::npos);
  }
}

TEST(ArtifactDir, CreatesNestedFoldersAndLeavesNoProbe) {
  const std::string root = temp_root("nested");
  auto dir = prepare_artifact_dir(root + "/a/b", "run", "");
  ASSERT_TRUE(dir) << dir.error().message;
  EXPECT_EQ(dir->path, root + "/a/b/run");
  EXPECT_TRUE(fs::is_directory(dir->path));
  EXPECT_TRUE(fs::is_empty(dir->path)) << "the probe file is removed";
  EXPECT_EQ(dir->created.size(), 3u);
  remove_unused(*dir);
  EXPECT_FALSE(fs::exists(root + "/a")) << "unused folders it created are removed";
  EXPECT_TRUE(fs::exists(root)) << "folders that existed stay";
  fs::remove_all(root);
}

TEST(ArtifactDir, KeepsFoldersThatHoldFiles) {
  const std::string root = temp_root("keep");
  auto dir = prepare_artifact_dir(root + "/a", "run", "");
  ASSERT_TRUE(dir);
  std::ofstream(dir->path + "/profile_export.jsonl") << "{}\n";
  remove_unused(*dir);
  EXPECT_TRUE(fs::exists(dir->path + "/profile_export.jsonl"));
  fs::remove_all(root);
}

TEST(ArtifactDir, RegularFileProcAndBadPrefixAreUsageErrors) {
  const std::string root = temp_root("bad");
  std::ofstream(root + "/file") << "x";
  struct Case {
    std::string root, prefix, needle;
  };
  for (const auto& c :
       {Case{root + "/file", "", "is not a folder"}, Case{"/proc/x", "", "cannot create"},
        Case{root, "../../x", "--profile-export-prefix"}}) {
    auto dir = prepare_artifact_dir(c.root, "run", c.prefix);
    ASSERT_FALSE(dir) << c.root;
    EXPECT_EQ(dir.error().code, ErrorCode::kInvalidArgument);
    EXPECT_NE(dir.error().message.find(c.needle), std::string::npos) << dir.error().message;
    if (c.prefix.empty()) {
      EXPECT_NE(dir.error().message.find("--artifact-dir"), std::string::npos);
    }
  }
  EXPECT_FALSE(fs::exists(root + "/run")) << "a refused prefix creates nothing";
  fs::remove_all(root);
}

TEST(ArtifactDir, ReadOnlyFolderIsCaughtByTheProbe) {
  if (geteuid() == 0) GTEST_SKIP() << "root writes into read-only folders";
  const std::string root = temp_root("ro");
  fs::create_directory(root + "/ro");
  fs::create_directory(root + "/ro/run");
  fs::permissions(root + "/ro/run", fs::perms::owner_read | fs::perms::owner_exec);
  auto dir = prepare_artifact_dir(root + "/ro", "run", "");
  EXPECT_FALSE(dir);
  fs::permissions(root + "/ro/run", fs::perms::owner_all);
  fs::remove_all(root);
}

}  // namespace
}  // namespace servebench::app

namespace servebench::app {
namespace {

// Shards started together create the same new folders, and a probe that fails elsewhere removes
// its empty parents: several threads preparing and removing the same tree at once all succeed.
TEST(ArtifactDir, ConcurrentPreparesOfOneNewTreeAllSucceed) {
  const std::string base = temp_root("race");
  ASSERT_FALSE(base.empty());
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 6; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 150; ++i) {
        auto dir = prepare_artifact_dir(base + "/shared/deep/tree", "shard" + std::to_string(t), "");
        if (!dir) {
          ++failures;
          continue;
        }
        if (i % 2 == 0) remove_unused(*dir);  // a shard whose set-up failed cleans up
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
  fs::remove_all(base);
}

}  // namespace
}  // namespace servebench::app
