#include "shard/mpi_run.h"

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>

namespace servebench::shard {
namespace {

namespace fs = std::filesystem;
constexpr int kTagMeta = 71;      // a rank's folder path and shard.json
constexpr int kTagDecision = 72;  // rank 0: "send" or "have"
constexpr int kTagFiles = 73;     // the folder's file names, then each file

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return {};
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

bool started_by_open_mpi() {
  const char* size = std::getenv("OMPI_COMM_WORLD_SIZE");
  return size != nullptr && *size != '\0';
}

}  // namespace

std::string merged_dir_for(const std::string& shard_dir) {
  fs::path p = fs::path(shard_dir).lexically_normal();
  if (!p.has_filename()) p = p.parent_path();
  std::string name = p.filename().string();
  const size_t at = name.rfind("-shard");
  if (at != std::string::npos) name.resize(at);
  return (p.parent_path() / name).string();
}

Result<std::unique_ptr<MpiShardRun>> MpiShardRun::maybe_open(const config::BenchmarkConfig& cfg,
                                                               std::vector<std::string>* warnings,
                                                               const std::string& library) {
  if (cfg.launcher != "mpi" || cfg.shard_count < 2 || !cfg.rendezvous.empty() ||
      cfg.start_at_wall_ns || !started_by_open_mpi())
    return std::unique_ptr<MpiShardRun>();
  auto world = MpiWorld::open(library);
  if (!world) {
    warnings->push_back(fmt::format(
        "no MPI barrier ({}): the {} shards start unsynchronised and are not merged; give "
        "--rendezvous HOST:PORT or --start-at, then servebench merge",
        world.error().message, cfg.shard_count));
    return std::unique_ptr<MpiShardRun>();
  }
  if ((*world)->rank() != cfg.shard_index || (*world)->size() != cfg.shard_count)
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("MPI says rank {} of {}, the placement says shard {}/{}: give "
                                  "--launcher mpi without --shard under mpirun",
                                  (*world)->rank(), (*world)->size(), cfg.shard_index,
                                  cfg.shard_count));
  return std::unique_ptr<MpiShardRun>(new MpiShardRun(std::move(*world)));
}

Result<int64_t> MpiShardRun::meet(const core::Clock& clock) {
  SB_TRY(world_->barrier());
  const int64_t mine = clock.wall_ns();
  auto root = world_->broadcast(mine);
  if (!root) return tl::unexpected(root.error());
  return mine - *root;
}

Status MpiShardRun::send_folder(const std::string& shard_dir) {
  std::string names;
  for (const auto& e : fs::directory_iterator(shard_dir))
    if (e.is_regular_file()) names += e.path().filename().string() + "\n";
  SB_TRY(world_->send(0, kTagFiles, names));
  std::istringstream list(names);
  for (std::string name; std::getline(list, name);)
    SB_TRY(world_->send_file(0, kTagFiles, (fs::path(shard_dir) / name).string()));
  return {};
}

// Rank 0: where `rank`'s folder is on this host, received over MPI when it is not already here.
Result<std::string> MpiShardRun::receive_folder(int rank, const std::string& parent) {
  auto meta = world_->receive(rank, kTagMeta);
  if (!meta) return tl::unexpected(meta.error());
  const size_t nl = meta->find('\n');
  if (nl == std::string::npos) return make_error(ErrorCode::kIo, "malformed MPI shard message");
  const fs::path theirs = meta->substr(0, nl);
  const std::string manifest = meta->substr(nl + 1);
  const fs::path here = fs::path(parent) / theirs.filename();
  // SERVEBENCH_MPI_ALWAYS_SEND=1: every folder travels over MPI (tests the transfer on one host).
  const char* always = std::getenv("SERVEBENCH_MPI_ALWAYS_SEND");
  const bool may_skip = always == nullptr || std::string_view(always) != "1";
  for (const fs::path& p : {theirs, here}) {
    // The same path is never received onto itself, whatever the test switch says.
    if ((may_skip || (p == here && theirs == here)) && read_text(p / kManifestFile) == manifest) {
      SB_TRY(world_->send(rank, kTagDecision, "have"));
      return p.string();
    }
  }
  SB_TRY(world_->send(rank, kTagDecision, "send"));
  std::error_code ec;
  fs::create_directories(here, ec);
  if (ec) return make_error(ErrorCode::kIo, "cannot create " + here.string() + ": " + ec.message());
  auto names = world_->receive(rank, kTagFiles);
  if (!names) return tl::unexpected(names.error());
  std::istringstream list(*names);
  for (std::string name; std::getline(list, name);) {
    if (name.empty() || name.find('/') != std::string::npos || name == "." || name == "..")
      return make_error(ErrorCode::kIo, "malformed file name from rank " + std::to_string(rank));
    SB_TRY(world_->receive_file(rank, kTagFiles, (here / name).string()));
  }
  return here.string();
}

Result<std::optional<MergeOutcome>> MpiShardRun::gather_and_merge(const std::string& shard_dir,
                                                                  const MergeOptions& merge_template) {
  const std::string abs = fs::absolute(shard_dir).lexically_normal().string();
  if (world_->rank() != 0) {
    const std::string meta = abs + "\n" + read_text(fs::path(abs) / kManifestFile);
    SB_TRY(world_->send(0, kTagMeta, meta));
    auto decision = world_->receive(0, kTagDecision);
    if (!decision) return tl::unexpected(decision.error());
    if (*decision == "send")
      SB_TRY(send_folder(abs));
    SB_TRY(world_->finish());
    return std::optional<MergeOutcome>();
  }
  MergeOptions o = merge_template;
  o.shard_dirs = {abs};
  const std::string parent = fs::path(abs).parent_path().string();
  for (int r = 1; r < world_->size(); ++r) {
    auto dir = receive_folder(r, parent);
    if (!dir) return tl::unexpected(dir.error());
    o.shard_dirs.push_back(*dir);
  }
  SB_TRY(world_->finish());
  o.output_dir = merged_dir_for(abs);
  auto merged = merge_shards(o);
  if (!merged) return tl::unexpected(merged.error());
  return std::optional<MergeOutcome>(std::move(*merged));
}

}  // namespace servebench::shard
