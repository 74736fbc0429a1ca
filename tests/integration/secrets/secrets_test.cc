// End to end against servebench-mock: inputs.json payloads are the bodies the server received,
// byte for byte, however many "bearer"/"token"/"password" words they hold; credentials given as
// -H values, --api-key or URL user info appear in no artifact, stdout or stderr, even when
// requests fail; URL errors are usage errors; a base URL's query string follows the endpoint path.
#include <algorithm>
#include <fstream>

#include "integration/profile/harness.h"

namespace servebench::itest {
namespace {

// Runs servebench with stdout and stderr captured (no -q: the console and logs are checked too).
struct Captured {
  int exit_code = -1;
  std::string out, err;
  double wall_s = 0;
};

Captured run_captured(const std::string& dir, const std::vector<std::string>& args) {
  std::vector<std::string> argv = {bin_dir() + "/servebench", "profile"};
  argv.insert(argv.end(), args.begin(), args.end());
  const std::string out_path = dir + "/stdout.txt", err_path = dir + "/stderr.txt";
  const int out_fd = open(out_path.c_str(), O_CREAT | O_TRUNC | O_WRONLY, 0644);
  const int err_fd = open(err_path.c_str(), O_CREAT | O_TRUNC | O_WRONLY, 0644);
  const auto t0 = std::chrono::steady_clock::now();
  const pid_t pid = spawn(argv, out_fd, err_fd);
  close(out_fd);
  close(err_fd);
  int status = 0;
  waitpid(pid, &status, 0);
  Captured c;
  c.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  c.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  c.out = read_file(out_path);
  c.err = read_file(err_path);
  return c;
}

// Every regular file under `root`, with its text.
std::vector<std::pair<std::string, std::string>> all_files(const std::string& root) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& e : fs::recursive_directory_iterator(root))
    if (e.is_regular_file()) out.emplace_back(e.path().string(), read_file(e.path().string()));
  return out;
}

TEST(Secrets, InputsJsonHoldsTheBodiesTheServerReceived) {
  const std::string dir = make_temp_dir("secrets-inputs");
  const std::string file = dir + "/prompts.jsonl";
  {
    std::ofstream f(file);
    f << R"({"text": "The bearer looked nobler than the token he carried."})"
         "\n";
    f << R"({"text": "password: hunter2, api_key=abc123, Authorization: Bearer xyz, secret key"})"
         "\n";
    f << R"({"text": "sk-abcdefghijklmnopqrstuvwxyz token=\"quoted\" \\ back é ü 😀"})"
         "\n";
    f << R"({"text": "x-api-key: 12345; access_token=zzz; Basic dXNlcjpwYXNz"})"
         "\n";
  }
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--record-requests", dir + "/rec.jsonl", "--record-bodies"}));
  auto r = run_profile(
      dir, {"-m", "mock-model", "--tokenizer", "builtin", "-u", mock.url(), "--input-file", file,
            "--custom-dataset-type", "single_turn", "--osl", "4", "--concurrency", "2"});
  mock.stop();
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const std::string inputs = read_file(r.artifact_dir + "/inputs.json");
  const auto rec = read_jsonl(dir + "/rec.jsonl");
  ASSERT_EQ(rec.size(), 4u);
  for (const auto& q : rec) {
    const std::string body = q.at("body").get<std::string>();
    ASSERT_FALSE(body.empty());
    EXPECT_NE(inputs.find(body), std::string::npos) << "not in inputs.json byte for byte: " << body;
  }
  EXPECT_NE(inputs.find("The bearer looked nobler than the token he carried."), std::string::npos)
      << inputs;
  EXPECT_NE(inputs.find("Authorization: Bearer xyz"), std::string::npos) << inputs;
  EXPECT_FALSE(Json::parse(inputs, nullptr, false).is_discarded()) << "inputs.json is JSON";
}

constexpr const char* kSecrets[] = {"S1-auth-token-9f1a",    "S2-custom-secret-7b3c",
                                    "S3-api-key-2a9d",       "S4-url-password-4d2e",
                                    "S5-private-token-8c2d", "S6-ocp-apim-5e1f"};

void expect_no_secret(const std::string& where, const std::string& text) {
  for (const char* s : kSecrets)
    EXPECT_EQ(text.find(s), std::string::npos) << s << " leaked into " << where;
}

