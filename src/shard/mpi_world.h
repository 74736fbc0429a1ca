// MpiWorld: the few MPI calls a sharded run needs inside `mpirun` (docs/scale-out.md), from Open
// MPI's libmpi.so.40 loaded with dlopen at run time: servebench neither links MPI nor needs its
// headers or package; without the library (or outside mpirun) the shards fall back to
// --rendezvous / --start-at. Calls: MPI_Init, MPI_Comm_rank/size, MPI_Barrier, MPI_Bcast,
// MPI_Send, MPI_Recv, MPI_Finalize on MPI_COMM_WORLD with MPI_BYTE. Open MPI's handles are the
// addresses of its predefined objects (ompi_mpi_comm_world, ompi_mpi_byte), so they are looked up
// with dlsym; MPICH's integer handles are not supported (its ranks use the rendezvous).
//
// Thread safety: MPI is initialised without thread support: call every method from the thread
// that opened the world.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/result.h"

namespace servebench::shard {

class MpiWorld {
 public:
  // Loads `library` (default Open MPI's soname) and calls MPI_Init. kNotFound when the library
  // or one of its symbols is missing, kUnsupported when MPI_Init fails.
  static Result<std::unique_ptr<MpiWorld>> open(const std::string& library = "libmpi.so.40");
  // No MPI_Finalize: a rank that stops early (an error) exits without it, so mpirun ends the
  // job instead of the other ranks waiting for it. finish() ends MPI after a good run.
  ~MpiWorld();
  MpiWorld(const MpiWorld&) = delete;
  MpiWorld& operator=(const MpiWorld&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }

  Status barrier();
  // Rank 0's `value` to every rank.
  Result<int64_t> broadcast(int64_t value);
  // Point to point: a byte string of any length (sent in pieces under 1 GiB).
  Status send(int dest, int tag, const std::string& bytes);
  Result<std::string> receive(int source, int tag);
  // A file streamed in 64 MiB pieces (its size first), and its receiving end.
  Status send_file(int dest, int tag, const std::string& path);
  Status receive_file(int source, int tag, const std::string& path);
  // MPI_Finalize (once).
  Status finish();

 private:
  struct Api;
  MpiWorld();
  Status call(int rc, const char* what) const;
  Status send_raw(int dest, int tag, const char* data, int64_t n);
  Status receive_raw(int source, int tag, char* data, int64_t n);

  void* handle_ = nullptr;
  std::unique_ptr<Api> api_;
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace servebench::shard
