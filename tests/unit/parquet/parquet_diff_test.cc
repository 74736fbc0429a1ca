// Differential tests: files written by independent writers (pyarrow, an npm writer), decoded
// by servebench and compared value for value with the writer's own read of them.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "unit/parquet/column_json.h"

namespace servebench::parquet {
namespace {

namespace fs = std::filesystem;

std::string read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

fs::path data_dir() {
  const char* src = std::getenv("SERVEBENCH_SOURCE_DIR");
  return fs::path(src ? src : ".") / "tests/data/parquet";
}

std::vector<fs::path> parquet_files(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".parquet") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// Decodes every column of `file` and compares it with `expected` (column -> row values).
void expect_matches(const fs::path& file, const nlohmann::json& expected) {
  SCOPED_TRACE(file.filename().string());
  auto pf = ParquetFile::open(read_bytes(file), file.filename().string());
  ASSERT_TRUE(pf.has_value()) << pf.error().message;
  ASSERT_EQ(pf->columns().size(), expected.size());
  for (const auto& [name, rows] : expected.items()) {
    auto col = pf->read_column(name);
    ASSERT_TRUE(col.has_value()) << col.error().message;
    EXPECT_EQ(testing::column_json(*col), rows) << "column " << name;
  }
}

std::string pyarrow_python() {
  if (const char* p = std::getenv("SERVEBENCH_PYARROW_PYTHON")) return p;
  const char* cache = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  std::string base = cache ? std::string(cache) : std::string(home ? home : "") + "/.cache";
  return base + "/servebench/pyarrow-venv/bin/python";
}

TEST(ParquetDiff, PyarrowFixturesDecodeAsPyarrowReadsThem) {
  const fs::path dir = data_dir() / "pyarrow";
  const auto expected = nlohmann::json::parse(read_bytes(dir / "expected.json"));
  const auto files = parquet_files(dir);
  ASSERT_GE(files.size(), 20u);
  for (const auto& f : files) expect_matches(f, expected);
}

TEST(ParquetDiff, NpmWriterFixturesDecodeAsTheWriterReadsThem) {
  const fs::path dir = data_dir() / "npm";
  const auto files = parquet_files(dir);
  ASSERT_GE(files.size(), 3u);
  for (const auto& f : files) {
    fs::path want = f;
    want.replace_extension(".json");
    expect_matches(f, nlohmann::json::parse(read_bytes(want)));
  }
}

// Regenerates the pyarrow files with the pinned pyarrow and decodes the fresh ones: proves the
// committed fixtures are what that writer produces, and catches a writer upgrade's new output.
TEST(ParquetDiff, FreshPyarrowFilesDecodeAsPyarrowReadsThem) {
  const std::string python = pyarrow_python();
  if (!fs::exists(python)) {
    if (std::getenv("SERVEBENCH_REQUIRE_ORACLES")) FAIL() << "pyarrow venv missing: " << python;
    GTEST_SKIP() << "pyarrow venv not found at " << python
                 << " (run scripts/parquet/setup_pyarrow.sh)";
  }
  const char* src = std::getenv("SERVEBENCH_SOURCE_DIR");
  ASSERT_NE(src, nullptr);
  const fs::path tmp = fs::temp_directory_path() / ("sb_parquet_" + std::to_string(::getpid()));
  fs::create_directories(tmp);
  const std::string cmd = python + " " + src + "/scripts/parquet/make_fixtures.py write " +
                          tmp.string();
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  const auto expected = nlohmann::json::parse(read_bytes(tmp / "expected.json"));
  const auto committed = nlohmann::json::parse(read_bytes(data_dir() / "pyarrow/expected.json"));
  EXPECT_EQ(expected, committed);
  const auto files = parquet_files(tmp);
  EXPECT_EQ(files.size(), parquet_files(data_dir() / "pyarrow").size());
  for (const auto& f : files) expect_matches(f, expected);
  std::error_code ec;
  fs::remove_all(tmp, ec);
}

// A third reader: pyarrow's view of the npm writer's files equals servebench's.
TEST(ParquetDiff, PyarrowReadsTheNpmFilesAsServebenchDoes) {
  const std::string python = pyarrow_python();
  if (!fs::exists(python)) {
    if (std::getenv("SERVEBENCH_REQUIRE_ORACLES")) FAIL() << "pyarrow venv missing: " << python;
    GTEST_SKIP() << "pyarrow venv not found at " << python
                 << " (run scripts/parquet/setup_pyarrow.sh)";
  }
  const char* src = std::getenv("SERVEBENCH_SOURCE_DIR");
  ASSERT_NE(src, nullptr);
  const auto files = parquet_files(data_dir() / "npm");
  ASSERT_FALSE(files.empty());
  for (const auto& f : files) {
    const std::string cmd = python + " " + src + "/scripts/parquet/make_fixtures.py dump " +
                            f.string();
    std::string out;
    if (FILE* p = ::popen(cmd.c_str(), "r")) {
      char buf[4096];
      size_t n;
      while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
      ASSERT_EQ(::pclose(p), 0) << cmd;
    }
    expect_matches(f, nlohmann::json::parse(out));
  }
}

}  // namespace
}  // namespace servebench::parquet
