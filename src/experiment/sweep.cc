#include "experiment/sweep.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "config/flag_table.h"

namespace servebench::experiment {
namespace {

using config::FlagArity;
using config::FlagSpec;
using Json = nlohmann::json;

Status usage(std::string message) {
  return make_error(ErrorCode::kInvalidArgument, std::move(message));
}

std::string folder_safe(const std::string& s) {
  std::string out;
  for (char c : s) {
    const bool ok = std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_';
    out.push_back(ok ? c : '_');
  }
  return out;
}

std::string label_of(const std::vector<Assignment>& values) {
  std::string out;
  for (const auto& a : values) {
    if (!out.empty()) out += "_";
    out += a.name + "_" + folder_safe(a.value);
  }
  return out;
}

// Finds a flag by a scenario key: "concurrency", "--concurrency" or "request_rate".
const FlagSpec* find_flag(const std::string& key, size_t* index) {
  std::string want = key.rfind("--", 0) == 0 ? key.substr(2) : key;
  for (char& c : want)
    if (c == '_') c = '-';
  const auto& table = config::profile_flags();
  for (size_t i = 0; i < table.size(); ++i) {
    size_t start = 0;
    const std::string& names = table[i].names;
    while (start <= names.size()) {
      size_t comma = names.find(',', start);
      if (comma == std::string::npos) comma = names.size();
      std::string name = names.substr(start, comma - start);
      if (name.rfind("--", 0) == 0 && name.substr(2) == want) {
        *index = i;
        return &table[i];
      }
      start = comma + 1;
    }
  }
  return nullptr;
}

Result<Assignment> scenario_value(const std::string& key, const Json& v, int64_t cell) {
  Assignment a;
  a.name = key;
  const FlagSpec* f = find_flag(key, &a.flag_index);
  if (!f)
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("--sweep-scenarios: scenario {} names '{}', which is not a "
                                  "profile flag; use flag names such as concurrency or isl",
                                  cell, key));
  if (v.is_array()) {
    for (const auto& e : v) a.list.push_back(e.is_string() ? e.get<std::string>() : e.dump());
    a.value = fmt::format("{}", fmt::join(a.list, ","));
  } else {
    a.value = v.is_string() ? v.get<std::string>() : v.dump();
  }
  if (f->arity == FlagArity::kSwitch && a.value != "true" && a.value != "false")
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("--sweep-scenarios: '{}' is a switch; give true or false", key));
  return a;
}

Result<std::vector<Cell>> expand_scenarios(const std::string& text) {
  const Json doc = Json::parse(text, nullptr, false);
  std::vector<Cell> cells;
  for (const auto& obj : doc) {
    Cell c;
    c.index = static_cast<int64_t>(cells.size());
    for (const auto& [k, v] : obj.items()) {
      if (k == "name") {
        c.label = folder_safe(v.is_string() ? v.get<std::string>() : v.dump());
        continue;
      }
      auto a = scenario_value(k, v, c.index);
      if (!a) return tl::unexpected(a.error());
      c.values.push_back(std::move(*a));
    }
    if (c.label.empty()) c.label = label_of(c.values);
    if (c.label.empty()) c.label = fmt::format("scenario_{}", c.index);
    cells.push_back(std::move(c));
  }
  return cells;
}

}  // namespace

