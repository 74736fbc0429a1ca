#include <cstdio>

#include "cli/commands.h"

namespace servebench::cli {

int run_profile(int, char**) {
  std::fprintf(stderr, "servebench profile: not available in this build yet\n");
  return 2;
}

}  // namespace servebench::cli
