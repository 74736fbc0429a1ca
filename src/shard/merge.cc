#include "shard/merge.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "export/report.h"
#include "export/summary_json.h"

namespace servebench::shard {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

Error refuse(std::string message) { return Error{ErrorCode::kInvalidArgument, std::move(message)}; }

// Why two manifests are not shards of one plan ("" when they are).
std::string plan_difference(const ShardManifest& a, const ShardManifest& b) {
  if (a.version != b.version) return fmt::format("servebench versions differ ({} vs {})", a.version, b.version);
  if (a.random_seed != b.random_seed)
    return fmt::format("random seeds differ ({} vs {})", a.random_seed, b.random_seed);
  if (a.count != b.count) return fmt::format("shard counts differ ({} vs {})", a.count, b.count);
  if (a.plan_fingerprint != b.plan_fingerprint) return "their flags differ (input_config)";
  return "";
}

Result<json> load_json(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error(ErrorCode::kNotFound, fmt::format("cannot read {}", path.string()));
  std::stringstream ss;
  ss << in.rdbuf();
  json j = json::parse(ss.str(), nullptr, false);
  if (j.is_discarded() || !j.is_object())
    return make_error(ErrorCode::kParse, fmt::format("{} is not a JSON object", path.string()));
  return j;
}

// Appends `from` to `out`; the line count in *lines. A last line without '\n' gets one.
Status append_file(const fs::path& from, std::ofstream& out, int64_t* lines) {
  std::ifstream in(from, std::ios::binary);
  if (!in) return make_error(ErrorCode::kNotFound, fmt::format("cannot read {}", from.string()));
  std::vector<char> buf(1 << 20);
  char last = '\n';
  while (in) {
    in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    const auto n = static_cast<size_t>(in.gcount());
    if (n == 0) break;
    *lines += std::count(buf.data(), buf.data() + n, '\n');
    out.write(buf.data(), static_cast<std::streamsize>(n));
    last = buf[n - 1];
  }
  if (last != '\n') {
    out.put('\n');
    ++*lines;
  }
  return {};
}

// Shard 0's summary JSON with the run's span and warnings over all shards: the metadata the
// report path reads (export/report.h).
Result<json> merged_metadata(const MergeOptions& o, const exporter::ArtifactNames& names) {
  json base;
  int64_t start = 0, end = 0;
  bool cancelled = false;
  std::vector<std::string> warnings;
  for (size_t i = 0; i < o.shard_dirs.size(); ++i) {
    auto doc = load_json(fs::path(o.shard_dirs[i]) / names.json);
    if (!doc) return tl::unexpected(doc.error());
    const int64_t s = exporter::parse_wall_time(doc->value("start_time", ""));
    const int64_t e = exporter::parse_wall_time(doc->value("end_time", ""));
    if (s > 0 && (start == 0 || s < start)) start = s;
    end = std::max(end, e);
    cancelled |= doc->value("was_cancelled", false);
    if (auto ours = doc->find("servebench"); ours != doc->end() && ours->contains("warnings"))
      for (const auto& w : (*ours)["warnings"])
        if (w.is_string() && std::find(warnings.begin(), warnings.end(), w) == warnings.end())
          warnings.push_back(w.get<std::string>());
    if (i == 0) base = std::move(*doc);
  }
  if (start > 0) base["start_time"] = exporter::format_wall_time(start);
  if (end > 0) base["end_time"] = exporter::format_wall_time(end);
  base["was_cancelled"] = cancelled;
  base["servebench"]["warnings"] = warnings;
  return base;
}

Status write_text(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out) return make_error(ErrorCode::kIo, fmt::format("cannot write {}", path.string()));
  return {};
}

std::string shards_json(const MergeOutcome& m) {
  json j;
  j["shard_count"] = m.shards.size();
  j["start_spread_ns"] = m.start_spread_ns;
  j["records"] = m.records;
  j["shards"] = json::array();
  for (const auto& s : m.shards) j["shards"].push_back(json::parse(to_json_text(s)));
  return j.dump(2) + "\n";
}

}  // namespace

Result<std::vector<ShardManifest>> check_shards(const std::vector<std::string>& dirs) {
  if (dirs.empty()) return tl::unexpected(refuse("no shard folders given; pass DIR... -o OUT"));
  std::vector<ShardManifest> shards;
  std::vector<std::string> owner;
  for (const auto& d : dirs) {
    auto m = read_manifest(d);
    if (!m) return tl::unexpected(refuse(m.error().message));
    if (!shards.empty()) {
      if (auto why = plan_difference(shards.front(), *m); !why.empty())
        return tl::unexpected(refuse(fmt::format(
            "{} and {} are shards of different plans: {}; run every shard with the same flags, "
            "--random-seed and servebench build",
            dirs.front(), d, why)));
    }
    shards.push_back(*m);
    owner.push_back(d);
  }
  std::vector<int> seen(static_cast<size_t>(shards.front().count), -1);
  for (size_t i = 0; i < shards.size(); ++i) {
    int& slot = seen[static_cast<size_t>(shards[i].index)];
    if (slot >= 0)
      return tl::unexpected(refuse(fmt::format("{} and {} are both shard {}/{}; pass each shard's "
                                               "folder once",
                                               owner[static_cast<size_t>(slot)], owner[i],
                                               shards[i].index, shards[i].count)));
    slot = static_cast<int>(i);
  }
  for (size_t k = 0; k < seen.size(); ++k)
    if (seen[k] < 0)
      return tl::unexpected(refuse(fmt::format("shard {}/{} is missing; pass the folders of all {} "
                                               "shards",
                                               k, seen.size(), seen.size())));
  std::vector<ShardManifest> ordered(shards.size());
  for (size_t k = 0; k < seen.size(); ++k) ordered[k] = shards[static_cast<size_t>(seen[k])];
  return ordered;
}

