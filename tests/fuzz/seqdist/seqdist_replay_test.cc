// Replays tests/fuzz/seqdist/corpus through the --sequence-distribution fuzz target as ordinary
// tests (g++ builds have no libFuzzer).
#include "fuzz/sse/replay.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

TEST(SeqDistFuzzReplay, CorpusRunsClean) {
  auto files = servebench::testing::corpus_files(SEQDIST_CORPUS_DIR);
  ASSERT_GE(files.size(), 12u) << "corpus missing at " << SEQDIST_CORPUS_DIR;
  for (const auto& f : files) {
    SCOPED_TRACE(f.string());
    std::string bytes = servebench::testing::read_file_bytes(f);
    EXPECT_EQ(LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()), 0);
  }
}

// Every prefix of every corpus file: truncated specs must fail cleanly or parse well-formed.
TEST(SeqDistFuzzReplay, EveryPrefixRunsClean) {
  for (const auto& f : servebench::testing::corpus_files(SEQDIST_CORPUS_DIR)) {
    SCOPED_TRACE(f.string());
    const std::string bytes = servebench::testing::read_file_bytes(f);
    for (size_t n = 0; n <= bytes.size(); ++n)
      EXPECT_EQ(LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), n), 0);
  }
}
