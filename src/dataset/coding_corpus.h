// The coding corpus (--prompt-corpus coding): text in the shape of what coding agents send —
// Python and C++ source, shell sessions with their output, JSON API responses, Python
// tracebacks, unified git diffs and service logs. It is generated, not vendored: a fixed-seed
// procedural generator over small word lists, so the text is the same in every build and on
// every machine, and carries no third-party content.
//
// ExactPromptBuilder (exact_prompts.h) splits any corpus into whitespace-separated pieces and
// joins a prompt's pieces with single spaces, so prompts keep the corpus's vocabulary (keywords,
// identifiers, punctuation, numbers, paths) but not its line layout.
//
// Thread safety: coding_corpus() builds the text once (function-local static), then read-only.
#pragma once

#include <string>
#include <string_view>

#include "core/result.h"

namespace servebench::dataset {

// About 300 KB of generated coding text (static storage, never freed).
std::string_view coding_corpus();

// The corpus for --prompt-corpus `name`: "coding" is the generated one; "" or "sonnet" the prose
// corpus (load_corpus(default_corpus_path()): SERVEBENCH_CORPUS, else the embedded one);
// "random" has no text (""): its prompts are random vocabulary tokens
// (ExactPromptBuilder::for_corpus, random_prompts.h).
Result<std::string> corpus_for(std::string_view name);

}  // namespace servebench::dataset
