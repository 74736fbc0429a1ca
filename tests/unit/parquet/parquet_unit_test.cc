// Unit tests of the Parquet reader's pieces: Thrift compact protocol, RLE/bit-packed hybrid,
// the named errors for unsupported features, and corrupt input (never a crash).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "parquet/codecs.h"
#include "parquet/encodings.h"
#include "parquet/reader.h"
#include "parquet/thrift_compact.h"

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

TEST(ThriftCompact, ReadsFieldsWithDeltaAndLongIds) {
  // struct { 1: i32 = -3 (zigzag 5), 3: binary "ab", 20 (long form): true, stop }
  const std::string b = {0x15, 0x05, 0x28, 0x02, 'a', 'b', 0x01, 0x28, 0x00};
  CompactReader r(b);
  int32_t i = 0;
  std::string s;
  bool flag = false;
  std::vector<int16_t> ids;
  r.read_struct([&](int16_t id, ThriftType t) {
    ids.push_back(id);
    if (id == 1) i = r.read_i32();
    else if (id == 3) s = std::string(r.read_binary());
    else if (id == 20) flag = t == ThriftType::kBoolTrue;
    else r.skip(t);
  });
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(ids, (std::vector<int16_t>{1, 3, 20}));
  EXPECT_EQ(i, -3);
  EXPECT_EQ(s, "ab");
  EXPECT_TRUE(flag);
}

TEST(ThriftCompact, TruncatedInputFailsInsteadOfReadingPastTheEnd) {
  const std::string b = {0x18, 0x10, 'a'};  // binary of 8 bytes, 1 present
  CompactReader r(b);
  r.read_struct([&](int16_t, ThriftType t) { r.skip(t); });
  EXPECT_FALSE(r.ok());
}

TEST(ThriftCompact, DeepNestingIsRefused) {
  std::string b(200, '\x1c');  // field 1: struct, nested 200 times
  CompactReader r(b);
  r.read_struct([&](int16_t, ThriftType t) { r.skip(t); });
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.error().find("nesting"), std::string::npos) << r.error();
}

TEST(ThriftCompact, HugeListCountIsRefused) {
  const std::string b = {0x19, static_cast<char>(0xf5), static_cast<char>(0xff),
                         static_cast<char>(0xff), 0x0f, 0x00};
  CompactReader r(b);
  r.read_struct([&](int16_t, ThriftType t) { r.skip(t); });
  EXPECT_FALSE(r.ok());
}

TEST(RleHybrid, DecodesRleAndBitPackedRuns) {
  // RLE run: 3 x value 5 (width 3); bit-packed: 1 group of 8 values 0..7 (width 3).
  const std::string b = {0x06, 0x05, 0x03, static_cast<char>(0x88), static_cast<char>(0xc6),
                         static_cast<char>(0xfa)};
  std::vector<uint32_t> out;
  ASSERT_TRUE(decode_rle_hybrid(b, 3, 11, &out).has_value());
  EXPECT_EQ(out, (std::vector<uint32_t>{5, 5, 5, 0, 1, 2, 3, 4, 5, 6, 7}));
}

TEST(RleHybrid, TruncatedRunFails) {
  std::vector<uint32_t> out;
  EXPECT_FALSE(decode_rle_hybrid(std::string("\x06", 1), 3, 3, &out).has_value());
  EXPECT_FALSE(decode_rle_hybrid(std::string(), 1, 1, &out).has_value());
}

TEST(Codecs, UnsupportedCodecIsNamed) {
  std::string out;
  auto st = decompress(4, "x", 1, &out);
  ASSERT_FALSE(st.has_value());
  EXPECT_NE(st.error().message.find("BROTLI"), std::string::npos);
  EXPECT_EQ(st.error().code, ErrorCode::kUnsupported);
}

struct Refusal {
  const char* file;
  const char* column;
  const char* words;
};

TEST(ParquetErrors, UnsupportedColumnsAreNamedWithTheirFeature) {
  for (const Refusal& c : {Refusal{"struct.parquet", "meta", "struct"},
                           Refusal{"list_of_list.parquet", "hash_ids", "nested LIST"},
                           Refusal{"map.parquet", "m", "MAP"},
                           Refusal{"brotli.parquet", "ok", "BROTLI"},
                           Refusal{"lz4.parquet", "ok", "LZ4"},
                           Refusal{"parquetjs_brotli.parquet", "ok", "BROTLI"}}) {
    SCOPED_TRACE(c.file);
    auto pf = ParquetFile::open(read_bytes(data_dir() / "unsupported" / c.file), c.file);
    ASSERT_TRUE(pf.has_value()) << pf.error().message;
    auto col = pf->read_column(c.column);
    ASSERT_FALSE(col.has_value());
    const std::string& m = col.error().message;
    EXPECT_NE(m.find(std::string("column '") + c.column + "'"), std::string::npos) << m;
    EXPECT_NE(m.find(c.words), std::string::npos) << m;
    EXPECT_TRUE(col.error().is_usage());
  }
}

TEST(ParquetErrors, OtherColumnsOfAFileWithAnUnsupportedOneStillRead) {
  auto pf = ParquetFile::open(read_bytes(data_dir() / "unsupported/list_of_list.parquet"), "f");
  ASSERT_TRUE(pf.has_value());
  auto col = pf->read_column("ok");
  ASSERT_TRUE(col.has_value()) << col.error().message;
  EXPECT_EQ(col->values.ints, (std::vector<int64_t>{1, 2}));
}

TEST(ParquetErrors, MissingColumnAndNonParquetInput) {
  auto pf = ParquetFile::open(read_bytes(data_dir() / "unsupported/struct.parquet"), "f");
  ASSERT_TRUE(pf.has_value());
  EXPECT_FALSE(pf->read_column("nope").has_value());
  auto bad = ParquetFile::open("{\"not\": \"parquet\"}", "x.parquet");
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.error().message.find("x.parquet"), std::string::npos);
}

// Every truncation and a sweep of single-byte corruptions of real files: an error or a value,
// never a crash or a read out of bounds (the sanitizer builds check the latter).
TEST(ParquetErrors, TruncatedAndCorruptedFilesNeverCrash) {
  for (const char* name : {"pyarrow/snappy_v1_dict.parquet", "pyarrow/delta_none_v2.parquet",
                           "pyarrow/gzip_v2_small_pages.parquet"}) {
    const std::string bytes = read_bytes(data_dir() / name);
    ASSERT_FALSE(bytes.empty());
    int opened = 0, failed = 0;
    auto exercise = [&](std::string b) {
      auto pf = ParquetFile::open(std::move(b), "f", ReadLimits{1u << 20, 1u << 20});
      if (!pf) {
        ++failed;
        return;
      }
      ++opened;
      for (const auto& c : pf->columns()) (void)pf->read_column(c.name);
    };
    for (size_t n = 0; n < bytes.size(); n += 97) exercise(bytes.substr(0, n));
    for (size_t i = 0; i < bytes.size(); i += 13) {
      std::string b = bytes;
      b[i] = static_cast<char>(b[i] ^ 0x5a);
      exercise(std::move(b));
    }
    EXPECT_GT(failed, 0);
    EXPECT_GT(opened, 0);
  }
}

}  // namespace
}  // namespace servebench::parquet
