#include "experiment/cell_command.h"

#include <map>
#include <set>

#include "config/flag_table.h"
#include "config/redaction.h"

namespace servebench::experiment {
namespace {

using config::FlagArity;
using config::FlagSpec;

// Spelling ("--model", "-m", "--no-streaming") → index into the flag table.
const std::map<std::string, size_t>& spelling_index() {
  static const std::map<std::string, size_t> kIndex = [] {
    std::map<std::string, size_t> out;
    const auto& table = config::profile_flags();
    for (size_t i = 0; i < table.size(); ++i)
      for (const auto& n : config::flag_spellings(table[i])) out.emplace(n, i);
    return out;
  }();
  return kIndex;
}

// One flag as typed: where it starts, how many argv entries it spans, which table entry.
struct Typed {
  size_t index = 0;
  size_t span = 1;
  bool known = false;
};

Typed read_flag(const std::vector<std::string>& argv, size_t at) {
  const std::string& a = argv[at];
  Typed t;
  if (a.size() < 2 || a[0] != '-') return t;
  const bool long_form = a.rfind("--", 0) == 0;
  const std::string name = long_form ? a.substr(0, a.find('=')) : a.substr(0, 2);
  const auto it = spelling_index().find(name);
  if (it == spelling_index().end()) return t;
  t.known = true;
  t.index = it->second;
  const FlagSpec& f = config::profile_flags()[t.index];
  const bool inline_value = long_form ? a.find('=') != std::string::npos : a.size() > 2;
  if (inline_value || f.arity == FlagArity::kSwitch || f.arity == FlagArity::kCounter) return t;
  if (f.arity == FlagArity::kValue) {
    t.span = at + 1 < argv.size() ? 2 : 1;
    return t;
  }
  // A list takes the entries up to the next flag (one, or none when its value is optional).
  size_t end = at + 1;
  while (end < argv.size() && !(argv[end].size() > 1 && argv[end][0] == '-')) {
    ++end;
    if (f.one_value_per_use) break;
  }
  t.span = end - at;
  return t;
}

bool is_warmup_flag(const FlagSpec& f) {
  return f.json_key.rfind("/loadgen/warmup_", 0) == 0 ||
         f.json_key.rfind("/loadgen/num_warmup_", 0) == 0;
}

std::string long_name(const FlagSpec& f) {
  for (const auto& n : config::flag_spellings(f))
    if (n.rfind("--", 0) == 0) return n;
  return config::flag_spellings(f).front();
}

// The spelling to write for an assignment: "--" + its name when that spells the flag (the axis
// "isl" → --isl, a scenario key "request_rate" → --request-rate), else the flag's first long name.
std::string spelling_for(const Assignment& a, const FlagSpec& f) {
  std::string want = a.name.rfind("--", 0) == 0 ? a.name : "--" + a.name;
  for (char& c : want)
    if (c == '_') c = '-';
  for (const auto& n : config::flag_spellings(f))
    if (n == want) return n;
  return long_name(f);
}

// The cell's values as flags, appended after the rest.
void append_cell(const Cell& cell, std::vector<std::string>* out) {
  const auto& table = config::profile_flags();
  for (const auto& a : cell.values) {
    const FlagSpec& f = table[a.flag_index];
    const std::string name = spelling_for(a, f);
    if (f.arity == FlagArity::kSwitch) {
      if (a.value == "true")
        out->push_back(name);
      else if (!f.negations.empty())
        out->push_back(f.negations.front());
      continue;
    }
    if (!a.list.empty()) {
      for (const auto& v : a.list) out->insert(out->end(), {name, v});
      continue;
    }
    out->insert(out->end(), {name, a.value});
  }
}

}  // namespace

std::vector<std::string> trial_argv(const std::vector<std::string>& argv, const Cell& cell,
                                    std::optional<uint64_t> seed, bool without_warmup) {
  const auto& table = config::profile_flags();
  std::set<size_t> assigned;
  for (const auto& a : cell.values) assigned.insert(a.flag_index);
  const auto seed_flag = spelling_index().find("--random-seed");
  std::vector<std::string> out = {"profile"};
  for (size_t i = argv.empty() ? 0 : 1; i < argv.size();) {
    const Typed t = read_flag(argv, i);
    bool drop = false;
    if (t.known) {
      const FlagSpec& f = table[t.index];
      drop = f.experiment_loop || (assigned.count(t.index) > 0 && f.arity != FlagArity::kList) ||
             (without_warmup && is_warmup_flag(f)) ||
             (seed && seed_flag != spelling_index().end() && t.index == seed_flag->second);
    }
    if (!drop) out.insert(out.end(), argv.begin() + i, argv.begin() + i + t.span);
    i += t.span;
  }
  append_cell(cell, &out);
  if (seed) out.insert(out.end(), {"--random-seed", std::to_string(*seed)});
  return out;
}

std::string trial_command(const std::vector<std::string>& argv, const Cell& cell,
                          std::optional<uint64_t> seed, bool without_warmup) {
  const auto args = trial_argv(argv, cell, seed, without_warmup);
  std::vector<const char*> ptrs;
  for (const auto& a : args) ptrs.push_back(a.c_str());
  return config::redacted_command_line(static_cast<int>(ptrs.size()), ptrs.data());
}

}  // namespace servebench::experiment
