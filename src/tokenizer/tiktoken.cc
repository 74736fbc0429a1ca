#include "tokenizer/tiktoken.h"

#include <cstring>
#include <fstream>
#include <mutex>
#include <sstream>

#include "tokenizer/hf_tokenizer.h"
#include "tokenizer/models.h"
#include "tokenizer/post_decoders.h"
#include "tokenizer/pre_tokenizers.h"

extern "C" const char sb_o200k_blob[];
extern "C" const char sb_o200k_blob_end[];

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

Result<std::shared_ptr<const Tokenizer>> make_tiktoken(
    const std::vector<std::string>& tokens, TiktokenEncoding enc, std::string name,
    const std::vector<std::pair<int32_t, int32_t>>* merges) {
  auto model = BpeModel::from_ranks(tokens, merges);
  if (!model) return tl::unexpected(model.error());
  std::string_view pattern = enc == TiktokenEncoding::kO200k    ? kO200kPattern
                             : enc == TiktokenEncoding::kCl100k ? kCl100kPattern
                                                                : kGpt2Pattern;
  auto regex = Regex::compile(pattern);
  if (!regex) return tl::unexpected(regex.error());
  HfParts parts;
  parts.pre_tokenizer = std::make_unique<SplitPreTokenizer>(*regex, "", SplitBehavior::kIsolated, false);
  parts.model = std::move(*model);
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

std::string encode_rank_blob(const RankBlob& blob) {
  std::string out = "SBTK2\n";
  auto n = static_cast<uint32_t>(blob.tokens.size());
  out.append(reinterpret_cast<const char*>(&n), 4);
  for (const auto& t : blob.tokens) {
    out.push_back(static_cast<char>(t.size()));
    out += t;
  }
  auto varint = [&](uint32_t v) {
    while (v >= 0x80) {
      out.push_back(static_cast<char>((v & 0x7F) | 0x80));
      v >>= 7;
    }
    out.push_back(static_cast<char>(v));
  };
  for (size_t r = 0; r < blob.tokens.size(); ++r) {
    auto [a, b] = r < blob.merges.size() ? blob.merges[r] : std::pair<int32_t, int32_t>{-1, -1};
    varint(static_cast<uint32_t>(a + 1));
    varint(static_cast<uint32_t>(b + 1));
  }
  return out;
}

Result<RankBlob> decode_rank_blob(std::string_view blob) {
  auto bad = [] { return make_error(ErrorCode::kParse, "embedded rank blob is corrupt or truncated"); };
  if (blob.size() < 10 || blob.substr(0, 6) != "SBTK2\n") {
    return make_error(ErrorCode::kParse, "embedded rank blob has a bad header");
  }
  uint32_t n;
  std::memcpy(&n, blob.data() + 6, 4);
  RankBlob out;
  out.tokens.reserve(n);
  size_t pos = 10;
  for (uint32_t i = 0; i < n; ++i) {
    if (pos >= blob.size()) return bad();
    size_t len = static_cast<unsigned char>(blob[pos++]);
    if (pos + len > blob.size()) return bad();
    out.tokens.emplace_back(blob.substr(pos, len));
    pos += len;
  }
  auto varint = [&](uint32_t* v) {
    *v = 0;
    for (int shift = 0; shift < 35; shift += 7) {
      if (pos >= blob.size()) return false;
      auto byte = static_cast<unsigned char>(blob[pos++]);
      *v |= static_cast<uint32_t>(byte & 0x7F) << shift;
      if (!(byte & 0x80)) return true;
    }
    return false;
  };
  out.merges.resize(n);
  for (uint32_t r = 0; r < n; ++r) {
    uint32_t a, b;
    if (!varint(&a) || !varint(&b)) return bad();
    out.merges[r] = {static_cast<int32_t>(a) - 1, static_cast<int32_t>(b) - 1};
  }
  return out;
}

Result<std::shared_ptr<const Tokenizer>> builtin_tokenizer() {
  static std::once_flag once;
  static Result<std::shared_ptr<const Tokenizer>> result =
      make_error(ErrorCode::kInternal, "builtin tokenizer not initialised");
  std::call_once(once, [] {
    std::string_view blob(sb_o200k_blob, static_cast<size_t>(sb_o200k_blob_end - sb_o200k_blob));
    auto ranks = decode_rank_blob(blob);
    if (!ranks) {
      result = tl::unexpected(ranks.error());
      return;
    }
    result = make_tiktoken(ranks->tokens, TiktokenEncoding::kO200k, "builtin (o200k_base)", &ranks->merges);
  });
  return result;
}

}  // namespace servebench::tokenizer
