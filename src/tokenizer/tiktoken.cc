#include "tokenizer/tiktoken.h"

#include <cstring>
#include <fstream>
#include <sstream>

#include "tokenizer/hf_tokenizer.h"
#include "tokenizer/models.h"
#include "tokenizer/post_decoders.h"
#include "tokenizer/pre_tokenizers.h"
#include "tokenizer/rank_tables.h"

extern "C" const char sb_o200k_blob[];
extern "C" const char sb_o200k_blob_end[];
// The lookup tables prebuilt from the blob at build time (generated o200k_tables.cc).
extern "C" const char sb_o200k_tables[];
extern "C" const char sb_o200k_tables_end[];

namespace servebench::tokenizer {
namespace {

constexpr std::string_view kGpt2Pattern =
    R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)";
constexpr std::string_view kCl100kPattern =
    R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)";
constexpr std::string_view kO200kPattern =
    R"([^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+)";

std::vector<std::pair<std::string, TokenId>> specials_for(TiktokenEncoding enc) {
  switch (enc) {
    case TiktokenEncoding::kR50k: return {{"<|endoftext|>", 50256}};
    case TiktokenEncoding::kP50k: return {{"<|endoftext|>", 50256}};
    case TiktokenEncoding::kCl100k:
      return {{"<|endoftext|>", 100257}, {"<|fim_prefix|>", 100258}, {"<|fim_middle|>", 100259},
              {"<|fim_suffix|>", 100260}, {"<|endofprompt|>", 100276}};
    case TiktokenEncoding::kO200k: return {{"<|endoftext|>", 199999}, {"<|endofprompt|>", 200018}};
  }
  return {};
}

int b64_value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

}  // namespace

bool tiktoken_encoding_from_name(std::string_view path, TiktokenEncoding* enc) {
  if (path.find("o200k") != std::string_view::npos) *enc = TiktokenEncoding::kO200k;
  else if (path.find("cl100k") != std::string_view::npos) *enc = TiktokenEncoding::kCl100k;
  else if (path.find("p50k") != std::string_view::npos) *enc = TiktokenEncoding::kP50k;
  else if (path.find("r50k") != std::string_view::npos) *enc = TiktokenEncoding::kR50k;
  else return false;
  return true;
}

Result<std::vector<std::string>> parse_tiktoken_ranks(std::string_view text) {
  std::vector<std::string> tokens;
  size_t line_no = 0;
  for (size_t pos = 0; pos < text.size();) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view line = text.substr(pos, nl - pos);
    pos = nl + 1;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;
    size_t sp = line.find(' ');
    if (sp == std::string_view::npos) {
      return make_error(ErrorCode::kParse, "tiktoken line " + std::to_string(line_no) + " has no rank");
    }
    std::string bytes;
    int val = 0, bits = -8;
    for (char c : line.substr(0, sp)) {
      if (c == '=') break;
      int d = b64_value(c);
      if (d < 0) return make_error(ErrorCode::kParse, "tiktoken line " + std::to_string(line_no) + ": bad base64");
      val = (val << 6) | d;
      bits += 6;
      if (bits >= 0) {
        bytes.push_back(static_cast<char>((val >> bits) & 0xFF));
        bits -= 8;
      }
    }
    uint64_t rank = 0;
    for (char c : line.substr(sp + 1)) {
      if (c < '0' || c > '9') return make_error(ErrorCode::kParse, "tiktoken line " + std::to_string(line_no) + ": bad rank");
      rank = rank * 10 + static_cast<uint64_t>(c - '0');
    }
    if (rank != tokens.size()) {
      return make_error(ErrorCode::kParse, "tiktoken ranks are not dense at line " + std::to_string(line_no));
    }
    tokens.push_back(std::move(bytes));
  }
  if (tokens.size() < 256) return make_error(ErrorCode::kParse, "tiktoken file has fewer than 256 ranks");
  return tokens;
}

