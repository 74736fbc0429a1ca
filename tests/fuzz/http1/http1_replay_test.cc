#include "fuzz/sse/replay.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

TEST(Http1FuzzReplay, CorpusRunsClean) {
  auto files = servebench::testing::corpus_files(HTTP1_CORPUS_DIR);
  ASSERT_GE(files.size(), 5u) << "corpus missing at " << HTTP1_CORPUS_DIR;
  for (const auto& f : files) {
    SCOPED_TRACE(f.string());
    std::string bytes = servebench::testing::read_file_bytes(f);
    EXPECT_EQ(LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()), 0);
  }
}