std::vector<std::string> secret_headers() {
  return {"-H",
          "X-Auth-Token: S1-auth-token-9f1a",
          "-H",
          "X-Custom-Secret: S2-custom-secret-7b3c",
          "--header=Private-Token: S5-private-token-8c2d",
          "-H",
          "Ocp-Apim-Subscription-Key: S6-ocp-apim-5e1f",
          "-H",
          "User-Agent: servebench-test"};
}

// Failing requests put server messages into the JSONL, the console and the summary; -v logs.
TEST(Secrets, NoCredentialInAnyArtifactOrStream) {
  const std::string dir = make_temp_dir("secrets-leak");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--error-rate", "50", "--error-kind", "http500"}));
  std::vector<std::string> args = {"-m",          "mock-model",
                                   "--tokenizer", "builtin",
                                   "-u",          mock.url(),
                                   "--api-key",   "S3-api-key-2a9d",
                                   "--streaming", "--osl",
                                   "4",           "--request-count",
                                   "20",          "--concurrency",
                                   "2",           "--export-level",
                                   "raw",         "--slice-duration",
                                   "1",           "--artifact-dir",
                                   dir + "/art",  "-v"};
  const auto headers = secret_headers();
  args.insert(args.end(), headers.begin(), headers.end());
  const Captured c = run_captured(dir, args);
  ASSERT_EQ(c.exit_code, 0) << c.err;
  expect_no_secret("stdout", c.out);
  expect_no_secret("stderr", c.err);
  EXPECT_NE(c.out.find("X-Auth-Token: <redacted>"), std::string::npos) << c.out;
  EXPECT_NE(c.out.find("User-Agent: servebench-test"), std::string::npos)
      << "harmless headers stay visible";
  const auto files = all_files(dir + "/art");
  ASSERT_GE(files.size(), 5u);
  bool saw_error = false;
  for (const auto& [path, text] : files) {
    expect_no_secret(path, text);
    saw_error = saw_error || text.find("\"error\":{") != std::string::npos;
  }
  EXPECT_TRUE(saw_error) << "the mock was to fail some requests";
}

// user:password@ in the URL: Basic auth, stripped from every output; the query string goes after
// the endpoint path.
TEST(Secrets, UrlUserInfoAndQueryString) {
  const std::string dir = make_temp_dir("secrets-url");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--record-requests", dir + "/rec.jsonl", "--error-rate", "30"}));
  const std::string url =
      "http://user:S4-url-password-4d2e@127.0.0.1:" + std::to_string(mock.port()) +
      "/?api-version=1";
  std::vector<std::string> args = {
      "-m", "mock-model",      "--tokenizer", "builtin",        "-u",         url, "--osl",
      "4",  "--request-count", "6",           "--artifact-dir", dir + "/art", "-v"};
  const auto headers = secret_headers();
  args.insert(args.end(), headers.begin(), headers.end());
  const Captured c = run_captured(dir, args);
  mock.stop();
  ASSERT_EQ(c.exit_code, 0) << c.err;
  expect_no_secret("stdout", c.out);
  expect_no_secret("stderr", c.err);
  for (const auto& [path, text] : all_files(dir + "/art")) expect_no_secret(path, text);
  const auto rec = read_jsonl(dir + "/rec.jsonl");
  ASSERT_EQ(rec.size(), 6u);
  for (const auto& q : rec) EXPECT_EQ(q.at("path"), "/v1/chat/completions?api-version=1");
  // Two credentials for one Authorization header: refused up front, still without echoing them.
  args.insert(args.end(), {"--api-key", "S3-api-key-2a9d"});
  const Captured both = run_captured(dir, args);
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_NE(both.err.find("--api-key"), std::string::npos) << both.err;
  expect_no_secret("stderr", both.err);
}

TEST(Secrets, BadUrlsAreUsageErrorsWithinASecond) {
  const std::string dir = make_temp_dir("secrets-badurl");
  for (const char* url : {"localhost:99999", "localhost:abc", "localhost:0", "ftp://h",
                          "http://:8000", "http://u:S4-url-password-4d2e@h:70000"}) {
    const Captured c = run_captured(dir, {"-m", "m", "-u", url, "--artifact-dir", dir + "/art"});
    EXPECT_EQ(c.exit_code, 2) << url << ": " << c.err;
    EXPECT_LT(c.wall_s, 3.0) << url;  // the promise is < 1 s; slack for a loaded test machine
    EXPECT_NE(c.err.find("-u/--url"), std::string::npos) << c.err;
    EXPECT_EQ(std::count(c.err.begin(), c.err.end(), '\n'), 1) << "one line: " << c.err;
    expect_no_secret("stderr", c.err);
  }
}

}  // namespace
}  // namespace servebench::itest
