// tokenizer_blob_tool: turns a tiktoken rank file into the compact embedded blob
// (data/tokenizer/o200k_base.sbtk) with the merge of every rank precomputed.
//   build/bin/tokenizer_blob_tool <in.tiktoken> <out.sbtk>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "tokenizer/models.h"
#include "tokenizer/tiktoken.h"

int main(int argc, char** argv) {
  using namespace servebench::tokenizer;
  if (argc != 3) {
    std::fprintf(stderr, "usage: tokenizer_blob_tool <in.tiktoken> <out.sbtk>\n");
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "tokenizer_blob_tool: cannot read %s\n", argv[1]);
    return 2;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  auto tokens = parse_tiktoken_ranks(ss.str());
  if (!tokens) {
    std::fprintf(stderr, "tokenizer_blob_tool: %s\n", tokens.error().message.c_str());
    return 2;
  }
  RankBlob blob;
  blob.tokens = *tokens;
  blob.merges = BpeModel::derive_rank_merges(blob.tokens);
  for (const auto& t : blob.tokens) {
    if (t.size() > 255) {
      std::fprintf(stderr, "tokenizer_blob_tool: a token is longer than 255 bytes\n");
      return 2;
    }
  }
  std::ofstream out(argv[2], std::ios::binary | std::ios::trunc);
  std::string data = encode_rank_blob(blob);
  out.write(data.data(), static_cast<std::streamsize>(data.size()));
  std::fprintf(stderr, "tokenizer_blob_tool: wrote %s (%zu ranks, %zu bytes)\n", argv[2], blob.tokens.size(), data.size());
  return out ? 0 : 1;
}
