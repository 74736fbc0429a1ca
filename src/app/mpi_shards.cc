#include "app/mpi_shards.h"

#include <cstdio>

#include "report_html/report_html.h"

namespace servebench::app {

int gather_mpi_shards(shard::MpiShardRun& mpi, const config::BenchmarkConfig& cfg,
                      const std::string& shard_dir, bool print_console,
                      std::vector<std::string>* warnings) {
  shard::MergeOptions o;
  o.profile_export_prefix = cfg.profile_export_prefix;
  o.print_console = print_console;
  auto merged = mpi.gather_and_merge(shard_dir, o);
  if (!merged) {
    warnings->push_back("MPI gather of the shards failed (" + merged.error().message +
                        "); merge the shard folders with servebench merge");
    return 0;
  }
  if (!*merged) return 0;  // not rank 0
  const std::string out = shard::merged_dir_for(shard_dir);
  if (print_console) std::fputs(shard::health_table(**merged).c_str(), stdout);
  if (!cfg.no_report) {
    auto html = report_html::write_report({out, cfg.profile_export_prefix});
    if (!html) warnings->push_back("merged report.html not written: " + html.error().message);
  }
  std::fprintf(stderr, "servebench profile: MPI rank 0 merged %zu shards (%lld records) into %s\n",
               (*merged)->shards.size(), static_cast<long long>((*merged)->records), out.c_str());
  for (const auto& m : (*merged)->exported.gate_messages)
    std::fprintf(stderr, "servebench profile: merged run: gate failed: %s\n", m.c_str());
  return (*merged)->exported.gate_failed ? 1 : 0;
}

}  // namespace servebench::app
