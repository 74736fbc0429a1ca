// The server-metrics time series of one run: every scraped sample, per endpoint and series
// (sample name + label set), with the steady time of the scrape that read it.
//
// Memory: 16 bytes per sample per scrape (a vLLM /metrics of ~400 samples at 3 scrapes/s costs
// ~70 MiB per hour). Summary-type families are counted but not stored (reported as unsupported).
//
// Thread safety: not synchronized; the collector thread writes it, and readers take it after the
// collector stopped (ServerMetricsCollector::stop()).
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "telemetry/prometheus_text.h"

namespace servebench::telemetry {

using Labels = std::vector<std::pair<std::string, std::string>>;

struct Series {
  int endpoint = 0;        // index into SeriesStore::endpoints()
  std::string family;      // the family's name
  prom::MetricType type = prom::MetricType::kUntyped;
  std::string name;        // the sample's name (family + suffix)
  Labels labels;           // as exposed (le included for buckets)
  std::vector<int64_t> t_ns;
  std::vector<double> v;
};

struct FamilyInfo {
  prom::MetricType type = prom::MetricType::kUntyped;
  std::string help;
  std::string unit;
};

class SeriesStore {
 public:
  // Registers an endpoint; returns its index.
  int add_endpoint(std::string url);
  // One successful scrape of `endpoint` at steady `t_ns`.
  void add_scrape(int endpoint, int64_t t_ns, const std::vector<prom::Family>& families);

  const std::vector<std::string>& endpoints() const { return endpoints_; }
  const std::vector<Series>& series() const { return series_; }
  // Family name -> type/help/unit, as first seen (any endpoint).
  const std::map<std::string, FamilyInfo>& families() const { return families_; }
  // Names of summary-type families seen (not stored).
  const std::set<std::string>& unsupported() const { return unsupported_; }

 private:
  std::vector<std::string> endpoints_;
  std::vector<Series> series_;
  std::map<std::string, size_t> index_;  // endpoint \x1e name \x1e labels -> series_
  std::map<std::string, FamilyInfo> families_;
  std::set<std::string> unsupported_;
};

// "a=\"x\",b=\"y\"": a label set as one stable text (for keys and sorting).
std::string labels_text(const Labels& labels);

}  // namespace servebench::telemetry
