// bench_baseten_parse FILE [REPEATS]: wall and CPU time to (1) decode every column the Baseten
// loader reads and (2) run the whole loader (columns, sessions, bodies), best of REPEATS.
#include <fmt/format.h>

#include <chrono>
#include <ctime>
#include <fstream>
#include <sstream>

#include "dataset/loaders/baseten_trace.h"
#include "parquet/reader.h"

namespace {

double cpu_s() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }
double wall_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    fmt::print(stderr, "usage: bench_baseten_parse FILE [REPEATS]\n");
    return 2;
  }
  const int repeats = argc > 2 ? std::atoi(argv[2]) : 3;
  std::ifstream in(argv[1], std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  const std::string bytes = ss.str();
  double best_cols = 1e9, best_cols_cpu = 1e9, best_all = 1e9, best_all_cpu = 1e9;
  size_t rows = 0, sessions = 0;
  for (int i = 0; i < repeats; ++i) {
    double w = wall_s(), c = cpu_s();
    auto f = servebench::parquet::ParquetFile::open(bytes, argv[1]);
    if (!f) {
      fmt::print(stderr, "{}\n", f.error().message);
      return 2;
    }
    for (const char* col : {"timestamp_start_unix_ms", "prompt", "input_tokens", "output_tokens",
                            "provided_session_id", "total_hashes", "block_size", "duration_e2e_ms"}) {
      auto column = f->read_column(col);
      if (!column) {
        fmt::print(stderr, "{}\n", column.error().message);
        return 2;
      }
      rows = column->rows();
    }
    best_cols = std::min(best_cols, wall_s() - w);
    best_cols_cpu = std::min(best_cols_cpu, cpu_s() - c);
    w = wall_s();
    c = cpu_s();
    auto file = servebench::dataset::parse_baseten_trace(bytes, argv[1], {});
    if (!file) {
      fmt::print(stderr, "{}\n", file.error().message);
      return 2;
    }
    sessions = file->conversations.size();
    best_all = std::min(best_all, wall_s() - w);
    best_all_cpu = std::min(best_all_cpu, cpu_s() - c);
  }
  fmt::print("file {:.1f} MB, {} rows, {} sessions\n", static_cast<double>(bytes.size()) / 1e6, rows,
             sessions);
  fmt::print("decode 8 columns: {:.3f} s wall, {:.3f} s CPU (best of {})\n", best_cols,
             best_cols_cpu, repeats);
  fmt::print("baseten loader:   {:.3f} s wall, {:.3f} s CPU (best of {})\n", best_all, best_all_cpu,
             repeats);
  return 0;
}
