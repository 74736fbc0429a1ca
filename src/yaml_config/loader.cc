// The envelope (schemaVersion, random_seed, variables, sweep, multi_run) and the command-line
// merge.
#include <fmt/format.h>

#include <cctype>
#include <fstream>
#include <set>
#include <sstream>

#include "config/flag_table.h"
#include "yaml_config/body_map.h"
#include "yaml_config/yaml_config.h"
#include "yaml_config/yaml_node.h"

namespace servebench::yaml_config {
namespace {

using Out = std::vector<FlagArg>;

// A list of scalars → "a,b,c".
Result<std::string> joined(const Reader& r, const YAML::Node& v, const std::string& path) {
  if (!v.IsSequence() || v.size() == 0) return make_error(r.fail(v, path + " must be a non-empty list of values"));
  std::string out;
  for (const auto& x : v) {
    auto s = r.str(x, path);
    if (!s) return make_error(s.error());
    out += (out.empty() ? "" : ",") + *s;
  }
  return out;
}

Status map_sweep(const Reader& r, const YAML::Node& n, Out* out) {
  auto e = r.entries(n, "sweep", {"type", "parameters", "scenarios", "cooldown_seconds", "same_seed", "mode"});
  if (!e) return make_error(e.error());
  std::string type = "grid";
  for (const auto& [key, v] : *e) {
    if (key == "type") {
      auto t = r.str(v, "sweep.type");
      if (!t) return make_error(t.error());
      if (*t != "grid" && *t != "zip" && *t != "scenarios")
        return make_error(r.fail(v, fmt::format("sweep.type '{}' is not one of grid, zip, scenarios", *t)));
      type = *t;
      r.add(out, v, "--sweep-type", *t);
    } else if (key == "cooldown_seconds") {
      auto d = r.duration_s(v, "sweep.cooldown_seconds");
      if (!d) return make_error(d.error());
      r.add(out, v, "--parameter-sweep-cooldown-seconds", number_text(*d));
    } else if (key == "same_seed") {
      auto b = r.boolean(v, "sweep.same_seed");
      if (!b) return make_error(b.error());
      if (*b) r.add_switch(out, v, "--parameter-sweep-same-seed");
    } else if (key == "mode") {
      auto s = r.str(v, "sweep.mode");
      if (!s) return make_error(s.error());
      r.add(out, v, "--parameter-sweep-mode", *s);
    } else if (key == "parameters") {
      if (!v.IsMap()) return make_error(r.fail(v, "sweep.parameters must map parameters to lists of values"));
      for (auto it = v.begin(); it != v.end(); ++it) {
        const std::string flag = sweep_flag(it->first.Scalar());
        if (flag.empty())
          return make_error(r.fail(it->first, fmt::format("sweep parameter '{}' cannot be swept (concurrency, rate, "
                                                          "requests, duration, sessions, users, prefill_concurrency, isl, osl)",
                                                          it->first.Scalar())));
        auto list = joined(r, it->second, "sweep.parameters." + it->first.Scalar());
        if (!list) return make_error(list.error());
        // The sweep replaces the body's single value.
        std::erase_if(*out, [&](const FlagArg& a) { return a.flag == flag; });
        r.add(out, it->first, flag, *list);
      }
    } else {  // scenarios: [{name: ..., <parameter>: value}, ...]
      if (!v.IsSequence()) return make_error(r.fail(v, "sweep.scenarios must be a list of named scenarios"));
      std::string json = "[";
      for (const auto& sc : v) {
        if (!sc.IsMap()) return make_error(r.fail(sc, "each sweep scenario must be a mapping"));
        std::string obj;
        for (auto it = sc.begin(); it != sc.end(); ++it) {
          const std::string k = it->first.Scalar();
          const std::string flag = k == "name" ? "name" : sweep_flag(k);
          if (flag.empty())
            return make_error(r.fail(it->first, fmt::format("scenario key '{}' names no sweepable parameter", k)));
          auto s = r.str(it->second, "sweep.scenarios." + k);
          if (!s) return make_error(s.error());
          obj += fmt::format("{}\"{}\":\"{}\"", obj.empty() ? "" : ",", flag.substr(flag.find_first_not_of('-')), *s);
        }
        json += (json.size() > 1 ? ",{" : "{") + obj + "}";
      }
      r.add(out, v, "--sweep-scenarios", json + "]");
    }
  }
  if (type == "scenarios" && !n["scenarios"]) return make_error(r.fail(n, "sweep.type scenarios needs sweep.scenarios"));
  return {};
}

Status map_multi_run(const Reader& r, const YAML::Node& n, Out* out) {
  auto e = r.entries(n, "multi_run", {"num_runs", "cooldown_seconds", "confidence_level", "set_consistent_seed",
                                      "vary_seed_per_trial", "disable_warmup_after_first", "convergence_metric",
                                      "convergence_stat", "convergence_threshold", "convergence_mode"});
  if (!e) return make_error(e.error());
  for (const auto& [key, v] : *e) {
    const std::string path = "multi_run." + key;
    if (key == "num_runs") {
      auto i = r.integer(v, path, 1);
      if (!i) return make_error(i.error());
      r.add(out, v, "--num-profile-runs", std::to_string(*i));
    } else if (key == "cooldown_seconds") {
      auto d = r.duration_s(v, path);
      if (!d) return make_error(d.error());
      r.add(out, v, "--profile-run-cooldown-seconds", number_text(*d));
    } else if (key == "confidence_level" || key == "convergence_threshold") {
      auto x = r.number(v, path);
      if (!x) return make_error(x.error());
      r.add(out, v, key == "confidence_level" ? "--confidence-level" : "--convergence-threshold", number_text(*x));
    } else if (key == "set_consistent_seed" || key == "vary_seed_per_trial") {
      auto b = r.boolean(v, path);
      if (!b) return make_error(b.error());
      const std::string flag = key == "set_consistent_seed" ? "set-consistent-seed" : "vary-seed-per-trial";
      r.add_switch(out, v, (*b ? "--" : "--no-") + flag);
    } else if (key == "disable_warmup_after_first") {
      auto b = r.boolean(v, path);
      if (!b) return make_error(b.error());
      r.add_switch(out, v, *b ? "--profile-run-disable-warmup-after-first"
                              : "--no-profile-run-disable-warmup-after-first");
    } else {
      auto s = r.str(v, path);
      if (!s) return make_error(s.error());
      std::string flag = "--" + key;
      std::replace(flag.begin(), flag.end(), '_', '-');
      r.add(out, v, flag, *s);
    }
  }
  return {};
}

Result<std::map<std::string, std::string>> read_variables(const Reader& r, const YAML::Node& n) {
  std::map<std::string, std::string> vars;
  if (!n) return vars;
  if (!n.IsMap()) return make_error(r.fail(n, "variables must map names to values"));
  for (auto it = n.begin(); it != n.end(); ++it) {
    if (!it->second.IsScalar()) return make_error(r.fail(it->second, "each entry of variables must be a single value"));
    vars[it->first.Scalar()] = it->second.Scalar();
  }
  return vars;
}

// servebench_flags: profile flags word by word (profile_config.yaml writes them).
Status map_flag_words(const Reader& r, const YAML::Node& n, Out* out) {
  if (!n.IsSequence()) return make_error(r.fail(n, "servebench_flags must be a list of flag words"));
  for (const auto& w : n) {
    auto s = r.str(w, "servebench_flags");
    if (!s) return make_error(s.error());
    const bool is_flag = s->size() > 1 && (*s)[0] == '-' && !std::isdigit(static_cast<unsigned char>((*s)[1]));
    if (is_flag || out->empty() || out->back().has_value) {
      if (!is_flag) return make_error(r.fail(w, fmt::format("servebench_flags: '{}' follows no flag", *s)));
      const size_t eq = s->find('=');
      if (eq != std::string::npos) out->push_back(FlagArg{s->substr(0, eq), s->substr(eq + 1), true, r.where(w)});
      else out->push_back(FlagArg{*s, "", false, r.where(w)});
    } else {
      out->back().value = *s;
      out->back().has_value = true;
    }
  }
  return {};
}

}  // namespace

Result<LoadedConfig> load_text(const std::string& text, const std::string& name) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("{}:{}: not valid YAML: {}", name, e.mark.line + 1, e.msg));
  }
  Reader r(name);
  if (!root.IsMap()) return make_error(r.fail(root, "a config file is a mapping with a benchmark: section"));
  auto vars = read_variables(r, root["variables"]);
  if (!vars) return make_error(vars.error());
  r.set_variables(std::move(*vars));
  auto e = r.entries(root, "the top level", {"schema_version", "random_seed", "variables", "sweep", "multi_run", "plot",
                                             "no_sweep_table", "benchmark", "model", "models", "dataset",
                                             "servebench_flags"});
  if (!e) return make_error(e.error());
  LoadedConfig out;
  const YAML::Node* sweep = nullptr;
  for (const auto& [key, v] : *e) {
    Status st;
    if (key == "schema_version") {
      auto s = r.str(v, "schemaVersion");
      if (!s) return make_error(s.error());
      if (s->rfind("2", 0) != 0) return make_error(r.fail(v, fmt::format("schemaVersion '{}': servebench reads \"2.0\"", *s)));
    } else if (key == "random_seed") {
      auto i = r.integer(v, "random_seed", 0);
      if (!i) return make_error(i.error());
      r.add(&out.args, v, "--random-seed", std::to_string(*i));
    } else if (key == "benchmark") {
      st = map_benchmark(r, v, &out.args);
    } else if (key == "model" || key == "models") {
      st = map_models(r, v, key, &out.args);
    } else if (key == "dataset") {
      st = map_dataset(r, v, key, &out.args);
    } else if (key == "multi_run") {
      st = map_multi_run(r, v, &out.args);
    } else if (key == "sweep") {
      sweep = &v;
    } else if (key == "no_sweep_table") {
      auto b = r.boolean(v, "no_sweep_table");
      if (!b) return make_error(b.error());
      if (*b) r.add_switch(&out.args, v, "--no-sweep-table");
    } else if (key == "servebench_flags") {
      st = map_flag_words(r, v, &out.args);
    }  // variables: read above; plot: the plot command's settings, not a run's
    if (!st) return make_error(st.error());
  }
  if (sweep != nullptr)
    if (auto st = map_sweep(r, *sweep, &out.args); !st) return make_error(st.error());
  return out;
}

