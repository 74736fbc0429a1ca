#include "yaml_config/distributions.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace servebench::yaml_config {
namespace {

// Standard normal quantile by bisection on erfc (only a few calls per file).
double normal_quantile(double p) {
  double lo = -10, hi = 10;
  for (int i = 0; i < 200; ++i) {
    const double mid = (lo + hi) / 2;
    (0.5 * std::erfc(-mid / std::sqrt(2.0)) < p ? lo : hi) = mid;
  }
  return (lo + hi) / 2;
}

std::vector<Component> lognormal(double mu, double sigma) {
  std::vector<Component> out;
  for (int i = 0; i < 10; ++i)
    out.push_back({std::exp(mu + sigma * normal_quantile((i + 0.5) / 10.0)), 0, 0.1});
  return out;
}

const std::vector<std::string> kKeys = {"type", "value", "mean", "stddev", "median", "p50", "p99",
                                        "peaks", "points", "weight", "min", "max"};

}  // namespace

Result<std::vector<Component>> read_distribution(const Reader& r, const YAML::Node& n,
                                                 const std::string& path) {
  if (n.IsScalar()) {
    auto v = r.number(n, path);
    if (!v) return make_error(v.error());
    return std::vector<Component>{{*v, 0, 1}};
  }
  auto e = r.entries(n, path, kKeys);
  if (!e) return make_error(e.error());
  std::map<std::string, YAML::Node> k(e->begin(), e->end());
  auto num = [&](const std::string& key) { return r.number(k.at(key), path + "." + key); };
  std::vector<Component> out;
  std::string type = k.count("type") ? k["type"].Scalar() : "";
  if (type.empty()) {
    for (const char* t : {"peaks", "points", "p50", "median", "stddev", "value", "mean"})
      if (k.count(t)) {
        type = t;
        break;
      }
  }
  if (type == "peaks" || type == "multimodal" || type == "points" || type == "empirical") {
    const bool peaks = type == "peaks" || type == "multimodal";
    const YAML::Node list = k[peaks ? "peaks" : "points"];
    if (!list || !list.IsSequence() || list.size() < (peaks ? 2u : 1u))
      return make_error(r.fail(n, fmt::format("{}: {} needs a list of at least {} entries", path,
                                              peaks ? "peaks" : "points", peaks ? 2 : 1)));
    double total = 0;
    std::vector<std::pair<std::vector<Component>, double>> parts;
    for (const auto& item : list) {
      double w = 1;
      YAML::Node body = YAML::Clone(item);
      if (item.IsMap() && item["weight"]) {
        auto wv = r.number(item["weight"], path + ".weight");
        if (!wv) return make_error(wv.error());
        if (!(*wv > 0)) return make_error(r.fail(item, path + ": a weight must be > 0"));
        w = *wv;
        body.remove("weight");
      }
      auto sub = read_distribution(r, body, path + (peaks ? ".peaks[]" : ".points[]"));
      if (!sub) return make_error(sub.error());
      parts.emplace_back(std::move(*sub), w);
      total += w;
    }
    for (auto& [comps, w] : parts)
      for (auto c : comps) out.push_back({c.mean, c.stddev, c.weight * w / total});
  } else if (type == "p50" || type == "percentile") {
    if (!k.count("p50") || !k.count("p99"))
      return make_error(r.fail(n, path + ": a percentile shape needs p50 and p99"));
    auto p50 = num("p50"), p99 = num("p99");
    if (!p50) return make_error(p50.error());
    if (!p99) return make_error(p99.error());
    if (!(*p50 > 0 && *p99 > *p50)) return make_error(r.fail(n, path + ": needs 0 < p50 < p99"));
    out = lognormal(std::log(*p50), std::log(*p99 / *p50) / normal_quantile(0.99));
  } else if (type == "median" || type == "lognormal") {
    if (!k.count("mean") || !k.count("median"))
      return make_error(r.fail(n, path + ": a log-normal shape needs mean and median"));
    auto mean = num("mean"), median = num("median");
    if (!mean) return make_error(mean.error());
    if (!median) return make_error(median.error());
    if (!(*median > 0 && *median <= *mean))
      return make_error(r.fail(n, path + ": a log-normal needs 0 < median <= mean"));
    out = lognormal(std::log(*median), std::sqrt(2 * std::log(*mean / *median)));
  } else if (type == "value" || type == "fixed") {
    auto v = num(k.count("value") ? "value" : "mean");
    if (!v) return make_error(v.error());
    out = {{*v, 0, 1}};
  } else if (type == "stddev" || type == "mean" || type == "normal") {
    if (!k.count("mean")) return make_error(r.fail(n, path + ": a normal shape needs mean"));
    auto mean = num("mean");
    if (!mean) return make_error(mean.error());
    double sd = 0;
    if (k.count("stddev")) {
      auto s = num("stddev");
      if (!s) return make_error(s.error());
      sd = *s;
    }
    if (*mean < 0 || sd < 0) return make_error(r.fail(n, path + ": mean and stddev must be >= 0"));
    out = {{*mean, sd, 1}};
  } else {
    return make_error(r.fail(n, fmt::format("{}: unknown distribution type '{}' (fixed, normal, "
                                            "lognormal, percentile, multimodal, empirical)", path, type)));
  }
  for (const char* bound : {"min", "max"}) {
    if (!k.count(bound)) continue;
    auto b = num(bound);
    if (!b) return make_error(b.error());
    for (auto& c : out) c.mean = bound[1] == 'i' ? std::max(c.mean, *b) : std::min(c.mean, *b);
  }
  return out;
}

Status add_length_flags(const Reader& r, const YAML::Node& at,
                        const std::optional<std::vector<Component>>& isl,
                        const std::optional<std::vector<Component>>& osl, std::vector<FlagArg>* out) {
  auto simple = [](const auto& d) { return !d || d->size() == 1; };
  auto tokens = [](double v) { return number_text(std::max(1.0, std::round(v))); };
  if (simple(isl) && simple(osl)) {
    if (isl) {
      r.add(out, at, "--isl", tokens(isl->front().mean));
      r.add(out, at, "--isl-stddev", number_text(isl->front().stddev));
    }
    if (osl) {
      r.add(out, at, "--osl", tokens(osl->front().mean));
      r.add(out, at, "--osl-stddev", number_text(osl->front().stddev));
    }
    return {};
  }
  if (!isl || !osl)
    return make_error(r.fail(at, "a mixed ISL or OSL distribution needs both isl and osl "
                                 "(they become one --sequence-distribution)"));
  std::string json = "{\"pairs\":[";
  double used = 0;
  const size_t n = isl->size() * osl->size();
  size_t idx = 0;
  for (const auto& a : *isl)
    for (const auto& b : *osl) {
      double pct = 100.0 * a.weight * b.weight;
      if (++idx == n) pct = std::max(0.0, 100.0 - used);  // the sum is exactly 100
      used += pct;
      json += fmt::format("{}{{\"isl\":{},\"isl_stddev\":{},\"osl\":{},\"osl_stddev\":{},\"prob\":{}}}",
                          idx == 1 ? "" : ",", tokens(a.mean), number_text(a.stddev), tokens(b.mean),
                          number_text(b.stddev), pct);
    }
  json += "]}";
  r.add(out, at, "--sequence-distribution", json);
  return {};
}

}  // namespace servebench::yaml_config
