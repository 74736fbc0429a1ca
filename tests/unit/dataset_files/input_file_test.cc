// Input files (dataset/loaders/input_file.h): non-regular files refused before any read, size and
// line limits, limits from the environment, and loaders that stop once the interrupt flag is up.
#include "dataset/loaders/input_file.h"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "core/interrupt.h"
#include "dataset/loaders/dataset_file.h"

namespace servebench::dataset {
namespace {

namespace fs = std::filesystem;

class InputFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("sb_input_file_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override {
    core::reset_interrupt_for_test();
    fs::remove_all(dir_);
  }
  std::string write(const std::string& name, const std::string& text) {
    const auto p = dir_ / name;
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
  }
  fs::path dir_;
};

void expect_one_line_naming(const Error& e, ErrorCode code, const std::string& name,
                            const std::string& why) {
  EXPECT_EQ(e.code, code) << e.message;
  EXPECT_NE(e.message.find(name), std::string::npos) << e.message;
  EXPECT_NE(e.message.find(why), std::string::npos) << e.message;
  EXPECT_EQ(e.message.find('\n'), std::string::npos) << e.message;
}

TEST_F(InputFile, ReadsARegularFile) {
  const std::string p = write("a.jsonl", "{\"text\": \"x\"}\n");
  auto r = read_input_file(p, InputLimits{});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(*r, "{\"text\": \"x\"}\n");
}

TEST_F(InputFile, RefusesDevicesFifosSocketsAndFolders) {
  auto dev = read_input_file("/dev/zero", InputLimits{});
  ASSERT_FALSE(dev);
  expect_one_line_naming(dev.error(), ErrorCode::kInvalidArgument, "'/dev/zero'",
                         "character device");
  EXPECT_TRUE(dev.error().is_usage());

  // A FIFO without a writer: opening it for reading would block forever.
  const std::string fifo = (dir_ / "pipe").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto f = read_input_file(fifo, InputLimits{});
  ASSERT_FALSE(f);
  expect_one_line_naming(f.error(), ErrorCode::kInvalidArgument, fifo, "FIFO");

  const std::string sock_path = (dir_ / "sock").string();
  const int s = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::snprintf(addr.sun_path, sizeof(addr.sun_path), "%s", sock_path.c_str());
  ASSERT_EQ(::bind(s, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  auto sk = read_input_file(sock_path, InputLimits{});
  ::close(s);
  ASSERT_FALSE(sk);
  expect_one_line_naming(sk.error(), ErrorCode::kInvalidArgument, sock_path, "socket");

  auto d = read_input_file(dir_.string(), InputLimits{}, "SERVEBENCH_CORPUS");
  ASSERT_FALSE(d);
  expect_one_line_naming(d.error(), ErrorCode::kInvalidArgument, "SERVEBENCH_CORPUS", "folder");
}

TEST_F(InputFile, MissingFileIsNotFound) {
  auto r = read_input_file((dir_ / "nope").string(), InputLimits{});
  ASSERT_FALSE(r);
  expect_one_line_naming(r.error(), ErrorCode::kNotFound, "nope", "check the path");
}

TEST_F(InputFile, SizeLimitIsExactAndNamesTheOverride) {
  const std::string p = write("ten", "0123456789");
  InputLimits l;
  l.max_bytes = 10;
  EXPECT_TRUE(read_input_file(p, l)) << "exactly at the limit";
  l.max_bytes = 9;
  auto r = read_input_file(p, l);
  ASSERT_FALSE(r);
  expect_one_line_naming(r.error(), ErrorCode::kInvalidArgument, p, "SERVEBENCH_INPUT_MAX_BYTES");
}

TEST_F(InputFile, LineLimitNamesFileAndLine) {
  InputLimits l;
  l.max_line_bytes = 5;
  EXPECT_FALSE(check_line_lengths("12345\n12345\r\n", l, "f.jsonl")) << "a \\r counts: 6 bytes";
  EXPECT_TRUE(check_line_lengths("12345\n\n12345", l, "f.jsonl"));
  auto s = check_line_lengths("1\n22\n333333\n", l, "f.jsonl");
  ASSERT_FALSE(s);
  expect_one_line_naming(s.error(), ErrorCode::kInvalidArgument, "f.jsonl:3",
                         "SERVEBENCH_INPUT_MAX_LINE_BYTES");
}

TEST_F(InputFile, LoaderAppliesTheLineLimitToLineFormatsOnly) {
  const std::string jsonl = write("a.jsonl", "{\"text\": \"" + std::string(100, 'y') + "\"}\n");
  InputLimits l;
  l.max_line_bytes = 50;
  auto r = load_dataset_file(jsonl, std::nullopt, l);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("a.jsonl:1"), std::string::npos) << r.error().message;
  const std::string share =
      write("s.json", "[{\"id\": \"a\", \"conversations\": [{\"from\": \"human\", \"value\": \"" +
                          std::string(100, 'z') + "\"}, {\"from\": \"gpt\", \"value\": \"ok\"}]}]");
  auto ok = load_dataset_file(share, std::nullopt, l);
  ASSERT_TRUE(ok) << ok.error().message;
  EXPECT_EQ(ok->format, FileFormat::kShareGpt);
}

TEST_F(InputFile, FolderEntriesThatAreNotRegularFilesAreSkipped) {
  fs::create_directories(dir_ / "pool");
  write("pool/1.jsonl", "{\"text\": \"a\"}\n");
  const std::string fifo = (dir_ / "pool" / "0.jsonl").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto r = load_dataset_file((dir_ / "pool").string(), std::nullopt, InputLimits{});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->conversations.size(), 1u);
  fs::create_directories(dir_ / "empty" / "sub");
  auto e = load_dataset_file((dir_ / "empty").string(), std::nullopt, InputLimits{});
  ASSERT_FALSE(e);
  expect_one_line_naming(e.error(), ErrorCode::kInvalidArgument, "empty", "without regular files");
}

TEST_F(InputFile, LimitsFromTheEnvironment) {
  core::EnvSnapshot env;
  auto d = InputLimits::from_env(env);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->max_bytes, kDefaultMaxInputBytes);
  EXPECT_EQ(d->max_line_bytes, kDefaultMaxInputLineBytes);
  env.set(core::EnvVar::kServebenchInputMaxBytes, "4G");
  env.set(core::EnvVar::kServebenchInputMaxLineBytes, "1000");
  auto o = InputLimits::from_env(env);
  ASSERT_TRUE(o);
  EXPECT_EQ(o->max_bytes, 4'000'000'000);
  EXPECT_EQ(o->max_line_bytes, 1000);
  env.set(core::EnvVar::kServebenchInputMaxLineBytes, "lots");
  auto bad = InputLimits::from_env(env);
  ASSERT_FALSE(bad);
  expect_one_line_naming(bad.error(), ErrorCode::kInvalidArgument,
                         "SERVEBENCH_INPUT_MAX_LINE_BYTES", "lots");
}

TEST_F(InputFile, ReadingStopsWhenInterrupted) {
  const std::string p = write("a.jsonl", "{\"text\": \"x\"}\n");
  core::request_interrupt(2);
  auto r = read_input_file(p, InputLimits{});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kInterrupted);
  EXPECT_FALSE(r.error().is_usage());
}

