// RecordStream and SliceAccumulator: records handed over in batches, from several slots, in any
// order, give the same JSONL lines and the same summaries (profiling, warm-up, time slices) as
// the summary of the whole record vector; nothing depends on the order of arrival.
#include "export/line_cursor.h"
#include "export/record_stream.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <fstream>
#include <random>
#include <set>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "export/csv_export.h"
#include "export/records_jsonl.h"
#include "export/summary_json.h"
#include "metrics/timeslices.h"
#include "record/pause_point.h"
#include "unit/metrics/record_fixtures.h"

namespace servebench::exporter {
namespace {

namespace fs = std::filesystem;
using record::RequestRecord;

std::vector<RequestRecord> many_records() {
  std::vector<RequestRecord> out = servebench::testing::golden_records();
  std::mt19937_64 rng(7);
  const int64_t base = 11'000'000'000;
  for (int i = 0; i < 200; ++i) {
    servebench::testing::StreamSpec s;
    s.start_ns = base + static_cast<int64_t>(rng() % 3'000'000'000);
    s.ttft_ns = 10'000'000 + static_cast<int64_t>(rng() % 50'000'000);
    for (int k = 0; k < 1 + static_cast<int>(rng() % 6); ++k) {
      s.gaps_ns.push_back(1'000'000 + static_cast<int64_t>(rng() % 9'000'000));
    }
    out.push_back(servebench::testing::make_stream_record(out.size(), s));
    if (i % 17 == 0) {
      out.push_back(servebench::testing::make_error_record(out.size(), s.start_ns + 5,
                                                           record::ErrorKind::kHttpStatus, 503,
                                                           "HTTP 503"));
    }
  }
  return out;
}

std::string slurp(const std::string& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

nlohmann::json summary_json(const metrics::Summary& s) {
  RunContext ctx;
  JsonInput in;
  in.context = &ctx;
  in.profiling = &s;
  return nlohmann::json::parse(render_summary_json(in));
}

// Equal documents, except that doubles may differ in their last bits: sums (avg, std, sum)
// depend on the order records are added in, and a stream's order is completion order. Counts,
// percentiles, min and max, strings and the shape must match exactly.
void expect_same(const nlohmann::json& a, const nlohmann::json& b, const std::string& where) {
  ASSERT_EQ(a.type(), b.type()) << where;
  if (a.is_object()) {
    ASSERT_EQ(a.size(), b.size()) << where;
    for (auto it = a.begin(); it != a.end(); ++it) {
      ASSERT_TRUE(b.contains(it.key())) << where << "." << it.key();
      expect_same(it.value(), b[it.key()], where + "." + it.key());
    }
  } else if (a.is_array()) {
    ASSERT_EQ(a.size(), b.size()) << where;
    for (size_t i = 0; i < a.size(); ++i) expect_same(a[i], b[i], where + "[" + std::to_string(i) + "]");
  } else if (a.is_number_float()) {
    const double x = a.get<double>(), y = b.get<double>();
    EXPECT_NEAR(x, y, std::abs(y) * 1e-12) << where;
  } else {
    EXPECT_EQ(a, b) << where;
  }
}

std::vector<const RequestRecord*> profiling_of(const std::vector<RequestRecord>& records) {
  std::vector<const RequestRecord*> out;
  for (const auto& r : records) {
    if (r.phase == record::Phase::kProfiling) out.push_back(&r);
  }
  return out;
}

TEST(RecordStream, BatchesFromSeveralSlotsGiveTheWholeRunsSummaryAndLines) {
  const auto records = many_records();
  RunContext ctx;
  ctx.anchor = {5, 1'700'000'000'000'000'000};
  ExportOptions o;
  o.artifact_dir = (fs::temp_directory_path() / ("sb_stream_test_" + std::to_string(::getpid()))).string();
  o.slice_duration_ns = 400'000'000;
  o.level = ExportLevel::kRaw;
  auto stream = RecordStream::open(ctx, o, 3);
  ASSERT_TRUE(stream) << stream.error().message;
  // Completion order is not request order: shuffle, then hand over in uneven batches.
  std::vector<RequestRecord> shuffled = records;
  std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937_64(3));
  size_t at = 0, slot = 0;
  while (at < shuffled.size()) {
    const size_t n = std::min<size_t>(shuffled.size() - at, 1 + (at * 7) % 23);
    std::vector<RequestRecord> batch(shuffled.begin() + at, shuffled.begin() + at + n);
    (*stream)->add_batch(batch, slot++ % 3);
    at += n;
  }
  auto run = std::optional<RunSummaries>((*stream)->finish());
  EXPECT_EQ(run->record_write_error, "");

  metrics::SummaryOptions so;
  so.anchor = ctx.anchor;
  const auto prof = profiling_of(records);
  expect_same(summary_json(run->profiling), summary_json(metrics::summarize(prof, so)), "profiling");
  ASSERT_TRUE(run->warmup.has_value());
  expect_same(summary_json(*run->warmup),
              summary_json(metrics::summarize_phase(records, record::Phase::kWarmup, so)), "warmup");
  const auto slices = metrics::summarize_slices(prof, o.slice_duration_ns, so);
  ASSERT_GT(slices.size(), 3u);
  expect_same(nlohmann::json::parse(render_timeslices_json(ctx, run->slices)),
              nlohmann::json::parse(render_timeslices_json(ctx, slices)), "slices");

  // Every record's line, once, in whatever order.
  std::multiset<std::string> want, got;
  for (const auto& r : records) {
    std::string line;
    append_record_line(r, ctx.anchor, &line);
    want.insert(line);
  }
  std::istringstream in(slurp(o.artifact_dir + "/profile_export.jsonl"));
  for (std::string line; std::getline(in, line);) got.insert(line + "\n");
  EXPECT_EQ(got, want);
  ASSERT_EQ(run->record_files.size(), 2u);
  EXPECT_EQ(run->record_files[1].first, "Raw Records Export");
  std::istringstream raw(slurp(o.artifact_dir + "/profile_export_raw.jsonl"));
  size_t raw_lines = 0;
  for (std::string line; std::getline(raw, line);) ++raw_lines;
  EXPECT_EQ(raw_lines, records.size());
  fs::remove_all(o.artifact_dir);
}

// Each record a batch processes is a pause point (record/pause_point.h): with a pacer whose
// interval passes at every tick, a batch yields once per record.
int64_t g_ticks = 0;
int64_t ticking_clock() { return g_ticks++; }
void no_yield() {}

TEST(RecordStream, EachRecordOfABatchIsAPausePoint) {
  RunContext ctx;
  ExportOptions o;
  o.artifact_dir = (fs::temp_directory_path() / ("sb_stream_pause_" + std::to_string(::getpid()))).string();
  auto stream = RecordStream::open(ctx, o, 1);
  ASSERT_TRUE(stream);
  const std::vector<RequestRecord> batch = many_records();
  record::PausePacer pacer(1, ticking_clock, no_yield);
  {
    record::ScopedPausePacer paced(&pacer);
    (*stream)->add_batch(batch, 0);
  }
  EXPECT_EQ(pacer.yields(), batch.size());
  (*stream)->finish();
  fs::remove_all(o.artifact_dir);
}

TEST(RecordStream, SummaryLevelOpensNoRecordFilesAndBadDirFails) {
  RunContext ctx;
  ExportOptions o;
  o.artifact_dir = (fs::temp_directory_path() / ("sb_stream_sum_" + std::to_string(::getpid()))).string();
  o.level = ExportLevel::kSummary;
  auto stream = RecordStream::open(ctx, o, 1);
  ASSERT_TRUE(stream);
  (*stream)->add_batch(servebench::testing::golden_records(), 0);
  auto run = std::optional<RunSummaries>((*stream)->finish());
  EXPECT_TRUE(run->record_files.empty());
  EXPECT_EQ(run->profiling.request_count, 6);
  EXPECT_FALSE(fs::exists(o.artifact_dir + "/profile_export.jsonl"));
  fs::remove_all(o.artifact_dir);
  o.artifact_dir = "/proc/self/no/such/dir";
  EXPECT_FALSE(RecordStream::open(ctx, o, 1));
  o.artifact_dir = "/tmp";
  o.goodput = "not_a_metric:1";
  auto bad = RecordStream::open(ctx, o, 1);
  ASSERT_FALSE(bad);
  EXPECT_TRUE(bad.error().is_usage());
}

TEST(JsonlWriter, AWriteFailureIsKeptAndReportedAtClose) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  auto w = JsonlWriter::open("/dev/full");
  ASSERT_TRUE(w);
  const std::string big(1 << 20, 'x');  // past any stdio buffer: the write itself fails
  (*w)->append(big);
  (*w)->append("{}\n");
  auto st = (*w)->close();
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message.find("/dev/full"), std::string::npos);
  EXPECT_FALSE(JsonlWriter::open("/proc/self/no/such/file.jsonl"));
}

// Appends of every size, across the O_DIRECT block boundaries, read back byte for byte: with
// O_DIRECT blocks where the filesystem takes them (the build tree) and ordinary writes where it
// does not (tmpfs), and with the tail written on every append or only at close.
TEST(JsonlWriter, EveryByteArrivesInOrderWithAndWithoutDirectIo) {
  std::vector<std::string> dirs{fs::current_path().string()};
  if (fs::exists("/dev/shm")) dirs.push_back("/dev/shm");
  for (const std::string& dir : dirs) {
    for (int64_t interval : {int64_t{0}, int64_t{3'600'000'000'000}}) {
      const std::string path = dir + "/jsonl_writer_test_" + std::to_string(::getpid()) + ".jsonl";
      auto w = JsonlWriter::open(path, {.direct_io = true, .tail_flush_interval_ns = interval});
      ASSERT_TRUE(w);
      std::string want;
      std::mt19937_64 rng(7);
      std::uniform_int_distribution<size_t> size(1, 300'000);
      while (want.size() < 2 * JsonlWriter::kBlockBytes + 12345) {
        std::string batch(size(rng), static_cast<char>('a' + want.size() % 26));
        batch.back() = '\n';
        (*w)->append(batch);
        want += batch;
      }
      if (interval == 0) {
        EXPECT_EQ(slurp(path), want) << dir;  // the tail is in the file already
      }
      EXPECT_EQ((*w)->bytes_written(), static_cast<int64_t>(want.size()));
      ASSERT_TRUE((*w)->close());
      EXPECT_EQ(slurp(path), want) << dir << " interval " << interval;
      fs::remove(path);
    }
  }
}

// Lines written straight into the block through a Direct (LineCursor), between ordinary appends:
// pieces from one byte to past the block's slack, across block boundaries, read back byte for
// byte; the tail reaches the file when the Direct ends, never in the middle of a batch.
TEST(JsonlWriter, DirectCursorBatchesArriveInOrder) {
  const std::string path = fs::current_path().string() + "/jsonl_writer_cursor_" +
                           std::to_string(::getpid()) + ".jsonl";
  auto w = JsonlWriter::open(path, {.direct_io = true, .tail_flush_interval_ns = 0});
  ASSERT_TRUE(w);
  std::string want;
  std::mt19937_64 rng(11);
  std::uniform_int_distribution<size_t> size(1, 3000);
  int direct_batches = 0;
  for (int batch = 0; want.size() < 2 * JsonlWriter::kBlockBytes + 777; ++batch) {
    if (batch % 5 == 4) {  // an ordinary append between direct batches
      const std::string line(size(rng), 'p');
      (*w)->append(line + "\n");
      want += line + "\n";
      continue;
    }
    JsonlWriter::Direct direct(w->get());
    if (!direct) GTEST_SKIP() << "the build tree's filesystem refuses O_DIRECT";
    ++direct_batches;
    const size_t before = slurp(path).size();
    {
      LineCursor c(&direct);
      for (int line = 0; line < 200; ++line) {
        // Now and then one piece larger than the slack (a grown block).
        const size_t n = line == 100 && batch % 7 == 0 ? 150'000 : size(rng);
        const std::string text(n, static_cast<char>('a' + (want.size() + n) % 26));
        c.raw(text);
        c.integer(line);
        c.put('\n');
        want += text + std::to_string(line) + "\n";
      }
    }
    // Only whole blocks may have been written so far (no tail in the middle of a batch).
    const size_t mid = slurp(path).size();
    EXPECT_TRUE(mid == before || mid % JsonlWriter::kBlockBytes == 0) << mid;
  }
  EXPECT_GE(direct_batches, 8);
  EXPECT_EQ((*w)->bytes_written(), static_cast<int64_t>(want.size()));
  EXPECT_EQ(slurp(path), want);  // the last batch's tail is in the file already
  ASSERT_TRUE((*w)->close());
  EXPECT_EQ(slurp(path), want);
  fs::remove(path);
  // Without O_DIRECT there is no Direct: callers append().
  auto plain = JsonlWriter::open(path, {.direct_io = false});
  ASSERT_TRUE(plain);
  EXPECT_FALSE(JsonlWriter::Direct(plain->get()));
  ASSERT_TRUE((*plain)->close());
  fs::remove(path);
}

// The build tree is on a disk filesystem (ext4 here), which takes O_DIRECT.
TEST(JsonlWriter, UsesDirectIoOnADiskFilesystem) {
  const std::string path = fs::current_path().string() + "/jsonl_writer_direct.jsonl";
  auto w = JsonlWriter::open(path);
  ASSERT_TRUE(w);
  const bool direct = (*w)->direct();
  (*w)->append("{}\n");
  ASSERT_TRUE((*w)->close());
  EXPECT_EQ(slurp(path), "{}\n");
  fs::remove(path);
  if (!direct) GTEST_SKIP() << "the build tree's filesystem refuses O_DIRECT";
  auto off = JsonlWriter::open(path, {.direct_io = false});
  ASSERT_TRUE(off);
  EXPECT_FALSE((*off)->direct());
  ASSERT_TRUE((*off)->close());
  fs::remove(path);
}

TEST(SliceAccumulator, OriginSetEarlyLateOrNeverGivesTheSameSlices) {
  const auto records = many_records();
  const auto prof = profiling_of(records);
  metrics::SummaryOptions so;
  const int64_t slice = 300'000'000;
  const std::string want = render_timeslices_csv(metrics::summarize_slices(prof, slice, so), {});
  int64_t earliest = INT64_MAX;
  for (const auto* r : prof) earliest = std::min(earliest, r->request_start_ns);
  for (int when : {0, 1, 2}) {  // before the first record, half-way, never
    SliceAccumulator acc(slice, so);
    for (size_t i = 0; i < prof.size(); ++i) {
      if ((when == 0 && i == 0) || (when == 1 && i == prof.size() / 2)) acc.set_origin(earliest);
      acc.add(*prof[i]);
    }
    if (when == 0) {
      EXPECT_EQ(acc.pending(), 0u);
    }
    if (when == 2) {
      EXPECT_EQ(acc.pending(), prof.size());
    }
    EXPECT_EQ(render_timeslices_csv(acc.finish(), {}), want) << when;
  }
}

TEST(SliceAccumulator, AnExplicitOriginKeysSlicesFromIt) {
  const auto records = servebench::testing::golden_records();
  metrics::SummaryOptions so;
  SliceAccumulator acc(100'000'000, so);
  // The phase started 250 ms before the first request: the first requests land in slice 2.
  int64_t earliest = INT64_MAX;
  for (const auto* r : profiling_of(records)) earliest = std::min(earliest, r->request_start_ns);
  acc.set_origin(earliest - 250'000'000);
  for (const auto* r : profiling_of(records)) acc.add(*r);
  const auto slices = acc.finish();
  ASSERT_GE(slices.size(), 3u);
  EXPECT_EQ(slices[0].summary.request_count, 0);
  EXPECT_EQ(slices[1].summary.request_count, 0);
  EXPECT_GT(slices[2].summary.request_count, 0);
  EXPECT_EQ(slices[0].start_ns, earliest - 250'000'000);
}

}  // namespace
}  // namespace servebench::exporter