Result<std::vector<Cell>> expand_sweep(const std::vector<config::SweepAxis>& axes,
                                       const config::ExperimentOptions& options) {
  const bool scenarios =
      !options.sweep_scenarios_json.empty() || options.sweep_type == config::SweepType::kScenarios;
  if (scenarios) {
    if (options.sweep_scenarios_json.empty())
      return tl::unexpected(usage("--sweep-type scenarios needs --sweep-scenarios '[{...}, ...]'").error());
    if (!axes.empty())
      return tl::unexpected(
          usage(fmt::format("--sweep-scenarios and a comma list (--{}) both define the sweep; "
                            "put the values into the scenarios",
                            axes.front().name))
              .error());
    if (options.sweep_type_given && options.sweep_type != config::SweepType::kScenarios)
      return tl::unexpected(
          usage("--sweep-scenarios needs --sweep-type scenarios (or no --sweep-type)").error());
    return expand_scenarios(options.sweep_scenarios_json);
  }
  std::vector<Cell> cells;
  if (axes.empty()) {
    cells.push_back(Cell{});
    return cells;
  }
  if (options.sweep_type == config::SweepType::kZip) {
    for (const auto& a : axes)
      if (a.values.size() != axes.front().values.size())
        return tl::unexpected(usage(fmt::format(
            "--sweep-type zip needs lists of equal length (--{} has {} values, --{} has {})",
            axes.front().name, axes.front().values.size(), a.name, a.values.size())).error());
    for (size_t i = 0; i < axes.front().values.size(); ++i) {
      Cell c;
      c.index = static_cast<int64_t>(i);
      for (const auto& a : axes) c.values.push_back({a.flag_index, a.name, a.values[i], {}});
      c.label = label_of(c.values);
      cells.push_back(std::move(c));
    }
    return cells;
  }
  // Grid: an odometer over the axes, the last axis turning fastest.
  std::vector<size_t> at(axes.size(), 0);
  for (;;) {
    Cell c;
    c.index = static_cast<int64_t>(cells.size());
    for (size_t k = 0; k < axes.size(); ++k)
      c.values.push_back({axes[k].flag_index, axes[k].name, axes[k].values[at[k]], {}});
    c.label = label_of(c.values);
    cells.push_back(std::move(c));
    size_t k = axes.size();
    while (k > 0) {
      --k;
      if (++at[k] < axes[k].values.size()) break;
      at[k] = 0;
      if (k == 0) return cells;
    }
  }
}

Result<config::BenchmarkConfig> cell_config(const config::BenchmarkConfig& base, const Cell& cell) {
  config::BenchmarkConfig c = base;
  const auto& table = config::profile_flags();
  for (const auto& a : cell.values) {
    const FlagSpec& f = table[a.flag_index];
    config::FlagInput in;
    in.text = a.value;
    in.texts = a.list.empty() ? std::vector<std::string>{a.value} : a.list;
    in.on = a.value == "true";
    in.count = 1;
    if (f.arity == FlagArity::kValue && a.value.find(',') != std::string::npos && f.sweepable)
      return make_error(ErrorCode::kInvalidArgument,
                        fmt::format("sweep cell '{}': --{} '{}' must be one value", cell.label,
                                    a.name, a.value));
    if (auto st = f.apply(in, &c); !st)
      return make_error(ErrorCode::kInvalidArgument,
                        fmt::format("sweep cell '{}': {}", cell.label, st.error().message));
  }
  if (auto st = config::validate(c); !st)
    return make_error(ErrorCode::kInvalidArgument,
                      cell.values.empty()
                          ? st.error().message
                          : fmt::format("sweep cell '{}': {}", cell.label, st.error().message));
  return c;
}

std::string variation_dir(const Cell& cell) {
  return fmt::format("variation_{:04d}_{}", cell.index, cell.label);
}

std::optional<uint64_t> trial_seed(const config::BenchmarkConfig& base, const Cell& cell,
                                   int64_t trial, bool is_sweep) {
  const auto& x = base.experiment;
  std::optional<uint64_t> seed = base.random_seed;
  if (!seed && x.set_consistent_seed && (is_sweep || x.num_profile_runs > 1)) seed = 42;
  if (!seed) return std::nullopt;
  uint64_t s = *seed;
  if (is_sweep && !x.sweep_same_seed) s += static_cast<uint64_t>(cell.index);
  if (x.vary_seed_per_trial) s += static_cast<uint64_t>(trial - 1);
  return s;
}

}  // namespace servebench::experiment
