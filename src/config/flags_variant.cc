// AIPerf's --variant / --sweep-variant: each use is one sweep cell, '[NAME:] KEY=VALUE, ...'
// with profile flag names as keys (kebab- or snake_case). Two or more uses become the
// scenarios sweep (--sweep-type scenarios --sweep-scenarios JSON, experiment/sweep.cc), so a
// key that names no flag is reported there; one use alone is refused, as in AIPerf.
#include <nlohmann/json.hpp>

#include "config/flag_kinds.h"

namespace servebench::config {
namespace {

using namespace flags;  // NOLINT: the builders read as a table

std::string trim(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

Result<nlohmann::json> parse_variant(const std::string& text) {
  const auto bad = [&](const std::string& why) {
    return make_error(
        ErrorCode::kInvalidArgument,
        "--variant '" + text + "' is invalid: " + why +
            "; expected '[NAME:] KEY=VALUE, KEY=VALUE' such as 'short: isl=64, concurrency=2'");
  };
  nlohmann::json cell = nlohmann::json::object();
  std::string body = text;
  const size_t colon = text.find(':'), eq = text.find('=');
  if (colon != std::string::npos && (eq == std::string::npos || colon < eq)) {
    const std::string name = trim(text.substr(0, colon));
    if (name.empty()) return bad("empty NAME");
    cell["name"] = name;
    body = text.substr(colon + 1);
  }
  size_t start = 0;
  while (start <= body.size()) {
    const size_t comma = body.find(',', start);
    const std::string item =
        trim(body.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    start = comma == std::string::npos ? body.size() + 1 : comma + 1;
    const size_t e = item.find('=');
    if (e == std::string::npos || e == 0 || trim(item.substr(e + 1)).empty())
      return bad("'" + item + "' is not KEY=VALUE");
    std::string key = trim(item.substr(0, e));
    if (key.rfind("--", 0) == 0) key = key.substr(2);
    cell[key] = trim(item.substr(e + 1));
  }
  if (cell.size() == (cell.contains("name") ? 1u : 0u)) return bad("no KEY=VALUE");
  return cell;
}

}  // namespace

void add_variant_flag(std::vector<FlagSpec>* out) {
  FlagSpec s = base("--variant,--sweep-variant",
                    "One sweep cell, '[NAME:] KEY=VALUE, ...' (repeat for each cell; 2 or more): "
                    "a scenarios sweep",
                    "");
  s.arity = FlagArity::kList;
  s.one_value_per_use = true;
  s.apply = [](const FlagInput& in, C* c) -> Status {
    if (in.texts.empty()) return {};
    if (in.texts.size() < 2)
      return usage(
          "--variant was given once; give one --variant per sweep cell (2 or more), or "
          "use the plain flags for a single run");
    if (!c->experiment.sweep_scenarios_json.empty())
      return usage("--variant and --sweep-scenarios both define the sweep; use one");
    nlohmann::json cells = nlohmann::json::array();
    for (const auto& t : in.texts) {
      auto cell = parse_variant(t);
      if (!cell) return tl::unexpected(cell.error());
      cells.push_back(std::move(*cell));
    }
    c->experiment.sweep_scenarios_json = cells.dump();
    c->experiment.sweep_type = SweepType::kScenarios;
    c->experiment.sweep_type_given = true;
    return {};
  };
  out->push_back(std::move(s));
}

}  // namespace servebench::config
