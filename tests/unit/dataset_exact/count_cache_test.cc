// The on-disk cache of corpus piece counts behind ExactPromptBuilder::create, and the tokenizer
// fingerprints that key it.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "core/env.h"
#include "dataset/embedded_counts.h"
#include "dataset/exact_prompts.h"
#include "dataset/synthetic_prompts.h"
#include "unit/dataset_exact/corpus_fixture.h"
#include "unit/tokenizer/fixtures.h"

namespace servebench::dataset {
namespace {

namespace fs = std::filesystem;
namespace tt = tokenizer::testing;
using Source = ExactPromptBuilder::CountSource;

const std::string& corpus() { return testing::vendored_corpus(); }

std::shared_ptr<const tokenizer::Tokenizer> load(const std::string& spec) {
  return testing::load_tokenizer_or_fail(spec);
}

// A fresh folder per test, removed afterwards.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "sb-count-cache-XXXXXX").string();
    char* d = mkdtemp(tmpl.data());
    path_ = d ? d : "";
  }
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty()) fs::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

std::vector<fs::path> cache_files(const std::string& dir) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) out.push_back(it->path());
  return out;
}

std::string read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_bytes(const fs::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << bytes;
}

// The disk cache alone (the builtin tokenizer's embedded counts off; embedded_counts_test.cc).
ExactPromptOptions in_dir(const std::string& dir) {
  ExactPromptOptions o;
  o.count_cache_dir = dir;
  o.use_embedded_counts = false;
  return o;
}

ExactPromptOptions no_cache() {
  ExactPromptOptions o;
  o.use_count_cache = false;
  o.use_embedded_counts = false;
  return o;
}

// Prompts over a spread of targets, opening and continuing, from a fixed seed.
std::vector<std::string> sample_prompts(const ExactPromptBuilder& b) {
  core::Rng rng = core::Rng::stream(99, "count-cache-test");
  std::vector<std::string> out;
  for (int64_t target : {1, 2, 5, 17, 128, 700, 2048}) {
    for (int rep = 0; rep < 4; ++rep) {
      auto p = b.build(target, rng, rep % 2 == 1);
      out.push_back(std::to_string(p.tokens) + "|" + p.text);
    }
  }
  return out;
}

// Forwards to another tokenizer but claims a given fingerprint (a stale or colliding entry).
class Fingerprinted : public tokenizer::Tokenizer {
 public:
  Fingerprinted(const Tokenizer& inner, std::string fp) : inner_(inner), fp_(std::move(fp)) {}
  std::vector<tokenizer::TokenId> encode(std::string_view t, bool s) const override { return inner_.encode(t, s); }
  size_t count(std::string_view t) const override { return inner_.count(t); }
  std::string decode(const std::vector<tokenizer::TokenId>& ids, bool s) const override { return inner_.decode(ids, s); }
  std::string name() const override { return inner_.name(); }
  size_t vocab_size() const override { return inner_.vocab_size(); }
  std::string fingerprint() const override { return fp_; }

 private:
  const Tokenizer& inner_;
  std::string fp_;
};

// Counts characters / 3: not additive over space-joined pieces.
class Chars3 : public tokenizer::Tokenizer {
 public:
  std::vector<tokenizer::TokenId> encode(std::string_view t, bool) const override {
    return std::vector<tokenizer::TokenId>((t.size() + 2) / 3, 1);
  }
  std::string decode(const std::vector<tokenizer::TokenId>&, bool) const override { return ""; }
  std::string name() const override { return "chars3"; }
  size_t vocab_size() const override { return 2; }
};

void expect_hit_matches_cold(const tokenizer::Tokenizer& tok) {
  ASSERT_FALSE(corpus().empty());
  TempDir dir;
  auto reference = ExactPromptBuilder::create(corpus(), tok, no_cache());
  ASSERT_TRUE(reference) << reference.error().message;
  EXPECT_EQ(reference->count_source(), Source::kCounted);

  auto cold = ExactPromptBuilder::create(corpus(), tok, in_dir(dir.path()));
  ASSERT_TRUE(cold) << cold.error().message;
  EXPECT_EQ(cold->count_source(), Source::kCounted);
  const auto files = cache_files(dir.path());
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].filename().string(), ExactPromptBuilder::count_cache_file_name(corpus(), tok));

  auto warm = ExactPromptBuilder::create(corpus(), tok, in_dir(dir.path()));
  ASSERT_TRUE(warm) << warm.error().message;
  EXPECT_EQ(warm->count_source(), Source::kCache);
  EXPECT_EQ(warm->piece_count(), reference->piece_count());
  EXPECT_EQ(warm->verifying_all(), reference->verifying_all());
  EXPECT_EQ(sample_prompts(*warm), sample_prompts(*reference));
  EXPECT_EQ(sample_prompts(*cold), sample_prompts(*reference));
  // Exact by construction from cached counts too.
  core::Rng rng = core::Rng::stream(5, "exact");
  for (int64_t target : {3, 64, 1000}) {
    auto p = warm->build(target, rng);
    EXPECT_EQ(static_cast<int64_t>(tok.count(p.text)), target);
  }
}