// Every parse loop polls the flag: a raised flag stops each format before its first record.
TEST_F(InputFile, ParsersStopWhenInterrupted) {
  core::request_interrupt(2);
  const struct {
    FileFormat format;
    const char* text;
  } cases[] = {
      {FileFormat::kSingleTurn, "{\"text\": \"a\"}\n"},
      {FileFormat::kMooncakeTrace, "{\"input_length\": 3}\n"},
      {FileFormat::kBurstGptTrace, "Timestamp,Model,Request tokens,Response tokens\n1,m,2,3\n"},
      {FileFormat::kInputsJson, "{\"data\": [{\"payloads\": [{}]}]}"},
      {FileFormat::kShareGpt, "[{\"conversations\": []}]"},
  };
  for (const auto& c : cases) {
    auto r = parse_dataset_text(c.text, c.format, "t");
    ASSERT_FALSE(r) << file_format_name(c.format);
    EXPECT_EQ(r.error().code, ErrorCode::kInterrupted)
        << file_format_name(c.format) << ": " << r.error().message;
  }
  core::reset_interrupt_for_test();
  EXPECT_TRUE(parse_dataset_text("{\"text\": \"a\"}\n", FileFormat::kSingleTurn, "t"));
}

}  // namespace
}  // namespace servebench::dataset
