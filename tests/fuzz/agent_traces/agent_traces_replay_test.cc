// Replays tests/fuzz/agent_traces/corpus through the fuzz target as ordinary tests (g++ builds).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

std::string read(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

int replay(const std::string& body, int format) {
  std::string input(1, static_cast<char>(format));
  input += body;
  return LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(input.data()), input.size());
}

TEST(AgentTracesFuzzReplay, EveryCorpusFileUnderEveryFormat) {
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(AGENT_CORPUS_DIR))
    if (e.is_regular_file()) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  ASSERT_GE(files.size(), 6u) << "corpus missing: " << AGENT_CORPUS_DIR;
  for (const auto& f : files) {
    const std::string body = read(f);
    for (int fmt = 0; fmt < 3; ++fmt) {
      SCOPED_TRACE(f.filename().string() + " format " + std::to_string(fmt));
      EXPECT_EQ(replay(body, fmt), 0);
    }
  }
}

// Every prefix of each seed (truncated files) and every single-byte flip of the first 512 bytes.
TEST(AgentTracesFuzzReplay, TruncationsAndByteFlipsOfTheSeeds) {
  for (const auto& e : std::filesystem::directory_iterator(AGENT_CORPUS_DIR)) {
    const std::string body = read(e.path());
    for (int fmt = 0; fmt < 3; ++fmt) {
      for (size_t n = 0; n < body.size(); n += 7) EXPECT_EQ(replay(body.substr(0, n), fmt), 0);
      for (size_t i = 0; i < std::min<size_t>(body.size(), 512); i += 3) {
        std::string flipped = body;
        flipped[i] = static_cast<char>(flipped[i] ^ 0x5A);
        EXPECT_EQ(replay(flipped, fmt), 0);
      }
    }
  }
}

}  // namespace
