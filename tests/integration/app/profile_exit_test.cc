// `servebench profile` as a user runs it: exit codes of interrupted runs (130/143, artifacts
// written), Ctrl-C during set-up, and the checks that refuse a run before anything is sent (an
// artifact folder that cannot take files, a prefix that escapes it, too few file descriptors).
#include <sys/resource.h>

#include <fstream>

#include "integration/profile/harness.h"

namespace servebench::itest {
namespace {

// Requests the mock received; stops it first so its record file is complete.
size_t received(Server& mock, const std::string& path) {
  mock.stop();
  std::ifstream in(path);
  size_t n = 0;
  for (std::string line; std::getline(in, line);) n += !line.empty();
  return n;
}

size_t lines(const std::string& text) {
  size_t n = 0;
  for (char c : text) n += c == '\n';
  return n;
}

struct Exit {
  int code = -1;
  double wall_s = 0;
  std::string err;
};

// Runs servebench with RLIMIT_NOFILE capped (soft and hard) in the child, as `ulimit -n N`.
Exit run_with_nofile(const std::string& dir, std::vector<std::string> args, rlim_t nofile) {
  std::vector<std::string> argv = {bin_dir() + "/servebench", "profile"};
  argv.insert(argv.end(), args.begin(), args.end());
  const std::string err_path = dir + "/stderr.txt";
  const int err_fd = open(err_path.c_str(), O_CREAT | O_TRUNC | O_WRONLY, 0644);
  const auto t0 = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid == 0) {
    const rlimit lim{nofile, nofile};
    setrlimit(RLIMIT_NOFILE, &lim);
    dup2(err_fd, 2);
    std::vector<char*> a;
    for (auto& s : argv) a.push_back(s.data());
    a.push_back(nullptr);
    execv(a[0], a.data());
    _exit(127);
  }
  close(err_fd);
  int status = 0;
  waitpid(pid, &status, 0);
  Exit e;
  e.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  e.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  e.err = read_file(err_path);
  return e;
}

TEST(ProfileExit, CtrlCAfterCompletedRequestsExits130WithArtifacts) {
  const std::string dir = make_temp_dir("app-sigint");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--itl-ms", "10"}));
  auto r = run_profile(
      dir,
      {"-m", "m", "-u", mock.url(), "--streaming", "--concurrency", "4", "--benchmark-duration",
       "60", "--osl", "20", "--extra-inputs", "ignore_eos:true"},
      30, /*sigint_after_s=*/1.5);
  EXPECT_EQ(r.exit_code, 130) << r.stderr_text;
  EXPECT_LT(r.wall_s, 1.5 + 1.5) << "drains briefly, writes, exits";
  ASSERT_FALSE(r.artifact_dir.empty());
  auto s = r.summary();
  EXPECT_TRUE(s["was_cancelled"].get<bool>());
  EXPECT_GE(metric_avg(s, "request_count"), 4) << "requests completed, and still not a success";
  EXPECT_FALSE(r.records().empty());
  EXPECT_NE(r.stderr_text.find("interrupted"), std::string::npos);
}

TEST(ProfileExit, SigtermExits143WithArtifacts) {
  const std::string dir = make_temp_dir("app-sigterm");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--itl-ms", "10"}));
  std::vector<std::string> argv = {bin_dir() + "/servebench",
                                   "profile",
                                   "-m",
                                   "m",
                                   "-u",
                                   mock.url(),
                                   "--streaming",
                                   "--concurrency",
                                   "2",
                                   "--benchmark-duration",
                                   "60",
                                   "--osl",
                                   "5",
                                   "--artifact-dir",
                                   dir + "/art",
                                   "-q"};
  const pid_t pid = spawn(argv, -1, -1);
  std::this_thread::sleep_for(std::chrono::milliseconds(1200));
  kill(pid, SIGTERM);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 143);
  bool summary = false;
  for (const auto& e : fs::directory_iterator(dir + "/art"))
    summary |= fs::exists(e.path() / "profile_export_aiperf.json");
  EXPECT_TRUE(summary);
}