TEST(CountCache, HitGivesTheColdBuildersPromptsBuiltin) { expect_hit_matches_cold(*load("builtin")); }

TEST(CountCache, HitGivesTheColdBuildersPromptsHfTokenizers) {
  for (const char* family : {"qwen3", "llama3"}) {
    const std::string path = tt::family_paths().at(family);
    ASSERT_TRUE(tt::file_exists(path)) << tt::missing_fixture_message(path);
    SCOPED_TRACE(family);
    auto tok = load(path);
    ASSERT_TRUE(tok);
    expect_hit_matches_cold(*tok);
  }
}

// Every kind of damage falls back to counting (same prompts) and rewrites a good entry.
TEST(CountCache, DamagedEntryFallsBackToCountingAndIsRewritten) {
  auto tok = load("builtin");
  ASSERT_TRUE(tok);
  TempDir dir;
  auto reference = ExactPromptBuilder::create(corpus(), *tok, no_cache());
  ASSERT_TRUE(reference);
  const auto expected = sample_prompts(*reference);
  ASSERT_TRUE(ExactPromptBuilder::create(corpus(), *tok, in_dir(dir.path())));
  const fs::path entry = fs::path(dir.path()) / ExactPromptBuilder::count_cache_file_name(corpus(), *tok);
  const std::string good = read_bytes(entry);
  ASSERT_GT(good.size(), 100u);

  auto flip = [&](size_t at) {
    std::string b = good;
    b[at] = static_cast<char>(b[at] ^ 0x01);
    return b;
  };
  const std::vector<std::pair<std::string, std::string>> damages = {
      {"empty", ""},
      {"header only", good.substr(0, 20)},
      {"truncated by one byte", good.substr(0, good.size() - 1)},
      {"truncated by half", good.substr(0, good.size() / 2)},
      {"one extra byte", good + "x"},
      {"bad magic", flip(0)},
      {"other version", flip(8)},
      {"other key", flip(20)},
      {"flipped count", flip(good.size() / 2)},
      {"flipped filler index", flip(48)},
      {"flipped checksum", flip(good.size() - 3)},
      {"garbage of the right size", std::string(good.size(), '\x07')},
  };
  for (const auto& [what, bytes] : damages) {
    SCOPED_TRACE(what);
    write_bytes(entry, bytes);
    auto b = ExactPromptBuilder::create(corpus(), *tok, in_dir(dir.path()));
    ASSERT_TRUE(b) << b.error().message;
    EXPECT_EQ(b->count_source(), Source::kCounted);
    EXPECT_EQ(sample_prompts(*b), expected);
    EXPECT_EQ(read_bytes(entry), good) << "the entry is rewritten";
    auto again = ExactPromptBuilder::create(corpus(), *tok, in_dir(dir.path()));
    ASSERT_TRUE(again);
    EXPECT_EQ(again->count_source(), Source::kCache);
  }
  // A folder in the way of the entry: counted, no error.
  fs::remove(entry);
  fs::create_directory(entry);
  auto b = ExactPromptBuilder::create(corpus(), *tok, in_dir(dir.path()));
  ASSERT_TRUE(b);
  EXPECT_EQ(b->count_source(), Source::kCounted);
  EXPECT_EQ(sample_prompts(*b), expected);
}

TEST(CountCache, UnusableFolderFallsBackToCounting) {
  auto tok = load("builtin");
  ASSERT_TRUE(tok);
  TempDir dir;
  const std::string file = dir.path() + "/plain-file";
  write_bytes(file, "not a folder");
  for (int i = 0; i < 2; ++i) {
    auto b = ExactPromptBuilder::create(corpus(), *tok, in_dir(file + "/cache"));
    ASSERT_TRUE(b) << b.error().message;
    EXPECT_EQ(b->count_source(), Source::kCounted);
  }
}

