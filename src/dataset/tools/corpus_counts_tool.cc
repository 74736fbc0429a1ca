// corpus_counts_tool: counts the pieces of a corpus with the builtin tokenizer and writes the
// table ExactPromptBuilder embeds (exact_prompts.h), plus a C++ source that embeds it. Run by the
// build (src/dataset/CMakeLists.txt) for the vendored corpus:
//   corpus_counts_tool <corpus.txt> <out.sbcnt> <out.cc> <symbol>
// The source carries the table's hash as a string, so compiler caches see a changed table.
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "core/embed_source.h"
#include "dataset/embedded_counts.h"
#include "dataset/exact_prompts.h"
#include "tokenizer/tokenizer.h"

// This tool links exact_prompts.cc without an embedded table (it makes that table).
std::string_view servebench::dataset::embedded_count_table() { return {}; }

int main(int argc, char** argv) {
  using namespace servebench;
  if (argc != 5) {
    std::fprintf(stderr, "usage: corpus_counts_tool <corpus.txt> <out.sbcnt> <out.cc> <symbol>\n");
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "corpus_counts_tool: cannot read %s\n", argv[1]);
    return 2;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string corpus = ss.str();
  auto tok = tokenizer::load_tokenizer("builtin");
  if (!tok) {
    std::fprintf(stderr, "corpus_counts_tool: %s\n", tok.error().message.c_str());
    return 1;
  }
  auto table = dataset::ExactPromptBuilder::make_embedded_count_table(corpus, **tok);
  if (!table) {
    std::fprintf(stderr, "corpus_counts_tool: %s: %s\n", argv[1], table.error().message.c_str());
    return 1;
  }
  const std::string sym = argv[4];
  const std::string digest = core::content_digest(*table);
  const std::string cc = core::incbin_source(
      "corpus_counts_tool", argv[1], argv[2], sym, digest,
      "extern \"C\" const char " + sym + "[];\n"
      "extern \"C\" const char " + sym + "_end[];\n\n"
      "#include <cstddef>\n"
      "#include <string_view>\n\n"
      "#include \"dataset/embedded_counts.h\"\n\n"
      "std::string_view servebench::dataset::embedded_count_table() {\n"
      "  return std::string_view(" + sym + ", static_cast<size_t>(" + sym + "_end - " + sym + "));\n"
      "}\n");
  if (!core::write_binary_file(argv[2], *table) || !core::write_binary_file(argv[3], cc)) {
    std::fprintf(stderr, "corpus_counts_tool: cannot write %s or %s\n", argv[2], argv[3]);
    return 1;
  }
  std::fprintf(stderr, "corpus_counts_tool: wrote %s (%zu bytes, digest %s)\n", argv[2], table->size(), digest.c_str());
  return 0;
}
