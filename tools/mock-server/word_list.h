// The fixed output vocabulary of servebench-mock when it runs without --tokenizer.
//
// Every entry is a lowercase English word with one leading space (" the", " whale"). The words
// are the 200 most frequent of a hand-picked set of very common short words that occur in the
// vendored corpus (data/corpus/mobydick.txt). They were chosen so that each one is a single
// token under every major tokenizer family (GPT-2/cl100k/o200k BPE, Llama/Qwen/Mistral/Gemma),
// and because every entry starts with a space, pre-tokenizers split the concatenated output at
// word boundaries: re-tokenizing the whole output gives exactly one token per word. The
// tokenizer tests prove the single-token property per family.
//
// Thread safety: the returned list is immutable and safe to read from any thread.
#pragma once

#include <string>
#include <vector>

namespace servebench::mock {

// The list, in a fixed order (most frequent in the corpus first). Never reorder or edit without
// updating the tokenizer tests: output text and seeded runs depend on it.
const std::vector<std::string>& mock_word_list();

}  // namespace servebench::mock
