#include "shard/placement.h"

#include <cstdlib>
#include <string>

#include <fmt/format.h>

namespace servebench::shard {
namespace {

struct EnvPair {
  const char* index;
  const char* count;
};

// Variables each launcher sets, in the order they are tried.
constexpr EnvPair kMpi[] = {{"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"},
                            {"PMI_RANK", "PMI_SIZE"},
                            {"PMIX_RANK", "OMPI_COMM_WORLD_SIZE"}};
constexpr EnvPair kKubernetes[] = {{"JOB_COMPLETION_INDEX", "SERVEBENCH_SHARD_COUNT"}};
constexpr EnvPair kSlurm[] = {{"SLURM_PROCID", "SLURM_NTASKS"}};

bool parse_int(const char* text, int32_t min, int32_t* out) {
  if (text == nullptr || *text == 0) return false;
  char* end = nullptr;
  const long v = std::strtol(text, &end, 10);
  if (*end != 0 || v < min || v > 1'000'000) return false;
  *out = static_cast<int32_t>(v);
  return true;
}

// Found: the pair's index variable is set. Then both must be valid.
template <size_t N>
Result<bool> from_env(const EnvPair (&pairs)[N], Launcher l, const EnvLookup& env, Placement* out) {
  for (const auto& p : pairs) {
    const char* index = env(p.index);
    if (index == nullptr) continue;
    const char* count = env(p.count);
    int32_t i = 0, n = 0;
    if (!parse_int(index, 0, &i))
      return make_error(ErrorCode::kInvalidArgument, fmt::format("{}='{}' is not a shard index; expected an "
                                                       "integer >= 0",
                                                       p.index, index));
    if (!parse_int(count, 1, &n) || i >= n)
      return make_error(ErrorCode::kInvalidArgument,
                        fmt::format("{}='{}' with {}={}: expected a shard count above the index; "
                                    "set {} (or pass --shard I/N)",
                                    p.count, count ? count : "", p.index, index, p.count));
    *out = Placement{l, i, n, true};
    return true;
  }
  return false;
}

Result<bool> try_launcher(Launcher l, const EnvLookup& env, Placement* out) {
  switch (l) {
    case Launcher::kMpi: return from_env(kMpi, l, env, out);
    case Launcher::kKubernetes: return from_env(kKubernetes, l, env, out);
    case Launcher::kSlurm: return from_env(kSlurm, l, env, out);
    case Launcher::kNone: break;
  }
  return false;
}

}  // namespace

std::string_view launcher_name(Launcher l) {
  switch (l) {
    case Launcher::kMpi: return "mpi";
    case Launcher::kKubernetes: return "k8s";
    case Launcher::kSlurm: return "slurm";
    case Launcher::kNone: break;
  }
  return "none";
}

EnvLookup process_env() {
  return [](const char* name) -> const char* { return std::getenv(name); };
}

Result<Placement> resolve_placement(const std::string& launcher, int32_t flag_index,
                                    int32_t flag_count, const EnvLookup& env) {
  Placement p;
  const Launcher named = launcher == "mpi"     ? Launcher::kMpi
                         : launcher == "k8s"   ? Launcher::kKubernetes
                         : launcher == "slurm" ? Launcher::kSlurm
                                               : Launcher::kNone;
  if (flag_count > 0) {
    p = Placement{named, flag_index, flag_count, true};
    return p;
  }
  if (launcher == "none") return p;
  if (named != Launcher::kNone) {
    auto found = try_launcher(named, env, &p);
    if (!found) return tl::unexpected(found.error());
    if (!*found)
      return make_error(ErrorCode::kInvalidArgument,
                        fmt::format("--launcher {}: its environment is missing (no {}); start "
                                    "servebench under {} or pass --shard I/N",
                                    launcher,
                                    named == Launcher::kMpi ? "OMPI_COMM_WORLD_RANK or PMI_RANK"
                                    : named == Launcher::kSlurm ? "SLURM_PROCID"
                                                                : "JOB_COMPLETION_INDEX",
                                    named == Launcher::kMpi ? "mpirun" : named == Launcher::kSlurm ? "srun" : "an Indexed Job"));
    return p;
  }
  for (Launcher l : {Launcher::kMpi, Launcher::kKubernetes, Launcher::kSlurm}) {
    auto found = try_launcher(l, env, &p);
    if (!found) return tl::unexpected(found.error());
    if (*found) return p;
  }
  return p;
}

}  // namespace servebench::shard