TEST(CountCache, KeyDependsOnTokenizerAndCorpus) {
  auto builtin = load("builtin");
  ASSERT_TRUE(builtin);
  const std::string name = ExactPromptBuilder::count_cache_file_name(corpus(), *builtin);
  ASSERT_EQ(name.size(), 32u + 7u);
  EXPECT_EQ(name.substr(32), ".counts");
  EXPECT_EQ(ExactPromptBuilder::count_cache_file_name(corpus(), *load("builtin")), name) << "stable across loads";
  EXPECT_NE(ExactPromptBuilder::count_cache_file_name(corpus().substr(0, corpus().size() - 1), *builtin), name);
  EXPECT_NE(ExactPromptBuilder::count_cache_file_name(corpus() + " ", *builtin), name);
  EXPECT_NE(ExactPromptBuilder::count_cache_file_name(corpus(), Fingerprinted(*builtin, builtin->fingerprint() + "x")),
            name);
  std::set<std::string> names = {name};
  for (const char* family : {"qwen3", "llama3", "gpt2"}) {
    const std::string path = tt::family_paths().at(family);
    ASSERT_TRUE(tt::file_exists(path)) << tt::missing_fixture_message(path);
    auto tok = load(path);
    ASSERT_TRUE(tok);
    EXPECT_TRUE(names.insert(ExactPromptBuilder::count_cache_file_name(corpus(), *tok)).second) << family;
  }
}

TEST(CountCache, TokenizerWithoutFingerprintIsNotCached) {
  Chars3 tok;
  EXPECT_EQ(tok.fingerprint(), "");
  EXPECT_EQ(ExactPromptBuilder::count_cache_file_name(corpus(), tok), "");
  TempDir dir;
  auto b = ExactPromptBuilder::create(corpus(), tok, in_dir(dir.path()));
  ASSERT_TRUE(b) << b.error().message;
  EXPECT_EQ(b->count_source(), Source::kCounted);
  EXPECT_TRUE(cache_files(dir.path()).empty());
}

// The calibration check runs on a hit: an entry whose counts do not fit the tokenizer (here a
// tokenizer that falsely shares the builtin's fingerprint) is recounted, and prompts stay exact.
TEST(CountCache, CalibrationRefutesAnEntryFromAnotherTokenizer) {
  auto builtin = load("builtin");
  ASSERT_TRUE(builtin);
  TempDir dir;
  ASSERT_TRUE(ExactPromptBuilder::create(corpus(), *builtin, in_dir(dir.path())));
  Chars3 chars3;
  Fingerprinted impostor(chars3, builtin->fingerprint());
  ASSERT_EQ(ExactPromptBuilder::count_cache_file_name(corpus(), impostor),
            ExactPromptBuilder::count_cache_file_name(corpus(), *builtin));
  auto b = ExactPromptBuilder::create(corpus(), impostor, in_dir(dir.path()));
  ASSERT_TRUE(b) << b.error().message;
  EXPECT_EQ(b->count_source(), Source::kCounted);
  EXPECT_TRUE(b->verifying_all());
  core::Rng rng(3);
  for (int i = 0; i < 10; ++i) {
    auto p = b->build(40 + i, rng);
    EXPECT_EQ(static_cast<int64_t>(chars3.count(p.text)), p.tokens);
  }
}

TEST(CountCache, DefaultFolderFollowsTheEnvironment) {
  struct Saved {
    const char* name;
    std::optional<std::string> value;
  };
  std::vector<Saved> saved;
  for (const char* n : {"SERVEBENCH_CACHE_DIR", "XDG_CACHE_HOME", "HOME"}) {
    const char* v = std::getenv(n);
    saved.push_back({n, v ? std::optional<std::string>(v) : std::nullopt});
  }
  ::setenv("HOME", "/home/u", 1);
  ::unsetenv("XDG_CACHE_HOME");
  ::unsetenv("SERVEBENCH_CACHE_DIR");
  core::reload_env_for_test();
  EXPECT_EQ(ExactPromptBuilder::default_count_cache_dir(), "/home/u/.cache/servebench/corpus-counts");
  ::setenv("XDG_CACHE_HOME", "/xdg", 1);
  core::reload_env_for_test();
  EXPECT_EQ(ExactPromptBuilder::default_count_cache_dir(), "/xdg/servebench/corpus-counts");
  ::setenv("XDG_CACHE_HOME", "relative", 1);  // not absolute: ignored, as the XDG spec says
  core::reload_env_for_test();
  EXPECT_EQ(ExactPromptBuilder::default_count_cache_dir(), "/home/u/.cache/servebench/corpus-counts");
  ::setenv("SERVEBENCH_CACHE_DIR", "/sb", 1);
  core::reload_env_for_test();
  EXPECT_EQ(ExactPromptBuilder::default_count_cache_dir(), "/sb/corpus-counts");
  ::setenv("SERVEBENCH_CACHE_DIR", "", 1);
  core::reload_env_for_test();
  EXPECT_EQ(ExactPromptBuilder::default_count_cache_dir(), "") << "empty: caching off";
  for (const auto& s : saved) {
    if (s.value)
      ::setenv(s.name, s.value->c_str(), 1);
    else
      ::unsetenv(s.name);
  }
  core::reload_env_for_test();
}

