// Scale-out flags (config/flag_table.h; docs/scale-out.md): which share of the plan this
// process runs and when it starts. They change where a run's requests go, not what the plan
// is, so none is exported to input_config (every shard exports the same one).
#include <cctype>
#include <cmath>
#include <ctime>

#include "config/flag_kinds.h"

namespace servebench::config {
namespace {

using namespace flags;  // NOLINT: the builders read as a table

constexpr const char* kStartAtForms =
    "expected Unix seconds (1767225600 or 1767225600.5) or ISO 8601 UTC "
    "(2026-01-01T00:00:00Z)";

Status apply_shard(const FlagInput& in, C* c) {
  int i = -1, n = -1;
  char tail = 0;
  if (std::sscanf(in.text.c_str(), "%d/%d%c", &i, &n, &tail) != 2 || n < 1 || i < 0 || i >= n ||
      in.text.find_first_of(" +-") != std::string::npos)
    return usage("--shard '" + in.text +
                 "' is invalid; expected I/N with 0 <= I < N (e.g. --shard 0/4)");
  c->shard_index = i;
  c->shard_count = n;
  return {};
}

Result<int64_t> parse_unix_seconds(const std::string& text) {
  size_t used = 0;
  double s = 0;
  try {
    s = std::stod(text, &used);
  } catch (...) {
    used = 0;
  }
  if (used != text.size() || !std::isfinite(s) || s < 0 || s > 1e11 || !std::isdigit(text[0]))
    return usage("--start-at '" + text + "' is invalid; " + kStartAtForms);
  return static_cast<int64_t>(std::llround(s * 1e9));
}

}  // namespace

Result<int64_t> parse_start_at(const std::string& text) {
  if (text.find('T') == std::string::npos) return parse_unix_seconds(text);
  std::tm tm{};
  int used = 0;
  if (std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
                  &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &used) != 6 || used != 19)
    return usage("--start-at '" + text + "' is invalid; " + kStartAtForms);
  int64_t frac_ns = 0;
  size_t at = 19;
  if (at < text.size() && text[at] == '.') {
    int64_t scale = 100'000'000;
    for (++at; at < text.size() && std::isdigit(static_cast<unsigned char>(text[at])); ++at) {
      frac_ns += (text[at] - '0') * scale;
      scale /= 10;
    }
  }
  const std::string zone = text.substr(at);
  if (zone != "Z" && zone != "+00:00" && zone != "+0000")
    return usage("--start-at '" + text + "' must be UTC (end it with Z); " + kStartAtForms);
  if (tm.tm_mon < 1 || tm.tm_mon > 12 || tm.tm_mday < 1 || tm.tm_mday > 31 || tm.tm_hour > 23 ||
      tm.tm_min > 59 || tm.tm_sec > 60)
    return usage("--start-at '" + text + "' is invalid; " + kStartAtForms);
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  const std::time_t secs = timegm(&tm);
  if (secs < 0)
    return usage("--start-at '" + text + "' is invalid; " + kStartAtForms);
  return static_cast<int64_t>(secs) * 1'000'000'000 + frac_ns;
}

void add_shard_flags(std::vector<FlagSpec>* out) {
  {
    FlagSpec s = base("--shard",
                      "Run shard I of N of the one plan (every N-th arrival, session or "
                      "concurrency slot); merge the shards' folders with servebench merge",
                      "");
    s.apply = apply_shard;
    out->push_back(std::move(s));
  }
  {
    FlagSpec s = base("--start-at",
                      "Wait until this wall time before sending (Unix seconds or ISO 8601 UTC), "
                      "so every shard starts together",
                      "");
    s.apply = [](const FlagInput& in, C* c) -> Status {
      auto t = parse_start_at(in.text);
      if (!t) return tl::unexpected(t.error());
      c->start_at_wall_ns = *t;
      return {};
    };
    out->push_back(std::move(s));
  }
  {
    FlagSpec s = base("--launcher",
                      "Where the shard number comes from: auto (MPI, Kubernetes Indexed Job or "
                      "Slurm when their environment is present), none, mpi, k8s or slurm",
                      "");
    s.apply = [](const FlagInput& in, C* c) -> Status {
      for (const char* name : {"auto", "none", "mpi", "k8s", "slurm"}) {
        if (in.text == name) {
          c->launcher = in.text;
          return {};
        }
      }
      return usage("--launcher '" + in.text + "' is invalid; expected auto, none, mpi, k8s or slurm");
    };
    s.default_text = "auto";
    out->push_back(std::move(s));
  }
  {
    FlagSpec s = base("--rendezvous",
                      "Start barrier over TCP: shard 0 listens on HOST:PORT, the others connect; "
                      "all start together, each shard's clock offset to shard 0 is recorded",
                      "");
    s.apply = [](const FlagInput& in, C* c) -> Status {
      const auto colon = in.text.rfind(':');
      if (colon == std::string::npos || colon == 0 || colon + 1 == in.text.size() ||
          in.text.find_first_not_of("0123456789", colon + 1) != std::string::npos)
        return usage("--rendezvous '" + in.text + "' is invalid; expected HOST:PORT");
      c->rendezvous = in.text;
      return {};
    };
    out->push_back(std::move(s));
  }
  {
    FlagSpec s = base("--rendezvous-timeout", "Seconds to wait for every shard at the rendezvous", "");
    s.apply = [](const FlagInput& in, C* c) -> Status {
      auto v = to_seconds("--rendezvous-timeout", in.text, false);
      if (!v) return tl::unexpected(v.error());
      c->rendezvous_timeout_ns = *v;
      return {};
    };
    s.default_text = "600";
    out->push_back(std::move(s));
  }
}

}  // namespace servebench::config
