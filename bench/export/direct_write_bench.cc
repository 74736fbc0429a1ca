// System CPU of O_DIRECT block writes by block size and by the buffer's page size: the measure
// behind JsonlWriter's 4 MiB block in transparent huge pages (src/export/jsonl_writer.cc).
//
//   build/bin/bench_direct_write FILE [MB=900] [ROUNDS=3]
//
// FILE is created and removed; it must be on the filesystem under test (the artifact folder's).
// Per round and variant (1 MiB and 4 MiB blocks; a 4 KiB-aligned buffer of ordinary pages, or a
// 2 MiB-aligned one asked to be huge pages): the system and wall seconds to write MB megabytes.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

constexpr size_t kHugePage = size_t{2} << 20;

double system_seconds() {
  rusage r{};
  getrusage(RUSAGE_SELF, &r);
  return static_cast<double>(r.ru_stime.tv_sec) + static_cast<double>(r.ru_stime.tv_usec) / 1e6;
}

char* buffer(size_t bytes, bool huge) {
  const size_t align = huge ? kHugePage : 4096;
  const size_t size = (bytes + align - 1) / align * align;
  char* p = static_cast<char*>(std::aligned_alloc(align, size));
  if (p != nullptr && huge) madvise(p, size, MADV_HUGEPAGE);
  if (p != nullptr) std::memset(p, 'x', size);
  return p;
}

// Writes `total` bytes in `block` pieces; false on a refused or short write.
bool run(const std::string& path, size_t block, bool huge, size_t total) {
  char* buf = buffer(block, huge);
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_DIRECT | O_CLOEXEC, 0644);
  if (buf == nullptr || fd < 0) {
    std::fprintf(stderr, "cannot open %s with O_DIRECT: %s\n", path.c_str(), std::strerror(errno));
    std::free(buf);
    return false;
  }
  const double sys0 = system_seconds();
  const auto t0 = std::chrono::steady_clock::now();
  bool ok = true;
  for (size_t off = 0; ok && off + block <= total; off += block) {
    ok = pwrite(fd, buf, block, static_cast<off_t>(off)) == static_cast<ssize_t>(block);
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("block %4zu KiB  %-11s system %.3f s  wall %.3f s\n", block >> 10,
              huge ? "huge pages" : "4 KiB pages", system_seconds() - sys0, wall);
  close(fd);
  unlink(path.c_str());
  std::free(buf);
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench_direct_write FILE [MB=900] [ROUNDS=3]\n");
    return 2;
  }
  const size_t total = (argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 900) << 20;
  const int rounds = argc > 3 ? std::atoi(argv[3]) : 3;
  for (int r = 0; r < rounds; ++r) {
    for (size_t block : {size_t{1} << 20, size_t{4} << 20}) {
      for (bool huge : {false, true}) {
        if (!run(argv[1], block, huge, total)) return 1;
      }
    }
  }
  return 0;
}
