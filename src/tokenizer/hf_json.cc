// tokenizer.json -> HfParts. Every component HF defines that we do not implement is an error
// naming it, never a silent approximation.
#include <fcntl.h>
#include <simdjson.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "tokenizer/hf_json_internal.h"

namespace servebench::tokenizer {
namespace {

using namespace hf_json;  // NOLINT(google-build-using-namespace): this file's own helpers

R<std::vector<std::pair<std::string, TokenId>>> parse_vocab_object(element model) {
  object vocab;
  if (model["vocab"].get(vocab) != simdjson::SUCCESS) return bad("model.vocab must be an object");
  std::vector<std::pair<std::string, TokenId>> out;
  out.reserve(vocab.size());
  for (auto field : vocab) {
    uint64_t id;
    if (field.value.get(id) != simdjson::SUCCESS) return bad("model.vocab id not an integer");
    if (id >= kMaxTokenId) return bad("model.vocab id " + std::to_string(id) + " is out of range");
    out.emplace_back(std::string(field.key), static_cast<TokenId>(id));
  }
  return out;
}

R<std::unique_ptr<Model>> parse_model(element m, bool byte_level) {
  std::string type = str_or(m, "type", "");
  if (type.empty()) {
    // Old files omit the type: infer it from the fields.
    if (m["merges"].error() == simdjson::SUCCESS) type = "BPE";
    else if (m["max_input_chars_per_word"].error() == simdjson::SUCCESS) type = "WordPiece";
    else if (m["vocab"].is_array()) type = "Unigram";
    else type = "WordLevel";
  }
  if (byte_level && type != "BPE") return unsupported("model with a ByteLevel pre_tokenizer", type);
  if (type == "BPE") {
    if (!is_null_or_missing(m, "dropout")) {
      double d = 0;
      if (m["dropout"].get(d) == simdjson::SUCCESS && d > 0) return unsupported("BPE option", "dropout");
    }
    BpeConfig c;
    auto vocab = parse_vocab_object(m);
    if (!vocab) return tl::unexpected(vocab.error());
    c.vocab = std::move(*vocab);
    array merges;
    if (m["merges"].get(merges) != simdjson::SUCCESS) return bad("BPE model without merges");
    c.merges.reserve(merges.size());
    for (element x : merges) {
      std::string_view s;
      if (x.get(s) == simdjson::SUCCESS) {
        size_t sp = s.find(' ', 1);
        if (sp == std::string_view::npos) return bad("BPE merge '" + std::string(s) + "' has no space");
        c.merges.emplace_back(std::string(s.substr(0, sp)), std::string(s.substr(sp + 1)));
        continue;
      }
      array pair;
      std::string_view a, b;
      if (x.get(pair) != simdjson::SUCCESS || pair.size() != 2 || pair.at(0).get(a) != simdjson::SUCCESS ||
          pair.at(1).get(b) != simdjson::SUCCESS) {
        return bad("BPE merge is neither \"a b\" nor [a, b]");
      }
      c.merges.emplace_back(std::string(a), std::string(b));
    }
    if (!is_null_or_missing(m, "unk_token")) c.unk_token = str_or(m, "unk_token", "");
    c.continuing_subword_prefix = str_or(m, "continuing_subword_prefix", "");
    c.end_of_word_suffix = str_or(m, "end_of_word_suffix", "");
    c.fuse_unk = bool_or(m, "fuse_unk", false);
    c.byte_fallback = bool_or(m, "byte_fallback", false);
    c.ignore_merges = bool_or(m, "ignore_merges", false);
    c.byte_level = byte_level;
    auto r = BpeModel::create(std::move(c));
    if (!r) return tl::unexpected(r.error());
    return std::unique_ptr<Model>(std::move(*r));
  }
  if (type == "Unigram") {
    UnigramConfig c;
    array vocab;
    if (m["vocab"].get(vocab) != simdjson::SUCCESS) return bad("Unigram vocab must be a list");
    c.vocab.reserve(vocab.size());
    for (element x : vocab) {
      array pair;
      std::string_view piece;
      double score;
      if (x.get(pair) != simdjson::SUCCESS || pair.size() != 2 || pair.at(0).get(piece) != simdjson::SUCCESS) {
        return bad("Unigram vocab entry must be [piece, score]");
      }
      element sc = pair.at(1);
      if (sc.get(score) != simdjson::SUCCESS) {
        int64_t iv;
        if (sc.get(iv) != simdjson::SUCCESS) return bad("Unigram score not a number");
        score = static_cast<double>(iv);
      }
      c.vocab.emplace_back(std::string(piece), score);
    }
    uint64_t unk;
    if (m["unk_id"].get(unk) == simdjson::SUCCESS) {
      if (unk >= kMaxTokenId) return bad("Unigram unk_id out of range");
      c.unk_id = static_cast<TokenId>(unk);
    }
    c.byte_fallback = bool_or(m, "byte_fallback", false);
    auto r = UnigramModel::create(std::move(c));
    if (!r) return tl::unexpected(r.error());
    return std::unique_ptr<Model>(std::move(*r));
  }
  if (type == "WordPiece") {
    auto vocab = parse_vocab_object(m);
    if (!vocab) return tl::unexpected(vocab.error());
    uint64_t max_chars = 100;
    if (m["max_input_chars_per_word"].get(max_chars) != simdjson::SUCCESS) max_chars = 100;
    auto r = WordPieceModel::create(std::move(*vocab), str_or(m, "unk_token", "[UNK]"),
                                    str_or(m, "continuing_subword_prefix", "##"), max_chars);
    if (!r) return tl::unexpected(r.error());
    return std::unique_ptr<Model>(std::move(*r));
  }
  if (type == "WordLevel") {
    auto vocab = parse_vocab_object(m);
    if (!vocab) return tl::unexpected(vocab.error());
    auto r = WordLevelModel::create(std::move(*vocab), str_or(m, "unk_token", ""));
    if (!r) return tl::unexpected(r.error());
    return std::unique_ptr<Model>(std::move(*r));
  }
  return unsupported("model", type);
}

R<HfParts> parse_parts(element doc) {
  HfParts parts;
  element e;
  if (doc["normalizer"].get(e) == simdjson::SUCCESS && !e.is_null()) {
    auto n = parse_normalizer(e);
    if (!n) return tl::unexpected(n.error());
    parts.normalizer = std::move(*n);
  }
  bool byte_level = false;
  if (doc["pre_tokenizer"].get(e) == simdjson::SUCCESS && !e.is_null()) {
    auto p = parse_pre_tokenizer(e, &byte_level, true);
    if (!p) return tl::unexpected(p.error());
    parts.pre_tokenizer = std::move(*p);
  }
  element model;
  if (doc["model"].get(model) != simdjson::SUCCESS) return bad("no model");
  auto m = parse_model(model, byte_level);
  if (!m) return tl::unexpected(m.error());
  parts.model = std::move(*m);
  if (doc["post_processor"].get(e) == simdjson::SUCCESS && !e.is_null()) {
    auto p = parse_post_processor(e);
    if (!p) return tl::unexpected(p.error());
    parts.post_processor = std::move(*p);
  }
  if (doc["decoder"].get(e) == simdjson::SUCCESS && !e.is_null()) {
    auto d = parse_decoder(e);
    if (!d) return tl::unexpected(d.error());
    parts.decoder = std::move(*d);
  }
  // "truncation" and "padding" are ignored on purpose: transformers (what AIPerf counts with)
  // switches both off for plain encode calls, and a token count must cover the whole text.
  array added;
  if (doc["added_tokens"].get(added) == simdjson::SUCCESS) {
    for (element t : added) {
      AddedToken a;
      uint64_t id;
      if (t["id"].get(id) != simdjson::SUCCESS) return bad("added token without id");
      if (id >= kMaxTokenId) return bad("added token id " + std::to_string(id) + " is out of range");
      a.id = static_cast<TokenId>(id);
      a.content = str_or(t, "content", "");
      a.single_word = bool_or(t, "single_word", false);
      a.lstrip = bool_or(t, "lstrip", false);
      a.rstrip = bool_or(t, "rstrip", false);
      a.special = bool_or(t, "special", false);
      a.normalized = bool_or(t, "normalized", !a.special);
      parts.added_tokens.push_back(std::move(a));
    }
  }
  return parts;
}

}  // namespace

namespace {

Result<std::shared_ptr<const Tokenizer>> parse_padded(const uint8_t* data, size_t size,
                                                      const std::string& name) {
  simdjson::dom::parser parser;
  element doc;
  if (auto err = parser.parse(data, size, false).get(doc); err != simdjson::SUCCESS) {
    return make_error(ErrorCode::kParse, "tokenizer '" + name + "' is not valid JSON (" +
                                             simdjson::error_message(err) + "); re-download it");
  }
  if (!doc.is_object()) return make_error(ErrorCode::kParse, "tokenizer '" + name + "' is not a JSON object");
  auto parts = parse_parts(doc);
  if (!parts) {
    Error err = parts.error();
    err.message = "tokenizer '" + name + "': " + err.message;
    return tl::unexpected(err);
  }
  parts->name = name;
  return std::shared_ptr<const Tokenizer>(std::make_shared<HfTokenizer>(std::move(*parts)));
}

}  // namespace

Result<std::shared_ptr<const Tokenizer>> parse_tokenizer_json(std::string_view json,
                                                              const std::string& name) {
  simdjson::padded_string padded(json);
  return parse_padded(reinterpret_cast<const uint8_t*>(padded.data()), padded.size(), name);
}

// The file is memory-mapped over an anonymous mapping one padding block larger, so simdjson
// reads it in place (its SIMD loads may run SIMDJSON_PADDING bytes past the end) without a copy.
Result<std::shared_ptr<const Tokenizer>> load_tokenizer_json_file(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  struct stat st;
  if (fd < 0 || ::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    if (fd >= 0) ::close(fd);
    return make_error(ErrorCode::kNotFound, "tokenizer file '" + path + "' cannot be read; check the path");
  }
  auto size = static_cast<size_t>(st.st_size);
  size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  size_t total = (size + simdjson::SIMDJSON_PADDING + page - 1) / page * page;
  void* base = ::mmap(nullptr, total, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED) {
    ::close(fd);
    return make_error(ErrorCode::kIo, "tokenizer file '" + path + "': out of memory mapping it");
  }
  if (size > 0 && ::mmap(base, size, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0) == MAP_FAILED) {
    ::munmap(base, total);
    ::close(fd);
    return make_error(ErrorCode::kIo, "tokenizer file '" + path + "' cannot be mapped");
  }
  ::close(fd);
  auto result = parse_padded(static_cast<const uint8_t*>(base), size, path);
  ::munmap(base, total);
  return result;
}

}  // namespace servebench::tokenizer
