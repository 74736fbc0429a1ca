// --input-file that would hang or grow without bound is refused at once: exit code 2, one line
// naming the input and the fix, in bounded time. Standard input works with '-'.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "integration/reloc/reloc_harness.h"

namespace servebench::itest {
namespace {

// Set-up failures come before any request; a generous bound that a hang (the old FIFO case)
// or reading /dev/zero (~600 MB/s, forever) cannot meet.
constexpr double kBoundS = 10;

struct Refusal {
  int exit_code;
  double wall_s;
  std::vector<std::string> lines;
};

Refusal run_refused(const std::string& dir, const std::vector<std::string>& extra,
                    const std::vector<std::string>& env = {}) {
  Exec e;
  e.argv = {bin_dir() + "/servebench",
            "profile",
            "-m",
            "mock-model",
            "--tokenizer",
            "builtin",
            "-u",
            "http://127.0.0.1:9",
            "--request-count",
            "2",
            "--artifact-dir",
            dir + "/art"};
  e.argv.insert(e.argv.end(), extra.begin(), extra.end());
  e.env = env;
  e.stderr_path = dir + "/stderr.txt";
  const ExecResult r = run_exec(e, 60);
  EXPECT_FALSE(r.timed_out);
  return {r.exit_code, r.wall_s, nonempty_lines(r.stderr_text)};
}

void expect_refused(const Refusal& r, const std::string& named, const std::string& why) {
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_LT(r.wall_s, kBoundS);
  ASSERT_EQ(r.lines.size(), 1u) << (r.lines.empty() ? "" : r.lines.back());
  EXPECT_NE(r.lines[0].find(named), std::string::npos) << r.lines[0];
  EXPECT_NE(r.lines[0].find(why), std::string::npos) << r.lines[0];
}

TEST(InputFiles, DeviceIsRefused) {
  const std::string dir = make_temp_dir("in-dev");
  expect_refused(run_refused(dir, {"--input-file", "/dev/zero"}), "'/dev/zero'",
                 "character device");
}

TEST(InputFiles, FifoIsRefusedWithoutBlocking) {
  const std::string dir = make_temp_dir("in-fifo");
  const std::string fifo = dir + "/data.jsonl";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  expect_refused(run_refused(dir, {"--input-file", fifo}), fifo, "FIFO");
}

TEST(InputFiles, FolderOfNonDatasetFilesIsRefused) {
  const std::string dir = make_temp_dir("in-dir");
  fs::create_directories(dir + "/notes");
  std::ofstream(dir + "/notes/readme.txt") << "hello, this is not a dataset\n";
  expect_refused(run_refused(dir, {"--input-file", dir + "/notes"}), dir + "/notes",
                 "cannot tell its format");
  expect_refused(
      run_refused(dir, {"--input-file", dir + "/notes", "--custom-dataset-type", "single_turn"}),
      dir + "/notes", "is a folder");
}

TEST(InputFiles, OverLongLineIsRefused) {
  const std::string dir = make_temp_dir("in-line");
  {
    std::ofstream f(dir + "/long.jsonl");
    f << "{\"text\": \"short\"}\n{\"text\": \"" << std::string(5000, 'x') << "\"}\n";
  }
  expect_refused(run_refused(dir, {"--input-file", dir + "/long.jsonl"},
                             {"SERVEBENCH_INPUT_MAX_LINE_BYTES=1000"}),
                 dir + "/long.jsonl:2", "SERVEBENCH_INPUT_MAX_LINE_BYTES");
}

TEST(InputFiles, OversizeFileIsRefused) {
  const std::string dir = make_temp_dir("in-size");
  {
    std::ofstream f(dir + "/big.jsonl");
    for (int i = 0; i < 100; ++i) f << "{\"text\": \"row " << i << "\"}\n";
  }
  expect_refused(
      run_refused(dir, {"--input-file", dir + "/big.jsonl"}, {"SERVEBENCH_INPUT_MAX_BYTES=1k"}),
      dir + "/big.jsonl", "SERVEBENCH_INPUT_MAX_BYTES");
}

TEST(InputFiles, StandardInputWithDash) {
  const std::string dir = make_temp_dir("in-stdin");
  {
    std::ofstream f(dir + "/rows.jsonl");
    for (int i = 0; i < 5; ++i)
      f << "{\"text\": \"question number " << i << "\", \"output_length\": 4}\n";
  }
  Server mock;
  ASSERT_TRUE(mock.start_mock({}));
  Exec e;
  e.argv = {bin_dir() + "/servebench",
            "profile",
            "-m",
            "mock-model",
            "--tokenizer",
            "builtin",
            "-u",
            mock.url(),
            "--input-file",
            "-",
            "--artifact-dir",
            dir + "/art",
            "-q"};
  e.stdin_path = dir + "/rows.jsonl";  // a regular file on stdin
  e.stderr_path = dir + "/stderr.txt";
  const ExecResult r = run_exec(e, 60);
  mock.stop();
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  std::string run_dir;
  for (const auto& d : fs::directory_iterator(dir + "/art"))
    if (d.is_directory()) run_dir = d.path().string();
  EXPECT_EQ(read_jsonl(run_dir + "/profile_export.jsonl").size(), 5u);
}

}  // namespace
}  // namespace servebench::itest
