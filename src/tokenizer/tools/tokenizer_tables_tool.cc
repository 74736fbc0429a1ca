// tokenizer_tables_tool: builds the lookup tables of a rank blob (rank_tables.h) and a C++ source
// that embeds them. Run by the build (src/tokenizer/CMakeLists.txt) for the builtin tokenizer:
//   tokenizer_tables_tool <in.sbtk> <out.sbtab> <out.cc> <symbol>
// The source carries the tables' hash as a string, so compiler caches see a changed table.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "core/embed_source.h"
#include "tokenizer/rank_tables.h"

int main(int argc, char** argv) {
  using namespace servebench::tokenizer;
  if (argc != 5) {
    std::fprintf(stderr, "usage: tokenizer_tables_tool <in.sbtk> <out.sbtab> <out.cc> <symbol>\n");
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "tokenizer_tables_tool: cannot read %s\n", argv[1]);
    return 2;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string blob = ss.str();
  auto tables = encode_rank_tables(blob);
  if (!tables) {
    std::fprintf(stderr, "tokenizer_tables_tool: %s: %s\n", argv[1], tables.error().message.c_str());
    return 1;
  }
  // The tables must pass the load-time check against their blob (in an aligned copy).
  std::string aligned(tables->size() + 64, '\0');
  char* at = aligned.data() + (64 - reinterpret_cast<uintptr_t>(aligned.data()) % 64) % 64;
  std::copy(tables->begin(), tables->end(), at);
  if (auto v = view_rank_tables(blob, std::string_view(at, tables->size()), true); !v) {
    std::fprintf(stderr, "tokenizer_tables_tool: %s\n", v.error().message.c_str());
    return 1;
  }
  const std::string sym = argv[4];
  const std::string digest = servebench::core::content_digest(*tables);
  const std::string cc = servebench::core::incbin_source("tokenizer_tables_tool", argv[1], argv[2], sym, digest);
  if (!servebench::core::write_binary_file(argv[2], *tables) || !servebench::core::write_binary_file(argv[3], cc)) {
    std::fprintf(stderr, "tokenizer_tables_tool: cannot write %s or %s\n", argv[2], argv[3]);
    return 1;
  }
  std::fprintf(stderr, "tokenizer_tables_tool: wrote %s (%zu bytes, digest %s)\n", argv[2], tables->size(), digest.c_str());
  return 0;
}
