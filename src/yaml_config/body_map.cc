#include "yaml_config/body_map.h"

#include <fmt/format.h>

#include <optional>

#include "yaml_config/distributions.h"

namespace servebench::yaml_config {
namespace {


using Out = std::vector<FlagArg>;

// Scalar keys that map 1:1 onto a flag.
enum class Kind { kString, kInt, kNumber, kDuration, kSwitch };
struct Simple {
  const char* key;
  const char* flag;
  Kind kind;
};

Status add_simple(const Reader& r, const Simple& s, const YAML::Node& n, const std::string& path, Out* out) {
  switch (s.kind) {
    case Kind::kString: {
      auto v = r.str(n, path);
      if (!v) return make_error(v.error());
      r.add(out, n, s.flag, *v);
      return {};
    }
    case Kind::kInt: {
      auto v = r.integer(n, path, 0);
      if (!v) return make_error(v.error());
      r.add(out, n, s.flag, std::to_string(*v));
      return {};
    }
    case Kind::kNumber: {
      auto v = r.number(n, path);
      if (!v) return make_error(v.error());
      r.add(out, n, s.flag, number_text(*v));
      return {};
    }
    case Kind::kDuration: {
      auto v = r.duration_s(n, path);
      if (!v) return make_error(v.error());
      r.add(out, n, s.flag, number_text(*v));
      return {};
    }
    case Kind::kSwitch: {
      auto v = r.boolean(n, path);
      if (!v) return make_error(v.error());
      if (*v) r.add_switch(out, n, s.flag);
      return {};
    }
  }
  return {};
}

// Walks a mapping whose keys are `simple` entries or handled by `special` (returns false when
// it does not know the key).
template <typename Special>
Status walk(const Reader& r, const YAML::Node& n, const std::string& path,
            const std::vector<Simple>& simple, std::vector<std::string> extra, Out* out, Special special) {
  for (const auto& s : simple) extra.push_back(s.key);
  auto e = r.entries(n, path, extra);
  if (!e) return make_error(e.error());
  for (const auto& [key, value] : *e) {
    bool done = false;
    for (const auto& s : simple)
      if (key == s.key) {
        SB_TRY(add_simple(r, s, value, path + "." + key, out));
        done = true;
      }
    if (!done) SB_TRY(special(key, value));
  }
  return {};
}

const std::vector<Simple> kEndpoint = {
    {"type", "--endpoint-type", Kind::kString},
    {"path", "--custom-endpoint", Kind::kString},
    {"streaming", "--streaming", Kind::kSwitch},
    {"timeout", "--request-timeout-seconds", Kind::kDuration},
    {"api_key", "--api-key", Kind::kString},
    {"http_version", "--http-version", Kind::kString},
    {"insecure", "--insecure", Kind::kSwitch},
    {"connection_reuse", "--connection-reuse-strategy", Kind::kString},
    {"use_legacy_max_tokens", "--use-legacy-max-tokens", Kind::kSwitch},
    {"use_server_token_count", "--use-server-token-count", Kind::kSwitch},
};

Status map_endpoint(const Reader& r, const YAML::Node& n, Out* out) {
  const std::string path = "benchmark.endpoint";
  return walk(r, n, path, kEndpoint, {"url", "urls", "headers", "extra"}, out,
              [&](const std::string& key, const YAML::Node& v) -> Status {
                if (key == "url" || key == "urls") {
                  if (v.IsSequence()) {
                    for (const auto& u : v) {
                      auto s = r.str(u, path + "." + key);
                      if (!s) return make_error(s.error());
                      r.add(out, u, "--url", *s);
                    }
                    return {};
                  }
                  auto s = r.str(v, path + "." + key);
                  if (!s) return make_error(s.error());
                  r.add(out, v, "--url", *s);
                  return {};
                }
                if (key == "headers") {
                  if (!v.IsMap()) return make_error(r.fail(v, path + ".headers must map names to values"));
                  for (auto it = v.begin(); it != v.end(); ++it) {
                    auto s = r.str(it->second, path + ".headers");
                    if (!s) return make_error(s.error());
                    r.add(out, it->first, "--header", it->first.Scalar() + ": " + *s);
                  }
                  return {};
                }
                // extra: request-body fields, each "key:value" as --extra-inputs takes them.
                if (!v.IsMap()) return make_error(r.fail(v, path + ".extra must map body fields to values"));
                for (auto it = v.begin(); it != v.end(); ++it) {
                  auto s = r.str(it->second, path + ".extra");
                  if (!s) return make_error(s.error());
                  r.add(out, it->first, "--extra-inputs", it->first.Scalar() + ":" + *s);
                }
                return {};
              });
}

const std::vector<Simple> kPhase = {
    {"concurrency", "--concurrency", Kind::kInt},
    {"requests", "--request-count", Kind::kInt},
    {"duration", "--benchmark-duration", Kind::kDuration},
    {"sessions", "--num-sessions", Kind::kInt},
    {"users", "--num-users", Kind::kInt},
    {"smoothness", "--arrival-smoothness", Kind::kNumber},
    {"grace_period", "--benchmark-grace-period", Kind::kDuration},
    {"concurrency_ramp", "--concurrency-ramp-duration", Kind::kDuration},
    {"rate_ramp", "--request-rate-ramp-duration", Kind::kDuration},
    {"prefill_concurrency", "--prefill-concurrency", Kind::kInt},
    {"auto_offset", "--fixed-schedule-auto-offset", Kind::kSwitch},
    {"start_offset", "--fixed-schedule-start-offset", Kind::kInt},
    {"end_offset", "--fixed-schedule-end-offset", Kind::kInt},
};

const std::vector<Simple> kWarmup = {
    {"requests", "--warmup-request-count", Kind::kInt},
    {"duration", "--warmup-duration", Kind::kDuration},
    {"sessions", "--num-warmup-sessions", Kind::kInt},
};

Status map_phase(const Reader& r, const YAML::Node& n, const std::string& path, bool warmup, Out* out) {
  if (warmup)
    return walk(r, n, path, kWarmup, {"name", "kind", "type", "exclude_from_results"}, out,
                [](const std::string&, const YAML::Node&) -> Status { return {}; });
  std::string type = "concurrency";
  if (n.IsMap() && n["type"]) {
    auto t = r.str(n["type"], path + ".type");
    if (!t) return make_error(t.error());
    type = *t;
  }
  const bool open_loop = type == "poisson" || type == "gamma" || type == "constant";
  if (!open_loop && type != "concurrency" && type != "fixed_schedule" && type != "user_centric")
    return make_error(r.fail(n["type"], fmt::format("{}.type '{}' is not one of concurrency, poisson, gamma, "
                                                    "constant, fixed_schedule, user_centric", path, type)));
  if (open_loop) r.add(out, n["type"], "--arrival-pattern", type);
  if (type == "fixed_schedule") r.add_switch(out, n["type"], "--fixed-schedule");
  return walk(r, n, path, kPhase, {"name", "kind", "type", "rate", "cancellation", "exclude_from_results"}, out,
              [&](const std::string& key, const YAML::Node& v) -> Status {
                if (key == "rate") {
                  auto x = r.number(v, path + ".rate");
                  if (!x) return make_error(x.error());
                  r.add(out, v, type == "user_centric" ? "--user-centric-rate" : "--request-rate", number_text(*x));
                } else if (key == "cancellation") {
                  return walk(r, v, path + ".cancellation",
                              {{"rate", "--request-cancellation-rate", Kind::kNumber},
                               {"delay", "--request-cancellation-delay", Kind::kDuration}},
                              {}, out, [](const std::string&, const YAML::Node&) -> Status { return {}; });
                }
                return {};
              });
}

// A phase is a warm-up by its kind, else by its name.
bool is_warmup(const YAML::Node& phase) {
  if (phase["kind"]) return phase["kind"].Scalar() == "warmup";
  if (phase["name"]) return phase["name"].Scalar() == "warmup";
  return false;
}

Status map_phases(const Reader& r, const YAML::Node& n, Out* out) {
  if (n.IsMap()) return map_phase(r, n, "benchmark.phases", false, out);
  if (!n.IsSequence()) return make_error(r.fail(n, "benchmark.phases must be a mapping or a list of phases"));
  int profiling = 0;
  for (size_t i = 0; i < n.size(); ++i) {
    const bool warm = is_warmup(n[i]);
    if (!warm && ++profiling > 1)
      return make_error(r.fail(n[i], "servebench runs one profiling phase per run; put more load levels "
                                     "in a sweep: (grid or scenarios)"));
    SB_TRY(map_phase(r, n[i], fmt::format("benchmark.phases[{}]", i), warm, out));
  }
  return {};
}

Status map_slos(const Reader& r, const YAML::Node& n, Out* out) {
  if (!n.IsMap()) return make_error(r.fail(n, "benchmark.slos must map metric tags to thresholds"));
  std::string spec;
  for (auto it = n.begin(); it != n.end(); ++it) {
    auto v = r.number(it->second, "benchmark.slos." + it->first.Scalar());
    if (!v) return make_error(v.error());
    spec += (spec.empty() ? "" : " ") + it->first.Scalar() + ":" + number_text(*v);
  }
  r.add(out, n, "--goodput", spec);
  return {};
}

const std::vector<Simple> kArtifacts = {
    {"dir", "--artifact-dir", Kind::kString},
    {"prefix", "--profile-export-prefix", Kind::kString},
    {"slice_duration", "--slice-duration", Kind::kDuration},
    {"export_level", "--export-level", Kind::kString},
};

Status map_telemetry(const Reader& r, const YAML::Node& n, const std::string& path, const std::string& on,
                     const std::string& off, Out* out) {
  if (n.IsScalar()) {
    auto b = r.boolean(n, path);
    if (!b) return make_error(b.error());
    if (*b) r.add_switch(out, n, on);
    else r.add_switch(out, n, off);
    return {};
  }
  return walk(r, n, path, {}, {"enabled", "urls"}, out, [&](const std::string& key, const YAML::Node& v) -> Status {
    if (key == "enabled") {
      auto b = r.boolean(v, path + ".enabled");
      if (!b) return make_error(b.error());
      if (!*b) r.add_switch(out, v, off);
      else if (!n["urls"]) r.add_switch(out, v, on);
      return {};
    }
    if (!v.IsSequence()) return make_error(r.fail(v, path + ".urls must be a list"));
    for (const auto& u : v) {
      auto s = r.str(u, path + ".urls");
      if (!s) return make_error(s.error());
      r.add(out, u, on, *s);
    }
    return {};
  });
}

}  // namespace

Status map_models(const Reader& r, const YAML::Node& n, const std::string& path, Out* out) {
  std::string names;
  auto one = [&](const YAML::Node& m) -> Status {
    const YAML::Node name = m.IsMap() ? m["name"] : m;
    if (!name) return make_error(r.fail(m, path + ": each model needs a name"));
    auto s = r.str(name, path);
    if (!s) return make_error(s.error());
    names += (names.empty() ? "" : ",") + *s;
    return {};
  };
  if (n.IsSequence()) {
    for (const auto& m : n) SB_TRY(one(m));
  } else if (n.IsMap() && n["items"]) {
    for (const auto& m : n["items"]) SB_TRY(one(m));
  } else {
    SB_TRY(one(n));
  }
  r.add(out, n, "--model", names);
  return {};
}

Status map_dataset(const Reader& r, const YAML::Node& n, const std::string& path, Out* out) {
  const YAML::Node ds = n.IsSequence() ? (n.size() == 1 ? n[0] : YAML::Node()) : n;
  if (!ds) return make_error(r.fail(n, path + ": servebench takes exactly one dataset"));
  std::optional<std::vector<Component>> isl, osl;
  const std::vector<Simple> simple = {
      {"entries", "--num-dataset-entries", Kind::kInt},
      {"path", "--input-file", Kind::kString},
      {"format", "--custom-dataset-type", Kind::kString},
      {"sampling", "--dataset-sampling-strategy", Kind::kString},
      {"sampling_strategy", "--dataset-sampling-strategy", Kind::kString},
  };
  auto length = [&](const std::string& key, const YAML::Node& v, const std::string& p) -> Status {
    auto d = read_distribution(r, v, p + "." + key);
    if (!d) return make_error(d.error());
    (key == "isl" ? isl : osl) = std::move(*d);
    return {};
  };
  SB_TRY(walk(r, ds, path, simple, {"name", "type", "prompts", "isl", "osl", "turns", "turn_delay"}, out,
              [&](const std::string& key, const YAML::Node& v) -> Status {
                if (key == "isl" || key == "osl") return length(key, v, path);
                if (key == "turns" || key == "turn_delay") {
                  auto d = read_distribution(r, v, path + "." + key);
                  if (!d) return make_error(d.error());
                  if (d->size() != 1) return make_error(r.fail(v, path + "." + key + " takes a fixed or normal shape"));
                  const std::string base = key == "turns" ? "--session-turns" : "--session-turn-delay";
                  r.add(out, v, base + "-mean", number_text(d->front().mean));
                  r.add(out, v, base + "-stddev", number_text(d->front().stddev));
                  return {};
                }
                if (key == "prompts")
                  return walk(r, v, path + ".prompts",
                              {{"block_size", "--isl-block-size", Kind::kInt},
                               {"sequence_distribution", "--sequence-distribution", Kind::kString}},
                              {"isl", "osl"}, out,
                              [&](const std::string& k2, const YAML::Node& v2) { return length(k2, v2, path + ".prompts"); });
                if (key == "type") {
                  auto t = r.str(v, path + ".type");
                  if (!t) return make_error(t.error());
                  if (*t != "synthetic" && *t != "file")
                    return make_error(r.fail(v, fmt::format("{}.type '{}': servebench reads synthetic or file datasets", path, *t)));
                }
                return {};
              }));
  return add_length_flags(r, ds, isl, osl, out);
}

Status map_benchmark(const Reader& r, const YAML::Node& body, Out* out) {
  const std::vector<Simple> simple = {{"random_seed", "--random-seed", Kind::kInt},
                                      {"fail_on", "--fail-on", Kind::kString}};
  return walk(r, body, "benchmark", simple,
              {"model", "models", "endpoint", "dataset", "datasets", "phases", "load", "slos", "artifacts",
               "gpu_telemetry", "server_metrics", "tokenizer"},
              out, [&](const std::string& key, const YAML::Node& v) -> Status {
                const std::string path = "benchmark." + key;
                if (key == "model" || key == "models") return map_models(r, v, path, out);
                if (key == "endpoint") return map_endpoint(r, v, out);
                if (key == "dataset" || key == "datasets") return map_dataset(r, v, path, out);
                if (key == "phases") return map_phases(r, v, out);
                if (key == "load") return map_phase(r, v, path, false, out);
                if (key == "slos") return map_slos(r, v, out);
                if (key == "artifacts")
                  return walk(r, v, path, kArtifacts, {"summary", "records", "report"}, out,
                              [&](const std::string& k2, const YAML::Node& v2) -> Status {
                                if (k2 != "report") return {};  // summary/records: always written
                                auto b = r.boolean(v2, path + ".report");
                                if (!b) return make_error(b.error());
                                if (!*b) r.add_switch(out, v2, "--no-report");
                                return {};
                              });
                if (key == "gpu_telemetry")
                  return map_telemetry(r, v, path, "--gpu-telemetry", "--no-gpu-telemetry", out);
                if (key == "server_metrics")
                  return map_telemetry(r, v, path, "--server-metrics", "--no-server-metrics", out);
                // tokenizer: a name or {name, revision}
                if (v.IsScalar()) {
                  auto s = r.str(v, path);
                  if (!s) return make_error(s.error());
                  r.add(out, v, "--tokenizer", *s);
                  return {};
                }
                return walk(r, v, path, {{"name", "--tokenizer", Kind::kString}, {"revision", "--tokenizer-revision", Kind::kString}},
                            {}, out, [](const std::string&, const YAML::Node&) -> Status { return {}; });
              });
}

std::string sweep_flag(const std::string& raw) {
  std::string name = raw;
  for (const char* prefix : {"phases.profiling.", "load.", "datasets.default.prompts.", "dataset.prompts.",
                             "datasets.default.", "dataset."})
    if (name.rfind(prefix, 0) == 0) name = name.substr(std::string(prefix).size());
  name = snake_case(name);
  static const std::vector<std::pair<std::string, std::string>> kMap = {
      {"concurrency", "--concurrency"}, {"rate", "--request-rate"}, {"requests", "--request-count"},
      {"duration", "--benchmark-duration"}, {"sessions", "--num-sessions"}, {"users", "--num-users"},
      {"prefill_concurrency", "--prefill-concurrency"}, {"isl", "--isl"}, {"osl", "--osl"},
      {"smoothness", "--arrival-smoothness"}, {"grace_period", "--benchmark-grace-period"}};
  for (const auto& [k, f] : kMap)
    if (k == name) return f;
  return "";
}

}  // namespace servebench::yaml_config