// ---- the table embedded at build time (vendored corpus, builtin tokenizer) --------------------

ExactPromptOptions embedded_only() {
  ExactPromptOptions o;
  o.use_count_cache = false;
  return o;
}

TEST(EmbeddedCounts, BuiltinWithTheVendoredCorpusCountsNothingAndWritesNoCache) {
  auto tok = load("builtin");
  ASSERT_TRUE(tok);
  auto reference = ExactPromptBuilder::create(corpus(), *tok, no_cache());
  ASSERT_TRUE(reference) << reference.error().message;
  ASSERT_EQ(reference->count_source(), Source::kCounted);
  TempDir dir;
  ExactPromptOptions with_cache;
  with_cache.count_cache_dir = dir.path();
  for (const ExactPromptOptions& o : {embedded_only(), with_cache}) {
    auto b = ExactPromptBuilder::create(corpus(), *tok, o);
    ASSERT_TRUE(b) << b.error().message;
    EXPECT_EQ(b->count_source(), Source::kEmbedded);
    EXPECT_FALSE(b->verifying_all());
    EXPECT_EQ(b->piece_count(), reference->piece_count());
    EXPECT_EQ(sample_prompts(*b), sample_prompts(*reference));
    core::Rng rng = core::Rng::stream(8, "embedded");
    for (int64_t target : {1, 5, 64, 550, 3000}) {
      auto p = b->build(target, rng);
      EXPECT_EQ(static_cast<int64_t>(tok->count(p.text)), target);
    }
  }
  EXPECT_TRUE(cache_files(dir.path()).empty()) << "no cache entry for the embedded case";
}

// The embedded bytes are what this code makes now (the build regenerates them; not stale).
TEST(EmbeddedCounts, TableIsWhatThisCodeMakes) {
  auto tok = load("builtin");
  ASSERT_TRUE(tok);
  ASSERT_FALSE(embedded_count_table().empty());
  auto made = ExactPromptBuilder::make_embedded_count_table(corpus(), *tok);
  ASSERT_TRUE(made) << made.error().message;
  EXPECT_TRUE(embedded_count_table() == *made);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(embedded_count_table().data()) % 8, 0u);
}

TEST(EmbeddedCounts, OtherCorpusOrTokenizerIsNotServedFromIt) {
  auto builtin = load("builtin");
  ASSERT_TRUE(builtin);
  // Same size, one byte changed (passes the size gate, not the key).
  std::string changed = corpus();
  changed[changed.size() / 2] = changed[changed.size() / 2] == 'x' ? 'y' : 'x';
  auto same_size = ExactPromptBuilder::create(changed, *builtin, embedded_only());
  ASSERT_TRUE(same_size) << same_size.error().message;
  EXPECT_EQ(same_size->count_source(), Source::kCounted);
  auto shorter = ExactPromptBuilder::create(corpus().substr(0, 200000), *builtin, embedded_only());
  ASSERT_TRUE(shorter);
  EXPECT_EQ(shorter->count_source(), Source::kCounted);
  Fingerprinted other(*builtin, builtin->fingerprint() + "x");
  auto b = ExactPromptBuilder::create(corpus(), other, embedded_only());
  ASSERT_TRUE(b);
  EXPECT_EQ(b->count_source(), Source::kCounted);
  Chars3 unprinted;
  auto c = ExactPromptBuilder::create(corpus(), unprinted, embedded_only());
  ASSERT_TRUE(c);
  EXPECT_EQ(c->count_source(), Source::kCounted);
  const std::string qwen = tt::family_paths().at("qwen3");
  ASSERT_TRUE(tt::file_exists(qwen)) << tt::missing_fixture_message(qwen);
  auto q = load(qwen);
  ASSERT_TRUE(q);
  auto d = ExactPromptBuilder::create(corpus(), *q, embedded_only());
  ASSERT_TRUE(d);
  EXPECT_EQ(d->count_source(), Source::kCounted);
}

