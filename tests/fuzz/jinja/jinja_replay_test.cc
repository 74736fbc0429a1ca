// Replays tests/fuzz/jinja/corpus (real chat templates and snippets of every construct) through
// the Jinja fuzz target as ordinary tests (g++ builds have no libFuzzer).
#include "fuzz/sse/replay.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

TEST(JinjaFuzzReplay, CorpusRunsClean) {
  auto files = servebench::testing::corpus_files(JINJA_CORPUS_DIR);
  ASSERT_GE(files.size(), 12u) << "corpus missing at " << JINJA_CORPUS_DIR;
  for (const auto& f : files) {
    SCOPED_TRACE(f.string());
    std::string bytes = servebench::testing::read_file_bytes(f);
    EXPECT_EQ(LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()), 0);
  }
}

// Every prefix of every corpus file (every 7th for the long templates): truncated templates must
// fail cleanly or render. Sanitizer builds (-O0, ~20x slower here: 150 s for every prefix) take
// every 3rd prefix and every 29th of the long templates; the release suite takes them all.
#if defined(SERVEBENCH_SANITIZED)
constexpr size_t kShortStep = 3, kLongStep = 29;
#else
constexpr size_t kShortStep = 1, kLongStep = 7;
#endif

TEST(JinjaFuzzReplay, EveryPrefixRunsClean) {
  for (const auto& f : servebench::testing::corpus_files(JINJA_CORPUS_DIR)) {
    SCOPED_TRACE(f.string());
    const std::string bytes = servebench::testing::read_file_bytes(f);
    const size_t step = bytes.size() > 4000 ? kLongStep : kShortStep;
    for (size_t n = 0; n <= bytes.size(); n += step)
      EXPECT_EQ(LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), n), 0);
  }
}
