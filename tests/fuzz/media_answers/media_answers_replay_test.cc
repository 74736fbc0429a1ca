#include "fuzz/sse/replay.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

TEST(MediaAnswersFuzzReplay, CorpusRunsClean) {
  auto files = servebench::testing::corpus_files(MEDIA_ANSWERS_CORPUS_DIR);
  ASSERT_GE(files.size(), 10u) << "corpus missing at " << MEDIA_ANSWERS_CORPUS_DIR;
  for (const auto& f : files) {
    SCOPED_TRACE(f.string());
    std::string bytes = servebench::testing::read_file_bytes(f);
    EXPECT_EQ(LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()),
              0);
  }
}
