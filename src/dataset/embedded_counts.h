// The corpus piece-count table embedded at build time (see exact_prompts.h): made by
// corpus_counts_tool for the vendored corpus and the builtin tokenizer, in the cache file's
// layout. The generated embedded_counts.cc defines it; the tool itself, which cannot embed its
// own output, defines it as "".
#pragma once

#include <string_view>

namespace servebench::dataset {

// The embedded table's bytes (static storage), or "" in a build without one.
std::string_view embedded_count_table();

}  // namespace servebench::dataset