TEST(ProfileExit, CtrlCDuringSetUpStopsWithinASecondAndSendsNothing) {
  const std::string dir = make_temp_dir("app-setup");
  const std::string rec = dir + "/requests.jsonl";
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--record-requests", rec}));
  // 100,000 long prompts: set-up takes seconds (about 6 s and 600 MB here, if never stopped).
  std::vector<std::string> argv = {bin_dir() + "/servebench",
                                   "profile",
                                   "-m",
                                   "m",
                                   "-u",
                                   mock.url(),
                                   "--concurrency",
                                   "2",
                                   "--num-dataset-entries",
                                   "100000",
                                   "--isl",
                                   "2000",
                                   "--artifact-dir",
                                   dir + "/art",
                                   "-q"};
  const std::string err_path = dir + "/stderr.txt";
  const int err_fd = open(err_path.c_str(), O_CREAT | O_TRUNC | O_WRONLY, 0644);
  const pid_t pid = spawn(argv, -1, err_fd);
  close(err_fd);
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  const auto t0 = std::chrono::steady_clock::now();
  kill(pid, SIGINT);
  int status = 0;
  waitpid(pid, &status, 0);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 130);
  EXPECT_LT(s, 1.5) << "within about a second";
  const std::string err = read_file(err_path);
  EXPECT_NE(err.find("interrupted during set-up"), std::string::npos) << err;
  EXPECT_FALSE(fs::exists(dir + "/art")) << "nothing measured, nothing written";
  EXPECT_EQ(received(mock, rec), 0u);
}

TEST(ProfileExit, BadArtifactFolderOrPrefixIsRefusedBeforeAnyRequest) {
  const std::string dir = make_temp_dir("app-artdir");
  const std::string rec = dir + "/requests.jsonl";
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--record-requests", rec}));
  std::ofstream(dir + "/file") << "x";
  struct Case {
    std::vector<std::string> flags;
    std::string flag;
  };
  const std::vector<Case> cases = {
      {{"--artifact-dir", "/proc/x"}, "--artifact-dir"},
      {{"--artifact-dir", dir + "/file"}, "--artifact-dir"},
      {{"--artifact-dir", dir + "/ok", "--profile-export-prefix", "../../x"},
       "--profile-export-prefix"},
      {{"--artifact-dir", dir + "/ok", "--profile-export-prefix", "/tmp/x"},
       "--profile-export-prefix"},
  };
  for (const auto& c : cases) {
    std::vector<std::string> args = {"-m",
                                     "m",
                                     "-u",
                                     mock.url(),
                                     "--concurrency",
                                     "2",
                                     "--benchmark-duration",
                                     "3",
                                     "--reset-kv-cache",
                                     "-q"};
    args.insert(args.end(), c.flags.begin(), c.flags.end());
    const Exit e = run_with_nofile(dir, args, 4096);
    EXPECT_EQ(e.code, 2) << e.err;
    EXPECT_LT(e.wall_s, 1.0);
    EXPECT_EQ(lines(e.err), 1u) << e.err;
    EXPECT_NE(e.err.find(c.flag), std::string::npos) << e.err;
  }
  EXPECT_FALSE(fs::exists(dir + "/x"));
  EXPECT_FALSE(fs::exists(dir + "/ok")) << "a refused run leaves no folder";
  EXPECT_EQ(received(mock, rec), 0u) << "not a request, not the KV-cache reset";
}

TEST(ProfileExit, TooFewFileDescriptorsIsRefusedWithTheUlimitFix) {
  const std::string dir = make_temp_dir("app-nofile");
  const std::string rec = dir + "/requests.jsonl";
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--record-requests", rec}));
  const Exit e =
      run_with_nofile(dir,
                      {"-m", "m", "-u", mock.url(), "--concurrency", "5000", "--benchmark-duration",
                       "3", "--artifact-dir", dir + "/art", "-q"},
                      1024);
  EXPECT_EQ(e.code, 2) << e.err;
  EXPECT_EQ(lines(e.err), 1u) << e.err;
  EXPECT_NE(e.err.find("ulimit -n"), std::string::npos) << e.err;
  EXPECT_NE(e.err.find("--concurrency 5000"), std::string::npos) << e.err;
  EXPECT_FALSE(fs::exists(dir + "/art"));
  EXPECT_EQ(received(mock, rec), 0u);
}

}  // namespace
}  // namespace servebench::itest
