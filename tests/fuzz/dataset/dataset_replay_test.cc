// Replays tests/fuzz/dataset/corpus through the fuzz target as ordinary tests (g++ builds).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

TEST(DatasetFuzzReplay, EveryCorpusFileUnderEveryFormat) {
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(DATASET_CORPUS_DIR))
    if (e.is_regular_file()) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  ASSERT_GE(files.size(), 8u) << "corpus missing: " << DATASET_CORPUS_DIR;
  for (const auto& f : files) {
    std::ifstream in(f, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    std::string body = ss.str();
    for (int fmt = 0; fmt < 9; ++fmt) {
      std::string input(1, static_cast<char>(fmt));
      input += body;
      SCOPED_TRACE(f.filename().string() + " format " + std::to_string(fmt));
      EXPECT_EQ(LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(input.data()), input.size()), 0);
    }
  }
}

}  // namespace
