// Embeds data/corpus/mobydick.txt with .incbin, like the builtin tokenizer's ranks
// (tokenizer/builtin_blob.cc). The path and the file's hash come from CMake; the hash is in the
// source so that compiler caches see a changed corpus.
#include "dataset/embedded_corpus.h"

#include <cstddef>

#ifndef SB_CORPUS_PATH
#error "SB_CORPUS_PATH must be defined by the build"
#endif

extern "C" const char sb_corpus_sha256[] = SB_CORPUS_SHA256;

__asm__(
    ".section .rodata\n"
    ".global sb_corpus\n"
    ".type sb_corpus, @object\n"
    ".balign 16\n"
    "sb_corpus:\n"
    ".incbin \"" SB_CORPUS_PATH
    "\"\n"
    ".global sb_corpus_end\n"
    ".type sb_corpus_end, @object\n"
    "sb_corpus_end:\n"
    ".byte 0\n"
    ".previous\n");

extern "C" const char sb_corpus[];
extern "C" const char sb_corpus_end[];

namespace servebench::dataset {

std::string_view embedded_corpus() {
  return std::string_view(sb_corpus, static_cast<size_t>(sb_corpus_end - sb_corpus));
}

}  // namespace servebench::dataset
