// A relocated servebench: copies of servebench and servebench-mock in a fresh folder, run from
// another working folder with a clean environment, profile the mock; under strace (when it
// works here), no file of the source or build tree is touched. Also checks that the run's
// environment snapshot lands in input_config with secrets redacted.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "integration/reloc/reloc_harness.h"

namespace servebench::itest {
namespace {

constexpr const char* kSecret = "hf_reloc_secret_value_0123456789";

std::string source_dir() {
  const char* s = std::getenv("SERVEBENCH_SOURCE_DIR");
  return s ? s : "";
}

// The build tree: the parent of the folder holding the binaries.
std::string build_dir() { return fs::path(bin_dir()).parent_path().string(); }

bool copy_executable(const std::string& from, const std::string& to) {
  std::error_code ec;
  fs::copy_file(from, to, fs::copy_options::overwrite_existing, ec);
  return !ec && ::chmod(to.c_str(), 0755) == 0;
}

bool strace_works(const std::string& dir) {
  Exec e;
  e.argv = {"/usr/bin/strace", "-f", "-qq", "-o", dir + "/probe.strace", "/bin/true"};
  return fs::exists(e.argv[0]) && run_exec(e, 20).exit_code == 0;
}

// Paths in the strace log that lie under `root` (each traced call's quoted arguments).
std::vector<std::string> paths_under(const std::string& log, const std::string& root) {
  std::vector<std::string> hits;
  const std::regex quoted("\"([^\"]*)\"");
  std::istringstream in(log);
  std::string line;
  while (std::getline(in, line)) {
    for (std::sregex_iterator it(line.begin(), line.end(), quoted), end; it != end; ++it) {
      const std::string p = (*it)[1];
      if (p == root || p.rfind(root + "/", 0) == 0) hits.push_back(line);
    }
  }
  return hits;
}

std::string all_artifacts_text(const std::string& dir) {
  std::string all;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
    if (it->is_regular_file()) all += read_file(it->path().string());
  return all;
}

TEST(Relocation, CopiedBinariesProfileTheMockWithoutTheSourceTree) {
  const std::string src = source_dir();
  ASSERT_FALSE(src.empty()) << "ctest sets SERVEBENCH_SOURCE_DIR";
  const std::string dir = make_temp_dir("reloc");
  ASSERT_FALSE(dir.empty());
  for (const char* sub : {"/bin", "/work"}) fs::create_directories(dir + sub);
  ASSERT_TRUE(copy_executable(bin_dir() + "/servebench", dir + "/bin/servebench"));
  ASSERT_TRUE(copy_executable(bin_dir() + "/servebench-mock", dir + "/bin/servebench-mock"));
  // The mock ships in the .deb too: it embeds its corpus like servebench and needs no data file.
  Server mock;
  Exec m;
  m.argv = {dir + "/bin/servebench-mock", "--port", "0"};
  m.cwd = dir + "/work";
  ASSERT_TRUE(start_server(m, &mock)) << "the copied mock did not start";

  const bool traced = strace_works(dir);
  Exec e;
  if (traced)
    e.argv = {"/usr/bin/strace", "-f", "-qq", "-e", "trace=%file", "-o", dir + "/run.strace"};
  for (const std::string& a :
       {dir + "/bin/servebench", std::string("profile"), std::string("-m"),
        std::string("mock-model"), std::string("-u"), mock.url(), std::string("--request-count"),
        std::string("20"), std::string("--concurrency"), std::string("4"),
        std::string("--synthetic-input-tokens-mean"), std::string("64"),
        std::string("--output-tokens-mean"), std::string("8"),
        // the bundled pictures are embedded too (media/embedded_pictures.h)
        std::string("--image-source"), std::string("assets"), std::string("--image-width-mean"),
        std::string("32"), std::string("--image-height-mean"), std::string("32"), std::string("--artifact-dir"),
        dir + "/art", std::string("-q")})
    e.argv.push_back(a);
  e.cwd = dir + "/work";
  e.env = {std::string("HF_TOKEN=") + kSecret, "HF_HUB_OFFLINE=1"};
  e.stderr_path = dir + "/stderr.txt";
  const ExecResult r = run_exec(e, 120);
  mock.stop();
  ASSERT_FALSE(r.timed_out);
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;

  std::string run_dir;
  for (const auto& d : fs::directory_iterator(dir + "/art"))
    if (d.is_directory()) run_dir = d.path().string();
  ASSERT_FALSE(run_dir.empty());
  EXPECT_EQ(read_jsonl(run_dir + "/profile_export.jsonl").size(), 20u);
  const Json summary = Json::parse(read_file(run_dir + "/profile_export_aiperf.json"));
  const Json& env = summary.at("input_config").at("environment");
  EXPECT_EQ(env.at("HF_HUB_OFFLINE"), "1");
  EXPECT_EQ(env.at("HF_TOKEN"), "<redacted>");
  EXPECT_EQ(env.size(), 2u) << env.dump() << ": the clean environment has two variables";
  EXPECT_EQ(all_artifacts_text(dir + "/art").find(kSecret), std::string::npos)
      << "the token leaked";

  if (!traced) {
    std::fprintf(stderr, "strace is not usable here: the no-source-file check was skipped\n");
    fs::remove_all(dir);
    return;
  }
  const std::string log = read_file(dir + "/run.strace");
  ASSERT_NE(log.find("execve(\"" + dir + "/bin/servebench\""), std::string::npos)
      << "strace saw no run";
  ASSERT_NE(log.find("openat("), std::string::npos) << "strace recorded no file calls";
  for (const std::string& root : {src, build_dir()}) {
    const auto hits = paths_under(log, root);
    EXPECT_TRUE(hits.empty()) << hits.size() << " calls touch " << root
                              << ", first: " << hits.front();
  }
  // The copies take ~30 MB; kept only when something failed, for a look.
  if (!::testing::Test::HasFailure()) fs::remove_all(dir);
}

}  // namespace
}  // namespace servebench::itest
