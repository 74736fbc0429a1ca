#include "dataset/count_cache.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <vector>

#include "core/content_hash.h"
#include "core/log.h"

namespace servebench::dataset::count_cache {
namespace {

// The cache stores, for every word occurrence of the corpus (a whitespace-separated run of at
// most kMaxPieceBytes bytes, in order), its bare and space-prefixed token counts clipped to 255.
// Which words are usable pieces is derived from those counts by the same code on both paths;
// the filler is chosen on the cold path and its choice stored. So a hit builds exactly what a
// cold count builds.
//
// File layout (little-endian):
//   0  "SBCOUNTS"  8-byte magic
//   8  u32 format version (kCountCacheVersion)    12 u32 zero
//   16 u64 key hi   24 u64 key lo   32 u64 corpus bytes   40 u64 word count n
//   48 u64 index of the filler's word occurrence (choosing it takes a map over all words)
//   56 n × (u8 bare, u8 cont)
//   56 + 2n  u64 checksum of every byte before it
// Bump kCountCacheVersion whenever the layout, the word rule or the anchor changes.
constexpr uint32_t kCountCacheVersion = 1;
constexpr char kMagic[8] = {'S', 'B', 'C', 'O', 'U', 'N', 'T', 'S'};
constexpr size_t kTrailerBytes = 8;
constexpr size_t kMaxCacheEntries = 32;  // see prune_count_cache

// The running binary's identity: counts depend on the tokenizer *code* as well as its files, so
// a rebuilt or upgraded servebench starts a fresh cache entry. "" when /proc is unavailable.
const std::string& build_identity() {
  static const std::string id = [] {
    struct stat st;
    if (::stat("/proc/self/exe", &st) != 0) return std::string();
    return fmt::format("exe {}:{}:{}:{}.{:09d}", st.st_dev, st.st_ino, st.st_size,
                       st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
  }();
  return id;
}

using core::get_u32;
using core::get_u64;
using core::put_u32;
using core::put_u64;

}  // namespace

std::string CacheKey::file_name() const { return fmt::format("{:016x}{:016x}.counts", hi, lo); }

uint64_t table_corpus_bytes(std::string_view data) {
  return data.size() < kHeaderBytes ? 0 : get_u64(data.data() + 32);
}

std::string default_dir(const core::EnvSnapshot& env) {
  using core::EnvVar;
  if (const auto& d = env.get(EnvVar::kServebenchCacheDir))
    return d->empty() ? "" : *d + "/corpus-counts";
  if (const auto& x = env.get(EnvVar::kXdgCacheHome); x && x->starts_with('/'))
    return *x + "/servebench/corpus-counts";
  if (const auto& h = env.get(EnvVar::kHome); h && !h->empty())
    return *h + "/.cache/servebench/corpus-counts";
  return "";
}

std::optional<CacheKey> cache_key(std::string_view corpus, const tokenizer::Tokenizer& tok) {
  const std::string fp = tok.fingerprint();
  if (fp.empty() || build_identity().empty()) return std::nullopt;
  core::ContentHash h;
  h.field("servebench corpus piece counts")
      .update_u64(kCountCacheVersion)
      .update_u64(kMaxPieceBytes);
  h.field(kAnchor).field(build_identity()).field(fp).field(corpus);
  auto [hi, lo] = h.finish();
  return CacheKey{hi, lo};
}

// Key of the table embedded at build time: like cache_key but without the binary's identity (the
// table is made by the binary's own code at build time, and calibration checks it at use).
CacheKey embedded_key(std::string_view corpus, std::string_view fingerprint) {
  core::ContentHash h;
  h.field("servebench embedded corpus piece counts")
      .update_u64(kCountCacheVersion)
      .update_u64(kMaxPieceBytes);
  h.field(kAnchor).field(fingerprint).field(corpus);
  auto [hi, lo] = h.finish();
  return CacheKey{hi, lo};
}

// Validates a count table in the cache file's layout (a cache file or the embedded table); the
// error says why it was not used (for the debug log).
Result<CountTable> parse_count_table(std::string_view data, const CacheKey& key,
                                     size_t corpus_bytes) {
  // At most one word per two corpus bytes (a byte and a space), plus one.
  const size_t size = data.size();
  if (size < kHeaderBytes + kTrailerBytes || size > kHeaderBytes + kTrailerBytes + corpus_bytes + 2)
    return make_error(ErrorCode::kParse, fmt::format("implausible size {} bytes", size));
  const char* p = data.data();
  if (std::memcmp(p, kMagic, 8) != 0) return make_error(ErrorCode::kParse, "bad magic");
  if (get_u32(p + 8) != kCountCacheVersion)
    return make_error(ErrorCode::kParse, "other format version");
  if (get_u64(p + 16) != key.hi || get_u64(p + 24) != key.lo)
    return make_error(ErrorCode::kParse, "key mismatch");
  if (get_u64(p + 32) != corpus_bytes) return make_error(ErrorCode::kParse, "corpus size mismatch");
  const uint64_t words = get_u64(p + 40);
  if (words > corpus_bytes || kHeaderBytes + 2 * words + kTrailerBytes != size)
    return make_error(ErrorCode::kParse, "word count does not match the file size");
  const size_t body = size - kTrailerBytes;
  if (core::ContentHash().update(std::string_view(p, body)).finish().first != get_u64(p + body))
    return make_error(ErrorCode::kParse, "checksum mismatch");
  return CountTable{std::string(data.substr(kHeaderBytes, 2 * words)), get_u64(p + 48)};
}

// Reads and validates a cache file.
Result<CountTable> read_count_cache(const std::string& path, const CacheKey& key,
                                    size_t corpus_bytes) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return make_error(ErrorCode::kNotFound, "no cache file");
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return make_error(ErrorCode::kIo, "not a regular file");
  }
  const auto size = static_cast<size_t>(st.st_size);
  if (size < kHeaderBytes + kTrailerBytes ||
      size > kHeaderBytes + kTrailerBytes + corpus_bytes + 2) {
    ::close(fd);
    return make_error(ErrorCode::kParse, fmt::format("implausible size {} bytes", size));
  }
  std::string data(size, '\0');
  size_t got = 0;
  while (got < size) {
    const ssize_t n = ::read(fd, data.data() + got, size - got);
    if (n <= 0) break;
    got += static_cast<size_t>(n);
  }
  ::close(fd);
  if (got != size) return make_error(ErrorCode::kIo, "short read");
  return parse_count_table(data, key, corpus_bytes);
}

