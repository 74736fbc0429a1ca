// A shared library opened with dlopen at run time (NVML, AMD SMI): servebench neither links
// them nor needs their headers or packages. Closed on destruction.
//
// Thread safety: symbol() may be called from any thread once opened.
#pragma once

#include <dlfcn.h>

#include <string>

#include "core/result.h"

namespace servebench::gpu_telemetry {

class DlLibrary {
 public:
  DlLibrary() = default;
  ~DlLibrary() {
    if (handle_ != nullptr) dlclose(handle_);
  }
  DlLibrary(const DlLibrary&) = delete;
  DlLibrary& operator=(const DlLibrary&) = delete;

  // RTLD_NOW | RTLD_LOCAL. The error is dlerror()'s text.
  Status open(const std::string& name) {
    handle_ = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle_ == nullptr) {
      const char* why = dlerror();
      return make_error(ErrorCode::kNotFound, why != nullptr ? why : name + ": cannot open");
    }
    return {};
  }
  bool is_open() const { return handle_ != nullptr; }

  // Looks `name` up as a function of type F; nullptr when absent (older drivers lack some).
  template <class F>
  F symbol(const char* name) const {
    if (handle_ == nullptr) return nullptr;
    return reinterpret_cast<F>(dlsym(handle_, name));
  }

 private:
  void* handle_ = nullptr;
};

}  // namespace servebench::gpu_telemetry
