// `servebench tokenize` end to end (the real binary).
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/wait.h>

#include <cstdio>
#include <string>

#include "tokenizer/fixtures.h"

namespace servebench::tokenizer {
namespace {

struct Run {
  int code;
  std::string out;
};

Run run(const std::string& args, const std::string& stdin_text = "") {
  std::string bin = testing::env_or("SERVEBENCH_BIN_DIR", SERVEBENCH_TEST_BIN_DIR) + "/servebench";
  // A file of its own per call: ctest runs these tests in parallel processes.
  std::string in_file = ::testing::TempDir() + "/sb_tokenize_in_XXXXXX";
  const int fd = ::mkstemp(in_file.data());
  FILE* f = ::fdopen(fd, "wb");
  std::fwrite(stdin_text.data(), 1, stdin_text.size(), f);
  std::fclose(f);
  std::string cmd = bin + " tokenize " + args + " < " + in_file + " 2>/dev/null";
  FILE* p = ::popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof(buf), p)) > 0) out.append(buf, n);
  int status = ::pclose(p);
  std::remove(in_file.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

TEST(TokenizeCommand, EncodeCountDecodeJsonl) {
  EXPECT_EQ(run("--tokenizer builtin --text 'Hello world'").out, "[13225,2375]\n");
  EXPECT_EQ(run("--tokenizer builtin --count", "Hello world").out, "2\n");
  EXPECT_EQ(run("--tokenizer builtin --decode --text '[13225,2375]'").out, "Hello world");
  EXPECT_EQ(run("--tokenizer builtin --jsonl", "\"Hello world\"\n\"a\\nb\"\n").out, "[13225,2375]\n[64,198,65]\n");
  EXPECT_EQ(run("--tokenizer builtin --jsonl --count", "\"Hello world\"\n\"\"\n").out, "2\n0\n");
  EXPECT_EQ(run("--tokenizer simple --count --text 'one two  three'").out, "3\n");
}

TEST(TokenizeCommand, AddSpecialTokens) {
  std::string llama2 = testing::family_paths().at("llama2");
  if (!testing::file_exists(llama2)) FAIL() << testing::missing_fixture_message(llama2);
  EXPECT_EQ(run("--tokenizer " + llama2 + " --add-special-tokens --text 'Hello world'").out, "[1,15043,3186]\n");
  EXPECT_EQ(run("--tokenizer " + llama2 + " --text 'Hello world'").out, "[15043,3186]\n");
}

TEST(TokenizeCommand, BadInputExitsTwo) {
  EXPECT_EQ(run("--tokenizer /nonexistent/tok.json --text x").code, 2);
  EXPECT_EQ(run("--text x").code, 2);  // --tokenizer is required
  EXPECT_EQ(run("--tokenizer builtin --jsonl", "not json\n").code, 2);
  EXPECT_EQ(run("--tokenizer builtin --decode --text 'abc'").code, 2);
}

}  // namespace
}  // namespace servebench::tokenizer
