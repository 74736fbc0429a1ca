#include <cstdio>

#include "cli/commands.h"

namespace servebench::cli {

int run_tokenize(int, char**) {
  std::fprintf(stderr, "servebench tokenize: not available in this build yet\n");
  return 2;
}

}  // namespace servebench::cli