TEST(EmbeddedCounts, OffByOption) {
  auto tok = load("builtin");
  ASSERT_TRUE(tok);
  auto b = ExactPromptBuilder::create(corpus(), *tok, no_cache());
  ASSERT_TRUE(b);
  EXPECT_EQ(b->count_source(), Source::kCounted);
}

// Calibration runs on the embedded counts too: a tokenizer that falsely carries the builtin's
// fingerprint gets freshly counted, verified prompts, never the table's lengths.
TEST(EmbeddedCounts, CalibrationRefutesItForAnImpostor) {
  auto builtin = load("builtin");
  ASSERT_TRUE(builtin);
  Chars3 chars3;
  Fingerprinted impostor(chars3, builtin->fingerprint());
  auto b = ExactPromptBuilder::create(corpus(), impostor, embedded_only());
  ASSERT_TRUE(b) << b.error().message;
  EXPECT_EQ(b->count_source(), Source::kCounted);
  EXPECT_TRUE(b->verifying_all());
  core::Rng rng(4);
  for (int i = 0; i < 10; ++i) {
    auto p = b->build(30 + i, rng);
    EXPECT_EQ(static_cast<int64_t>(chars3.count(p.text)), p.tokens);
  }
}

// ---- tokenizer fingerprints (tokenizer.h, set by load_tokenizer) ------------------------------

TEST(TokenizerFingerprint, BuiltinIsStableAndNamesItsBlob) {
  auto a = load("builtin");
  auto b = load("o200k_base");
  ASSERT_TRUE(a && b);
  EXPECT_NE(a->fingerprint(), "");
  EXPECT_EQ(a->fingerprint(), b->fingerprint());
  EXPECT_NE(a->fingerprint().find("o200k_base"), std::string::npos);
  auto fallback = tokenizer::resolve_default_tokenizer("", tokenizer::LoadOptions{}, nullptr);
  EXPECT_EQ(fallback->fingerprint(), a->fingerprint());
}

TEST(TokenizerFingerprint, FileFingerprintIsItsContent) {
  const std::string src = tt::source_dir() + "/tests/data/tokenizer/unigram-mobydick/tokenizer.json";
  ASSERT_TRUE(tt::file_exists(src)) << src;
  TempDir dir;
  const std::string bytes = read_bytes(src);
  write_bytes(dir.path() + "/a.json", bytes);
  fs::create_directory(dir.path() + "/folder");
  write_bytes(dir.path() + "/folder/tokenizer.json", bytes);
  auto a = load(dir.path() + "/a.json");
  auto folder = load(dir.path() + "/folder");
  auto original = load(src);
  ASSERT_TRUE(a && folder && original);
  EXPECT_NE(a->fingerprint(), "");
  EXPECT_EQ(a->fingerprint(), folder->fingerprint()) << "same bytes, other path";
  EXPECT_EQ(a->fingerprint(), original->fingerprint());
  EXPECT_EQ(a->name(), dir.path() + "/a.json") << "the wrapper keeps the name";
  EXPECT_EQ(a->count("Call me Ishmael."), original->count("Call me Ishmael."));
  EXPECT_NE(a->fingerprint(), load("builtin")->fingerprint());

  // Same JSON with one more byte of whitespace: other bytes, other fingerprint.
  write_bytes(dir.path() + "/b.json", bytes + "\n");
  auto b = load(dir.path() + "/b.json");
  ASSERT_TRUE(b);
  EXPECT_NE(b->fingerprint(), "");
  EXPECT_NE(b->fingerprint(), a->fingerprint());
}

// The fingerprint describes the bytes that were loaded: a file replaced after loading (before
// the first fingerprint() call) gives "" (not cacheable) rather than the new file's hash.
TEST(TokenizerFingerprint, FileChangedAfterLoadingHasNone) {
  const std::string src = tt::source_dir() + "/tests/data/tokenizer/unigram-mobydick/tokenizer.json";
  ASSERT_TRUE(tt::file_exists(src)) << src;
  TempDir dir;
  const std::string path = dir.path() + "/t.json";
  write_bytes(path, read_bytes(src));
  auto t = load(path);
  ASSERT_TRUE(t);
  write_bytes(path, read_bytes(src) + " ");
  EXPECT_EQ(t->fingerprint(), "");

  auto u = load(path);
  ASSERT_TRUE(u);
  const std::string fp = u->fingerprint();
  EXPECT_NE(fp, "");
  write_bytes(path, read_bytes(src));
  EXPECT_EQ(u->fingerprint(), fp) << "computed once, on first use";
}

}  // namespace
}  // namespace servebench::dataset
