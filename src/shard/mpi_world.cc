#include "shard/mpi_world.h"

#include <dlfcn.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <utility>

namespace servebench::shard {
namespace {

using Handle = void*;  // Open MPI's MPI_Comm and MPI_Datatype are pointers
constexpr int kSuccess = 0;                      // MPI_SUCCESS
constexpr int64_t kPiece = int64_t{1} << 30;     // below MPI's int count limit
constexpr int64_t kFilePiece = int64_t{64} << 20;

}  // namespace

struct MpiWorld::Api {
  int (*init)(int*, char***) = nullptr;
  int (*initialized)(int*) = nullptr;
  int (*finalize)() = nullptr;
  int (*comm_rank)(Handle, int*) = nullptr;
  int (*comm_size)(Handle, int*) = nullptr;
  int (*barrier)(Handle) = nullptr;
  int (*bcast)(void*, int, Handle, int, Handle) = nullptr;
  int (*send)(const void*, int, Handle, int, int, Handle) = nullptr;
  int (*recv)(void*, int, Handle, int, int, Handle, void*) = nullptr;  // status: ignored (null)
  Handle comm_world = nullptr;  // &ompi_mpi_comm_world
  Handle byte = nullptr;        // &ompi_mpi_byte
};

MpiWorld::MpiWorld() : api_(std::make_unique<Api>()) {}
MpiWorld::~MpiWorld() = default;

// libmpi stays loaded (no dlclose): Open MPI's components keep threads and atexit handlers.
Status MpiWorld::finish() {
  if (api_->finalize == nullptr) return {};
  auto finalize = std::exchange(api_->finalize, nullptr);
  return call(finalize(), "MPI_Finalize");
}

Result<std::unique_ptr<MpiWorld>> MpiWorld::open(const std::string& library) {
  // RTLD_GLOBAL: Open MPI's own components (dlopen'ed by MPI_Init) resolve libmpi's symbols.
  void* h = dlopen(library.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (h == nullptr) {
    const char* why = dlerror();
    return make_error(ErrorCode::kNotFound, why != nullptr ? why : library + ": cannot open");
  }
  std::unique_ptr<MpiWorld> w(new MpiWorld());
  w->handle_ = h;
  Api& a = *w->api_;
  auto sym = [h](auto* fn, const char* name) {
    *fn = reinterpret_cast<std::remove_reference_t<decltype(*fn)>>(dlsym(h, name));
    return *fn != nullptr;
  };
  const bool ok = sym(&a.init, "MPI_Init") && sym(&a.initialized, "MPI_Initialized") &&
                  sym(&a.comm_rank, "MPI_Comm_rank") && sym(&a.comm_size, "MPI_Comm_size") &&
                  sym(&a.barrier, "MPI_Barrier") && sym(&a.bcast, "MPI_Bcast") &&
                  sym(&a.send, "MPI_Send") && sym(&a.recv, "MPI_Recv");
  a.comm_world = dlsym(h, "ompi_mpi_comm_world");
  a.byte = dlsym(h, "ompi_mpi_byte");
  if (!ok || a.comm_world == nullptr || a.byte == nullptr) {
    dlclose(h);  // not Open MPI: nothing of it was called
    return make_error(ErrorCode::kNotFound,
                      library + " is not Open MPI's libmpi (a symbol of the MPI calls is missing)");
  }
  int already = 0;
  a.initialized(&already);
  if (!already && a.init(nullptr, nullptr) != kSuccess)
    return make_error(ErrorCode::kUnsupported, "MPI_Init failed");
  a.finalize = reinterpret_cast<int (*)()>(dlsym(h, "MPI_Finalize"));
  SB_TRY(w->call(a.comm_rank(a.comm_world, &w->rank_), "MPI_Comm_rank"));
  SB_TRY(w->call(a.comm_size(a.comm_world, &w->size_), "MPI_Comm_size"));
  return w;
}

Status MpiWorld::call(int rc, const char* what) const {
  if (rc == kSuccess) return {};
  return make_error(ErrorCode::kIo, fmt::format("{} failed on rank {} (MPI error {})", what, rank_, rc));
}

Status MpiWorld::barrier() { return call(api_->barrier(api_->comm_world), "MPI_Barrier"); }

Result<int64_t> MpiWorld::broadcast(int64_t value) {
  SB_TRY(call(api_->bcast(&value, sizeof(value), api_->byte, 0, api_->comm_world), "MPI_Bcast"));
  return value;
}

Status MpiWorld::send_raw(int dest, int tag, const char* data, int64_t n) {
  for (int64_t off = 0; off < n; off += kPiece) {
    const int count = static_cast<int>(std::min(kPiece, n - off));
    SB_TRY(call(api_->send(data + off, count, api_->byte, dest, tag, api_->comm_world), "MPI_Send"));
  }
  return {};
}

Status MpiWorld::receive_raw(int source, int tag, char* data, int64_t n) {
  for (int64_t off = 0; off < n; off += kPiece) {
    const int count = static_cast<int>(std::min(kPiece, n - off));
    SB_TRY(call(api_->recv(data + off, count, api_->byte, source, tag, api_->comm_world, nullptr),
                "MPI_Recv"));
  }
  return {};
}

Status MpiWorld::send(int dest, int tag, const std::string& bytes) {
  const int64_t n = static_cast<int64_t>(bytes.size());
  SB_TRY(send_raw(dest, tag, reinterpret_cast<const char*>(&n), sizeof(n)));
  return send_raw(dest, tag, bytes.data(), n);
}

Result<std::string> MpiWorld::receive(int source, int tag) {
  int64_t n = 0;
  SB_TRY(receive_raw(source, tag, reinterpret_cast<char*>(&n), sizeof(n)));
  if (n < 0) return make_error(ErrorCode::kIo, "MPI_Recv: negative length");
  std::string out(static_cast<size_t>(n), '\0');
  SB_TRY(receive_raw(source, tag, out.data(), n));
  return out;
}

Status MpiWorld::send_file(int dest, int tag, const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return make_error(ErrorCode::kIo, "cannot read " + path);
  const int64_t size = static_cast<int64_t>(in.tellg());
  in.seekg(0);
  SB_TRY(send_raw(dest, tag, reinterpret_cast<const char*>(&size), sizeof(size)));
  std::string piece(static_cast<size_t>(std::min(size, kFilePiece)), '\0');
  for (int64_t off = 0; off < size; off += kFilePiece) {
    const int64_t n = std::min(kFilePiece, size - off);
    if (!in.read(piece.data(), n)) return make_error(ErrorCode::kIo, "cannot read " + path);
    SB_TRY(send_raw(dest, tag, piece.data(), n));
  }
  return {};
}

Status MpiWorld::receive_file(int source, int tag, const std::string& path) {
  int64_t size = 0;
  SB_TRY(receive_raw(source, tag, reinterpret_cast<char*>(&size), sizeof(size)));
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return make_error(ErrorCode::kIo, "cannot write " + path);
  std::string piece(static_cast<size_t>(std::min(size, kFilePiece)), '\0');
  for (int64_t off = 0; off < size; off += kFilePiece) {
    const int64_t n = std::min(kFilePiece, size - off);
    SB_TRY(receive_raw(source, tag, piece.data(), n));
    if (!out.write(piece.data(), n)) return make_error(ErrorCode::kIo, "cannot write " + path);
  }
  return {};
}

}  // namespace servebench::shard