// The cache file's bytes for `table`.
std::string encode_count_table(const CacheKey& key, size_t corpus_bytes, const CountTable& table) {
  std::string data(kMagic, 8);
  put_u32(&data, kCountCacheVersion);
  put_u32(&data, 0);
  put_u64(&data, key.hi);
  put_u64(&data, key.lo);
  put_u64(&data, corpus_bytes);
  put_u64(&data, table.counts.size() / 2);
  put_u64(&data, table.filler_word);
  data += table.counts;
  put_u64(&data, core::ContentHash().update(data).finish().first);
  return data;
}

// Writes the cache file under a temporary name, then renames it into place (readers never see
// a partial file; concurrent writers of the same key write identical bytes).
Status write_count_cache(const std::string& dir, const std::string& path, const CacheKey& key,
                         size_t corpus_bytes, const CountTable& table) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return make_error(ErrorCode::kIo, "cannot create " + dir + ": " + ec.message());
  const std::string data = encode_count_table(key, corpus_bytes, table);
  static std::atomic<uint64_t> serial{0};
  const std::string tmp = fmt::format("{}.tmp.{}.{}", path, ::getpid(), serial.fetch_add(1));
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0)
    return make_error(ErrorCode::kIo,
                      fmt::format("cannot create {}: {}", tmp, std::strerror(errno)));
  size_t put = 0;
  while (put < data.size()) {
    const ssize_t n = ::write(fd, data.data() + put, data.size() - put);
    if (n <= 0) break;
    put += static_cast<size_t>(n);
  }
  const bool closed = ::close(fd) == 0;
  if (put != data.size() || !closed || ::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    ::unlink(tmp.c_str());
    return make_error(ErrorCode::kIo, fmt::format("cannot write {}: {}", path, why));
  }
  return core::ok_status();
}

// Keeps the cache folder bounded: every servebench build and tokenizer adds an entry, so after a
// write the oldest entries beyond kMaxCacheEntries (by mtime; hits refresh it) are removed, and
// temporaries left behind by crashed writers once they are an hour old.

void prune_count_cache(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::vector<std::pair<fs::file_time_type, fs::path>> entries;
  const auto now = fs::file_time_type::clock::now();
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::path& p = it->path();
    const std::string name = p.filename().string();
    std::error_code tec;
    const auto mtime = fs::last_write_time(p, tec);
    if (tec) continue;
    if (name.find(".counts.tmp.") != std::string::npos) {
      if (now - mtime > std::chrono::hours(1)) fs::remove(p, tec);
    } else if (p.extension() == ".counts") {
      entries.emplace_back(mtime, p);
    }
  }
  if (entries.size() <= kMaxCacheEntries) return;
  std::sort(entries.begin(), entries.end());
  for (size_t i = 0; i + kMaxCacheEntries < entries.size(); ++i) {
    std::error_code rec;
    fs::remove(entries[i].second, rec);
    SB_LOG_DEBUG("piece counts: pruned old cache entry {}", entries[i].second.string());
  }
}

}  // namespace servebench::dataset::count_cache