namespace {

// The tokenizer around a tiktoken BPE model: the encoding's Split regex, its special tokens and
// the ByteLevel decoder.
Result<std::shared_ptr<const Tokenizer>> assemble_tiktoken(std::unique_ptr<BpeModel> model, TiktokenEncoding enc,
                                                           std::string name) {
  std::string_view pattern = enc == TiktokenEncoding::kO200k    ? kO200kPattern
                             : enc == TiktokenEncoding::kCl100k ? kCl100kPattern
                                                                : kGpt2Pattern;
  auto regex = Regex::compile(pattern);
  if (!regex) return tl::unexpected(regex.error());
  HfParts parts;
  parts.pre_tokenizer = std::make_unique<SplitPreTokenizer>(*regex, "", SplitBehavior::kIsolated, false);
  parts.model = std::move(model);
  parts.decoder = std::make_unique<ByteLevelDecoder>();
  for (auto& [content, id] : specials_for(enc)) {
    AddedToken t;
    t.content = content;
    t.id = id;
    t.special = true;
    t.normalized = false;
    parts.added_tokens.push_back(std::move(t));
  }
  parts.name = std::move(name);
  return std::shared_ptr<const Tokenizer>(std::make_shared<HfTokenizer>(std::move(parts)));
}

}  // namespace

Result<std::shared_ptr<const Tokenizer>> make_tiktoken(
    const std::vector<std::string>& tokens, TiktokenEncoding enc, std::string name,
    const std::vector<std::pair<int32_t, int32_t>>* merges) {
  auto model = BpeModel::from_ranks(tokens, merges);
  if (!model) return tl::unexpected(model.error());
  return assemble_tiktoken(std::move(*model), enc, std::move(name));
}

Result<std::shared_ptr<const Tokenizer>> load_tiktoken_file(const std::string& path) {
  TiktokenEncoding enc;
  if (!tiktoken_encoding_from_name(path, &enc)) {
    return make_error(ErrorCode::kInvalidArgument,
                      "tiktoken file '" + path +
                          "': cannot tell its encoding; name it r50k_base, p50k_base, cl100k_base or "
                          "o200k_base.tiktoken");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error(ErrorCode::kNotFound, "tokenizer file '" + path + "' cannot be read");
  std::stringstream ss;
  ss << in.rdbuf();
  auto tokens = parse_tiktoken_ranks(ss.str());
  if (!tokens) {
    return make_error(ErrorCode::kParse, "tokenizer file '" + path + "': " + tokens.error().message);
  }
  return make_tiktoken(*tokens, enc, path);
}

namespace {

std::string_view builtin_blob() {
  return std::string_view(sb_o200k_blob, static_cast<size_t>(sb_o200k_blob_end - sb_o200k_blob));
}
std::string_view builtin_tables() {
  return std::string_view(sb_o200k_tables, static_cast<size_t>(sb_o200k_tables_end - sb_o200k_tables));
}

struct Builtin {
  Result<std::shared_ptr<const Tokenizer>> tokenizer = make_error(ErrorCode::kInternal, "builtin tokenizer not initialised");
  bool prebuilt = false;
};

const Builtin& builtin() {
  static const Builtin b = [] {
    Builtin out;
    constexpr const char* kName = "builtin (o200k_base)";
    // The tables built from this blob at build time, used in place; should they not fit the
    // blob (never in a consistent build), the tables are built here as for any rank file.
    if (auto tables = view_rank_tables(builtin_blob(), builtin_tables())) {
      out.tokenizer = assemble_tiktoken(BpeModel::from_rank_tables(std::move(*tables)), TiktokenEncoding::kO200k, kName);
      out.prebuilt = static_cast<bool>(out.tokenizer);
      if (out.prebuilt) return out;
    }
    auto ranks = decode_rank_blob(builtin_blob());
    if (!ranks) {
      out.tokenizer = tl::unexpected(ranks.error());
      return out;
    }
    out.tokenizer = make_tiktoken(ranks->tokens, TiktokenEncoding::kO200k, kName, &ranks->merges);
    return out;
  }();
  return b;
}

}  // namespace

Result<std::shared_ptr<const Tokenizer>> builtin_tokenizer() { return builtin().tokenizer; }

bool builtin_uses_prebuilt_tables() { return builtin().prebuilt; }

std::string_view builtin_rank_blob() { return builtin_blob(); }
std::string_view builtin_rank_tables() { return builtin_tables(); }

}  // namespace servebench::tokenizer
