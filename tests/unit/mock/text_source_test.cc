#include "text_source.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "word_list.h"

namespace servebench::mock {
namespace {

std::string corpus() {
  const char* d = std::getenv("SERVEBENCH_SOURCE_DIR");
  return std::string(d != nullptr ? d : ".") + "/data/corpus/mobydick.txt";
}

TEST(WordCounter, CountsWhitespaceSeparatedWords) {
  auto c = make_word_counter();
  EXPECT_EQ(c->count(""), 0);
  EXPECT_EQ(c->count("   "), 0);
  EXPECT_EQ(c->count("one"), 1);
  EXPECT_EQ(c->count("  one two\tthree\nfour\r\n five  "), 5);
  EXPECT_EQ(c->count("don't stop-me now!"), 3);
}

TEST(Sha256, KnownValue) {
  const std::string path = ::testing::TempDir() + "/sha_abc.txt";
  std::ofstream(path) << "abc";
  auto h = sha256_file_hex(path);
  ASSERT_TRUE(h);
  EXPECT_EQ(*h, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(OutputText, EmbeddedCorpusIsTheVendoredFile) {
  // The default (no --corpus) reads nothing from disk; it must give the same text as the file.
  auto file = OutputText::load(corpus(), nullptr);
  auto embedded = OutputText::load_embedded(nullptr);
  ASSERT_TRUE(file) << file.error().message;
  ASSERT_TRUE(embedded) << embedded.error().message;
  ASSERT_EQ(embedded->sequence_size(), file->sequence_size());
  std::string a, b;
  file->append(777, 5000, &a);
  embedded->append(777, 5000, &b);
  EXPECT_EQ(a, b);
}

TEST(OutputText, LoadsVendoredCorpusAndCountsExactly) {
  auto text = OutputText::load(corpus(), nullptr);
  ASSERT_TRUE(text) << text.error().message;
  EXPECT_EQ(text->vocabulary(), mock_word_list());
  EXPECT_GT(text->sequence_size(), 50'000u);
  auto counter = make_word_counter();
  for (int64_t n : {0, 1, 2, 20, 1000}) {
    std::string out;
    text->append(12345, n, &out);
    EXPECT_EQ(counter->count(out), n);
    if (n > 0) {
      EXPECT_EQ(out[0], ' ');
    }
  }
  // Deterministic and wrapping: the same start gives the same text; start and start + size too.
  std::string a, b, c;
  text->append(7, 50, &a);
  text->append(7, 50, &b);
  text->append(7 + text->sequence_size(), 50, &c);
  EXPECT_EQ(a, b);
  EXPECT_EQ(a, c);
}

TEST(OutputText, RejectsChecksumMismatch) {
  const std::filesystem::path dir =
      ::testing::TempDir() + "/mock_corpus_" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "c.txt") << "the ocean and the sea";
  std::ofstream(dir / "SHA256SUMS")
      << "0000000000000000000000000000000000000000000000000000000000000000  c.txt\n";
  auto bad = OutputText::load((dir / "c.txt").string(), nullptr);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("SHA256"), std::string::npos);
  auto sum = sha256_file_hex((dir / "c.txt").string());
  std::ofstream(dir / "SHA256SUMS") << *sum << "  c.txt\n";
  auto good = OutputText::load((dir / "c.txt").string(), nullptr);
  ASSERT_TRUE(good) << good.error().message;
  EXPECT_EQ(good->sequence_size(), 5u);
  std::filesystem::remove_all(dir);
}

TEST(OutputText, MissingCorpusIsNotFound) {
  auto r = OutputText::load("/nonexistent/dir/x.txt", nullptr);
  ASSERT_FALSE(r);
  EXPECT_TRUE(r.error().is_usage());
}

}  // namespace
}  // namespace servebench::mock

namespace servebench::mock {
namespace {

// A stand-in for a Metaspace tokenizer: one token per word, plus one for a leading space; and
// it splits " ocean" into two tokens.
class FakeMetaspace final : public TokenCounter {
 public:
  int64_t count(std::string_view text) const override {
    int64_t n = make_word_counter()->count(text);
    if (!text.empty() && text[0] == ' ') ++n;
    for (size_t p = text.find("ocean"); p != std::string_view::npos; p = text.find("ocean", p + 1))
      ++n;
    return n;
  }
  std::string name() const override { return "fake-metaspace"; }
};

TEST(OutputText, FiltersVocabularyAndStripsFirstSpaceForMetaspaceLikeTokenizers) {
  FakeMetaspace fake;
  auto text = OutputText::load(corpus(), &fake);
  ASSERT_TRUE(text) << text.error().message;
  EXPECT_TRUE(text->strips_first_space());
  EXPECT_EQ(text->vocabulary().size(), mock_word_list().size() - 1);
  for (const std::string& w : text->vocabulary()) EXPECT_NE(w, " ocean");
  for (uint64_t start : {0ull, 99ull, 4242ull}) {
    std::string out;
    text->append(start, 30, &out, /*starts_text=*/true);
    EXPECT_NE(out[0], ' ');
    EXPECT_EQ(fake.count(out), 30);
    std::string tail;
    text->append(start, 30, &tail, /*starts_text=*/false);
    EXPECT_EQ(tail[0], ' ');
  }
}

}  // namespace
}  // namespace servebench::mock
