// tiktoken rank files (r50k_base, p50k_base, cl100k_base, o200k_base) and the `builtin`
// tokenizer (o200k_base embedded in the binary). Built as HfTokenizer pipelines: a Split regex,
// byte-level BPE whose merges are derived from the ranks, the encoding's special tokens, and
// the ByteLevel decoder, which matches HF's conversion of these files exactly.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tokenizer/tokenizer.h"

namespace servebench::tokenizer {

enum class TiktokenEncoding { kR50k, kP50k, kCl100k, kO200k };

// Guesses the encoding from a file name ("cl100k_base.tiktoken"); false if unknown.
bool tiktoken_encoding_from_name(std::string_view path, TiktokenEncoding* enc);

// Parses "base64 rank" lines. Ranks must be dense from 0.
Result<std::vector<std::string>> parse_tiktoken_ranks(std::string_view text);

Result<std::shared_ptr<const Tokenizer>> make_tiktoken(
    const std::vector<std::string>& tokens, TiktokenEncoding enc, std::string name,
    const std::vector<std::pair<int32_t, int32_t>>* merges = nullptr);
Result<std::shared_ptr<const Tokenizer>> load_tiktoken_file(const std::string& path);

// The embedded o200k_base tokenizer (set up once per process, then shared). Its merge table
// is prebuilt at build time (rank_tables.h) and used in place, so this costs ~1 ms.
Result<std::shared_ptr<const Tokenizer>> builtin_tokenizer();
// True when builtin_tokenizer() uses the prebuilt tables (false: they did not fit the blob and
// were built at load, ~100 ms; same encodings either way).
bool builtin_uses_prebuilt_tables();
// The embedded rank blob and its prebuilt tables.
std::string_view builtin_rank_blob();
std::string_view builtin_rank_tables();

// The compact embedded form (written by tokenizer_blob_tool): "SBTK2\n", uint32 LE count, per
// rank a uint8 length and the bytes, then per rank the merge forming it as two LEB128 varints
// (left+1, right+1; 0 0 for none), so loading needs no merge derivation.
struct RankBlob {
  std::vector<std::string> tokens;
  std::vector<std::pair<int32_t, int32_t>> merges;
};
std::string encode_rank_blob(const RankBlob& blob);
Result<RankBlob> decode_rank_blob(std::string_view blob);

}  // namespace servebench::tokenizer
