// Differential test: expositions written by PyPI prometheus_client (pinned in scripts/setup.sh),
// parsed by prometheus_client's own parsers and by ours, must give the same samples, types, help
// texts and units. prom_reference.py writes the expositions and the reference parse.
//
// Comparison rules (where the two parsers model the same text differently, not disagreements):
//  - prometheus_client's Prometheus-text parser names a counter family without "_total"; ours
//    keeps the name of the # TYPE line, so "_total" is dropped from counter names before comparing.
//  - prometheus_client's Prometheus-text parser strips each line, so a HELP text loses its
//    trailing blanks there; ours keeps them (as Prometheus's Go parser does): they are trimmed
//    from ours before comparing.
//  - prometheus_client makes one family per untyped sample; ours groups samples of one name, so
//    families are compared by name and samples as one flat list in exposition order.
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "telemetry/prometheus_text.h"

namespace servebench::telemetry::prom {
namespace {

namespace fs = std::filesystem;

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string reference_python() {
  if (const char* p = std::getenv("SERVEBENCH_PROM_PYTHON")) return p;
  const char* cache = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  std::string base = cache ? std::string(cache) : std::string(home ? home : "") + "/.cache";
  return base + "/servebench/prom-venv/bin/python";
}

struct FlatSample {
  std::string family, type, name, labels, value;
  std::optional<int64_t> ts;
  bool operator==(const FlatSample&) const = default;
};

std::ostream& operator<<(std::ostream& os, const FlatSample& s) {
  return os << s.family << "/" << s.type << " " << s.name << "{" << s.labels << "} " << s.value
            << " @" << (s.ts ? std::to_string(*s.ts) : "-");
}

std::string canon_value(double v) {
  if (std::isnan(v)) return "nan";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

std::string canon_family(std::string name, const std::string& type, bool prom_text) {
  if (prom_text && type == "counter" && name.size() > 6 && name.ends_with("_total")) {
    name.resize(name.size() - 6);
  }
  return name;
}

std::string canon_labels(std::map<std::string, std::string> labels) {
  std::string out;
  for (const auto& [k, v] : labels) out += k + "=" + v + "\x1f";
  return out;
}

struct Flat {
  std::vector<FlatSample> samples;
  std::map<std::string, std::pair<std::string, std::string>> meta;  // family -> help, unit
};

Flat flatten_ours(const std::vector<Family>& fams, bool prom_text) {
  Flat out;
  for (const auto& f : fams) {
    std::string type = f.type == MetricType::kUntyped ? "unknown" : metric_type_name(f.type);
    std::string fam = canon_family(f.name, type, prom_text);
    std::string help = f.help;
    while (prom_text && !help.empty() && (help.back() == ' ' || help.back() == '\t')) help.pop_back();
    out.meta[fam] = {help, f.unit};
    for (const auto& s : f.samples) {
      std::map<std::string, std::string> labels(s.labels.begin(), s.labels.end());
      out.samples.push_back({fam, type, s.name, canon_labels(labels), canon_value(s.value), s.timestamp_ms});
    }
  }
  return out;
}

Flat flatten_reference(const nlohmann::json& fams) {
  Flat out;
  for (const auto& f : fams) {
    std::string fam = f["name"], type = f["type"];
    out.meta[fam] = {f["help"], f["unit"]};
    for (const auto& s : f["samples"]) {
      std::map<std::string, std::string> labels = s["labels"].get<std::map<std::string, std::string>>();
      std::string value = s["value"];
      std::optional<int64_t> ts;
      if (!s["timestamp_ms"].is_null()) ts = s["timestamp_ms"].get<int64_t>();
      out.samples.push_back({fam, type, s["name"], canon_labels(labels),
                             canon_value(std::strtod(value.c_str(), nullptr)), ts});
    }
  }
  return out;
}

class PrometheusDiff : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const char* src = std::getenv("SERVEBENCH_SOURCE_DIR");
    std::string python = reference_python();
    if (!src || !fs::exists(python)) return;
    dir_ = fs::temp_directory_path() / ("sb_promdiff_" + std::to_string(::getpid()));
    std::string cmd = python + " " + std::string(src) + "/tests/unit/telemetry/prom_reference.py " +
                      dir_.string();
    generated_ = std::system(cmd.c_str()) == 0;
  }
  static void TearDownTestSuite() {
    std::error_code ec;
    if (!dir_.empty()) fs::remove_all(dir_, ec);
  }
  static inline fs::path dir_;
  static inline bool generated_ = false;
};

TEST_F(PrometheusDiff, MatchesPrometheusClientParser) {
  if (dir_.empty()) {
    GTEST_SKIP() << "prometheus_client venv not found at " << reference_python()
                 << " (run scripts/setup.sh)";
  }
  ASSERT_TRUE(generated_) << "prom_reference.py failed";
  std::ifstream manifest(dir_ / "manifest.txt");
  std::string id, kind;
  int cases = 0, samples = 0, formats_seen = 0;
  while (manifest >> id >> kind) {
    SCOPED_TRACE("case " + id + " (" + kind + ")");
    bool prom_text = kind == "prom";
    formats_seen |= prom_text ? 1 : 2;
    std::string text = read_text(dir_ / (id + ".txt"));
    auto ours = parse_exposition(text, prom_text ? Format::kPrometheusText : Format::kOpenMetrics);
    ASSERT_TRUE(ours.has_value()) << ours.error().message << "\n" << text;
    Flat a = flatten_ours(*ours, prom_text);
    Flat b = flatten_reference(nlohmann::json::parse(read_text(dir_ / (id + ".json"))));
    ASSERT_EQ(a.samples.size(), b.samples.size()) << text;
    for (size_t i = 0; i < a.samples.size(); ++i) EXPECT_EQ(a.samples[i], b.samples[i]) << "sample " << i;
    EXPECT_EQ(a.meta, b.meta);
    ++cases;
    samples += static_cast<int>(a.samples.size());
  }
  EXPECT_GE(cases, 80);
  EXPECT_GE(samples, 500);
  EXPECT_EQ(formats_seen, 3);
}

}  // namespace
}  // namespace servebench::telemetry::prom