Result<MergeOutcome> merge_shards(const MergeOptions& options) {
  auto checked = check_shards(options.shard_dirs);
  if (!checked) return tl::unexpected(checked.error());
  MergeOptions o = options;
  // Shard order, so the merged file lists shard 0's records first.
  std::sort(o.shard_dirs.begin(), o.shard_dirs.end(), [](const std::string& a, const std::string& b) {
    auto ma = read_manifest(a), mb = read_manifest(b);
    return ma && mb && ma->index < mb->index;
  });
  for (const auto& d : o.shard_dirs)
    if (fs::weakly_canonical(d) == fs::weakly_canonical(o.output_dir))
      return tl::unexpected(refuse(fmt::format("-o {} is one of the shard folders; merge into a new folder", o.output_dir)));
  MergeOutcome out;
  out.shards = std::move(*checked);
  const exporter::ArtifactNames names = exporter::artifact_names(o.profile_export_prefix);
  std::error_code ec;
  fs::create_directories(o.output_dir, ec);
  if (ec) return make_error(ErrorCode::kIo, fmt::format("cannot create {}: {}", o.output_dir, ec.message()));
  const fs::path dir(o.output_dir);

  auto meta = merged_metadata(o, names);
  if (!meta) return tl::unexpected(meta.error());
  if (auto st = write_text(dir / names.json, meta->dump(2)); !st) return tl::unexpected(st.error());
  for (const std::string* file : {&names.jsonl, &names.raw_jsonl}) {
    const bool all = std::all_of(o.shard_dirs.begin(), o.shard_dirs.end(),
                                 [&](const std::string& d) { return fs::exists(fs::path(d) / *file); });
    if (!all) continue;
    std::ofstream merged(dir / *file, std::ios::binary | std::ios::trunc);
    int64_t lines = 0;
    for (const auto& d : o.shard_dirs)
      if (auto st = append_file(fs::path(d) / *file, merged, &lines); !st) return tl::unexpected(st.error());
    merged.close();
    if (!merged) return make_error(ErrorCode::kIo, fmt::format("cannot write {}", (dir / *file).string()));
    if (file == &names.jsonl) out.records = lines;
  }
  if (!fs::exists(dir / names.jsonl))
    return tl::unexpected(refuse(fmt::format("{} has no {}; shards must keep their records (not "
                                             "--export-level summary)",
                                             o.shard_dirs.front(), names.jsonl)));
  fs::copy_file(fs::path(o.shard_dirs.front()) / names.inputs, dir / names.inputs,
                fs::copy_options::overwrite_existing, ec);  // optional file
  int64_t first = 0, last = 0;
  for (const auto& s : out.shards) {
    if (s.load_start_wall_ns == 0) continue;
    first = first == 0 ? s.load_start_wall_ns : std::min(first, s.load_start_wall_ns);
    last = std::max(last, s.load_start_wall_ns);
  }
  out.start_spread_ns = last - first;
  if (auto st = write_text(dir / "shards.json", shards_json(out)); !st) return tl::unexpected(st.error());

  exporter::ReportOptions ro;
  ro.artifact_dir = o.output_dir;
  ro.profile_export_prefix = o.profile_export_prefix;
  ro.print_console = o.print_console;
  auto exported = exporter::report_from_artifacts(ro);
  if (!exported) return tl::unexpected(exported.error());
  out.exported = std::move(*exported);
  return out;
}

std::string health_table(const MergeOutcome& m) {
  std::string t = fmt::format("{:>5} {:<20} {:>9} {:>7} {:>11} {:>11} {:>7} {:>9} {:>13} {:>14}\n",
                              "shard", "host", "requests", "errors", "lag p50 ms", "lag p99 ms",
                              "late %", "CPU s", "start skew ms", "clock off ms");
  for (const auto& s : m.shards) {
    const ShardHealth& h = s.health;
    t += fmt::format("{:>5} {:<20} {:>9} {:>7} {:>11.3f} {:>11.3f} {:>7.2f} {:>9.2f} {:>13} {:>14}{}\n",
                     fmt::format("{}/{}", s.index, s.count), s.hostname.substr(0, 20), h.requests,
                     h.errors, h.schedule_lag_p50_ms, h.schedule_lag_p99_ms,
                     h.late_send_fraction * 100, h.cpu_user_s + h.cpu_system_s,
                     s.start_at_wall_ns ? fmt::format("{:.3f}", s.start_skew_ns / 1e6) : "-",
                     s.clock_offset_ns ? fmt::format("{:.3f}", *s.clock_offset_ns / 1e6) : "-",
                     h.client_limited ? "  client-limited" : "");
  }
  t += fmt::format("profiling start spread over shards: {:.3f} ms\n", m.start_spread_ns / 1e6);
  return t;
}

}  // namespace servebench::shard
