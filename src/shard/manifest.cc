#include "shard/manifest.h"

#include <sys/resource.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/content_hash.h"

namespace servebench::shard {
namespace {

using nlohmann::json;

template <class T>
void read_to(const json& j, const char* key, T* out) {
  if (auto it = j.find(key); it != j.end() && !it->is_null()) *out = it->get<T>();
}

}  // namespace

std::string plan_fingerprint(const std::string& input_config_json, uint64_t seed,
                             const std::string& version) {
  json cfg = json::parse(input_config_json, nullptr, false);
  if (cfg.is_object()) {
    cfg.erase("output");
    cfg.erase("cli_command");  // names the shard and its folder
  }
  core::ContentHash h;
  h.field(cfg.is_discarded() ? input_config_json : cfg.dump());
  h.update_u64(seed);
  h.field(version);
  return h.hex();
}

std::string to_json_text(const ShardManifest& m) {
  json j;
  j["shard"] = {{"index", m.index}, {"count", m.count}, {"launcher", m.launcher}};
  j["version"] = m.version;
  j["random_seed"] = m.random_seed;
  j["plan_fingerprint"] = m.plan_fingerprint;
  j["hostname"] = m.hostname;
  j["start"] = {{"start_at_wall_ns", m.start_at_wall_ns},
                {"started_wall_ns", m.started_wall_ns},
                {"start_skew_ns", m.start_skew_ns},
                {"load_start_wall_ns", m.load_start_wall_ns},
                {"warmup_start_wall_ns", m.warmup_start_wall_ns},
                {"clock_offset_ns", m.clock_offset_ns ? json(*m.clock_offset_ns) : json(nullptr)}};
  const ShardHealth& h = m.health;
  j["health"] = {{"requests", h.requests},
                 {"errors", h.errors},
                 {"schedule_lag_p50_ms", h.schedule_lag_p50_ms},
                 {"schedule_lag_p99_ms", h.schedule_lag_p99_ms},
                 {"late_send_fraction", h.late_send_fraction},
                 {"client_limited", h.client_limited},
                 {"cpu_user_s", h.cpu_user_s},
                 {"cpu_system_s", h.cpu_system_s},
                 {"workers", h.workers}};
  return j.dump(2) + "\n";
}

Result<ShardManifest> parse_manifest(const std::string& text) {
  json j = json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("shard") || !j.contains("plan_fingerprint"))
    return make_error(ErrorCode::kParse, "not a servebench shard manifest");
  ShardManifest m;
  try {
    const json& s = j["shard"];
    read_to(s, "index", &m.index);
    read_to(s, "count", &m.count);
    read_to(s, "launcher", &m.launcher);
    read_to(j, "version", &m.version);
    read_to(j, "random_seed", &m.random_seed);
    read_to(j, "plan_fingerprint", &m.plan_fingerprint);
    read_to(j, "hostname", &m.hostname);
    if (j.contains("start")) {
      const json& st = j["start"];
      read_to(st, "start_at_wall_ns", &m.start_at_wall_ns);
      read_to(st, "started_wall_ns", &m.started_wall_ns);
      read_to(st, "start_skew_ns", &m.start_skew_ns);
      read_to(st, "load_start_wall_ns", &m.load_start_wall_ns);
      read_to(st, "warmup_start_wall_ns", &m.warmup_start_wall_ns);
      if (auto it = st.find("clock_offset_ns"); it != st.end() && it->is_number())
        m.clock_offset_ns = it->get<int64_t>();
    }
    if (j.contains("health")) {
      const json& h = j["health"];
      read_to(h, "requests", &m.health.requests);
      read_to(h, "errors", &m.health.errors);
      read_to(h, "schedule_lag_p50_ms", &m.health.schedule_lag_p50_ms);
      read_to(h, "schedule_lag_p99_ms", &m.health.schedule_lag_p99_ms);
      read_to(h, "late_send_fraction", &m.health.late_send_fraction);
      read_to(h, "client_limited", &m.health.client_limited);
      read_to(h, "cpu_user_s", &m.health.cpu_user_s);
      read_to(h, "cpu_system_s", &m.health.cpu_system_s);
      read_to(h, "workers", &m.health.workers);
    }
  } catch (const json::exception& e) {
    return make_error(ErrorCode::kParse, fmt::format("malformed shard manifest: {}", e.what()));
  }
  if (m.count < 1 || m.index < 0 || m.index >= m.count)
    return make_error(ErrorCode::kParse, fmt::format("shard {}/{} is not a valid shard", m.index, m.count));
  return m;
}

Status write_manifest(const std::string& dir, const ShardManifest& m) {
  const std::string path = (std::filesystem::path(dir) / kManifestFile).string();
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << to_json_text(m);
  if (!out) return make_error(ErrorCode::kIo, fmt::format("cannot write {}", path));
  return {};
}

Result<ShardManifest> read_manifest(const std::string& dir) {
  const std::string path = (std::filesystem::path(dir) / kManifestFile).string();
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return make_error(ErrorCode::kNotFound,
                      fmt::format("{} has no {}: not a shard folder (run profile with --shard I/N)",
                                  dir, kManifestFile));
  std::stringstream ss;
  ss << in.rdbuf();
  auto m = parse_manifest(ss.str());
  if (!m) return make_error(ErrorCode::kParse, fmt::format("{}: {}", path, m.error().message));
  return m;
}

std::pair<double, double> process_cpu_s() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  auto s = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec / 1e6; };
  return {s(ru.ru_utime), s(ru.ru_stime)};
}

}  // namespace servebench::shard
