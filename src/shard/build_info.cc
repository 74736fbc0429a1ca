#include "shard/build_info.h"

#include <fmt/format.h>

#ifndef SERVEBENCH_VERSION
#define SERVEBENCH_VERSION "0.0.0"
#endif
#ifndef SERVEBENCH_GIT_COMMIT
#define SERVEBENCH_GIT_COMMIT "unknown"
#endif
#ifndef SERVEBENCH_BUILD_TYPE
#define SERVEBENCH_BUILD_TYPE "unknown"
#endif
#ifndef SERVEBENCH_FEATURES
#define SERVEBENCH_FEATURES ""
#endif

namespace servebench::shard {

std::string version_string() {
  return fmt::format("{} ({})", SERVEBENCH_VERSION, SERVEBENCH_GIT_COMMIT);
}

std::string build_info_text() {
#if defined(__clang__)
  const std::string compiler = fmt::format("clang {}", __clang_version__);
#elif defined(__GNUC__)
  const std::string compiler = fmt::format("gcc {}", __VERSION__);
#else
  const std::string compiler = "unknown";
#endif
  return fmt::format(
      "servebench {}\n"
      "git commit: {}\n"
      "compiler: {} (C++{})\n"
      "build type: {}\n"
      "features: {}\n",
      SERVEBENCH_VERSION, SERVEBENCH_GIT_COMMIT, compiler, __cplusplus / 100 % 100,
      SERVEBENCH_BUILD_TYPE, SERVEBENCH_FEATURES);
}

}  // namespace servebench::shard
