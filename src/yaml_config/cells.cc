#include "yaml_config/cells.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "config/flag_table.h"

namespace servebench::yaml_config {
namespace {

const std::vector<std::string> kSweepable = {"--concurrency", "--request-rate", "--request-count",
                                             "--benchmark-duration", "--num-sessions", "--num-users",
                                             "--prefill-concurrency", "--isl", "--osl"};

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string v; std::getline(ss, v, ',');) out.push_back(v);
  return out;
}

}  // namespace

bool is_experiment_flag(const std::string& f) {
  // The flag table marks them (FlagSpec::experiment_loop), --no- spellings included.
  const std::string name = f.substr(0, f.find('='));
  for (const auto& spec : config::profile_flags())
    for (const auto& n : config::flag_spellings(spec))
      if (n == name) return spec.experiment_loop;
  return false;
}

Result<std::vector<Cell>> expand_cells(const std::vector<FlagArg>& args) {
  std::string type = "grid", scenarios;
  std::vector<FlagArg> base;
  std::vector<std::pair<std::string, std::vector<std::string>>> axes;
  for (const auto& a : args) {
    if (a.flag == "--sweep-type") type = a.value;
    if (a.flag == "--sweep-scenarios") scenarios = a.value;
    if (is_experiment_flag(a.flag)) continue;
    const bool sweepable = std::find(kSweepable.begin(), kSweepable.end(), a.flag) != kSweepable.end();
    if (sweepable && a.value.find(',') != std::string::npos)
      axes.emplace_back(a.flag, split(a.value));
    else
      base.push_back(a);
  }
  const std::vector<std::string> base_argv = to_argv(base);
  std::vector<Cell> cells;
  if (type == "scenarios") {
    auto j = nlohmann::json::parse(scenarios, nullptr, false);
    if (!j.is_array()) return make_error(ErrorCode::kInvalidArgument, "sweep scenarios are not a JSON array");
    for (const auto& sc : j) {
      Cell c{sc.value("name", fmt::format("scenario{}", cells.size())), base_argv};
      for (const auto& [k, v] : sc.items()) {
        if (k == "name") continue;
        for (size_t i = 0; i + 1 < c.argv.size(); ++i)  // the scenario replaces the base value
          if (c.argv[i] == "--" + k) c.argv.erase(c.argv.begin() + i, c.argv.begin() + i + 2);
        c.argv.push_back("--" + k);
        c.argv.push_back(v.is_string() ? v.get<std::string>() : v.dump());
      }
      cells.push_back(std::move(c));
    }
    return cells;
  }
  if (axes.empty()) return std::vector<Cell>{{"", base_argv}};
  if (type == "zip") {
    const size_t n = axes.front().second.size();
    for (const auto& [flag, values] : axes)
      if (values.size() != n)
        return make_error(ErrorCode::kInvalidArgument,
                          fmt::format("zip sweep: {} has {} values but {} has {}; give every list the same length",
                                      flag, values.size(), axes.front().first, n));
    for (size_t i = 0; i < n; ++i) {
      Cell c{"", base_argv};
      for (const auto& [flag, values] : axes) {
        c.label += fmt::format("{}{}={}", c.label.empty() ? "" : ",", flag.substr(2), values[i]);
        c.argv.push_back(flag);
        c.argv.push_back(values[i]);
      }
      cells.push_back(std::move(c));
    }
    return cells;
  }
  std::vector<size_t> idx(axes.size(), 0);
  while (true) {
    Cell c{"", base_argv};
    for (size_t a = 0; a < axes.size(); ++a) {
      c.label += fmt::format("{}{}={}", c.label.empty() ? "" : ",", axes[a].first.substr(2), axes[a].second[idx[a]]);
      c.argv.push_back(axes[a].first);
      c.argv.push_back(axes[a].second[idx[a]]);
    }
    cells.push_back(std::move(c));
    size_t a = axes.size();
    while (a > 0 && ++idx[a - 1] == axes[a - 1].second.size()) idx[--a] = 0;
    if (a == 0) break;
  }
  return cells;
}

}  // namespace servebench::yaml_config