Result<LoadedConfig> load_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("cannot read config file '{}'; check the path (servebench config init writes one)", path));
  std::ostringstream ss;
  ss << in.rdbuf();
  return load_text(ss.str(), path);
}

std::vector<std::string> to_argv(const std::vector<FlagArg>& args) {
  std::vector<std::string> out;
  for (const auto& a : args) {
    out.push_back(a.flag);
    if (a.has_value) out.push_back(a.value);
  }
  return out;
}

namespace {

// Every spelling of the table flag spelled `name` ("--isl" → its spec's names, "--no-streaming"
// → "--streaming" too), else {name}.
std::set<std::string> flag_names(const std::string& name) {
  for (const auto& f : config::profile_flags()) {
    const auto all = config::flag_spellings(f);
    std::set<std::string> names(all.begin(), all.end());
    if (names.count(name)) return names;
  }
  return {name};
}

}  // namespace

Result<std::vector<std::string>> expand_profile_argv(int argc, const char* const* argv, std::vector<FlagArg>* args_out) {
  std::vector<std::string> rest;
  std::string file;
  for (int i = 0; i < argc; ++i) {
    const std::string a = argv[i];
    if (i > 0 && (a == "-f" || a == "--config")) {
      if (i + 1 >= argc)
        return make_error(ErrorCode::kInvalidArgument, a + " needs a YAML file (servebench config init writes one)");
      file = argv[++i];
    } else if (a.rfind("--config=", 0) == 0) {
      file = a.substr(9);
    } else {
      rest.push_back(a);
    }
  }
  if (file.empty()) return rest;
  auto loaded = load_file(file);
  if (!loaded) return make_error(loaded.error());
  // Which flags the command line sets (every spelling of each).
  std::set<std::string> given;
  for (size_t i = 1; i < rest.size(); ++i) {
    if (rest[i].size() < 2 || rest[i][0] != '-') continue;
    const std::string name = rest[i].substr(0, rest[i].find('='));
    for (const auto& n : flag_names(name)) given.insert(n);
  }
  std::vector<std::string> out = {rest.empty() ? "profile" : rest[0]};
  for (const auto& a : loaded->args) {
    if (given.count(a.flag)) continue;
    if (args_out) args_out->push_back(a);
    out.push_back(a.flag);
    if (a.has_value) out.push_back(a.value);
  }
  out.insert(out.end(), rest.begin() + (rest.empty() ? 0 : 1), rest.end());
  return out;
}

}  // namespace servebench::yaml_config
