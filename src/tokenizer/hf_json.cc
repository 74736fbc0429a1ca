// tokenizer.json -> HfParts. Every component HF defines that we do not implement is an error
// naming it, never a silent approximation.
#include <fcntl.h>
#include <simdjson.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "tokenizer/hf_tokenizer.h"
#include "tokenizer/normalizers.h"
#include "tokenizer/post_decoders.h"
#include "tokenizer/pre_tokenizers.h"

namespace servebench::tokenizer {
namespace {

using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::object;

template <class T>
using R = Result<T>;

// Ids index dense tables: anything this large is a corrupt file, not a vocabulary.
constexpr uint64_t kMaxTokenId = 1u << 24;

std::string str_or(element e, const char* key, std::string def) {
  std::string_view v;
  if (e[key].get(v) == simdjson::SUCCESS) return std::string(v);
  return def;
}
bool bool_or(element e, const char* key, bool def) {
  bool v;
  if (e[key].get(v) == simdjson::SUCCESS) return v;
  return def;
}
bool is_null_or_missing(element e, const char* key) {
  element v;
  return e[key].get(v) != simdjson::SUCCESS || v.is_null();
}
tl::unexpected<Error> bad(const std::string& what) {
  return make_error(ErrorCode::kParse, "tokenizer.json: " + what);
}
tl::unexpected<Error> unsupported(const std::string& kind, const std::string& type) {
  return make_error(ErrorCode::kUnsupported,
                    "tokenizer.json: " + kind + " '" + type + "' is not supported by servebench");
}

// A "pattern" field: {"String": "..."} or {"Regex": "..."}.
Status parse_pattern(element e, std::shared_ptr<const Regex>* regex, std::string* literal) {
  element p;
  if (e["pattern"].get(p) != simdjson::SUCCESS) return bad("pattern missing");
  std::string_view v;
  if (p["String"].get(v) == simdjson::SUCCESS) {
    *literal = std::string(v);
    return core::ok_status();
  }
  if (p["Regex"].get(v) == simdjson::SUCCESS) {
    auto r = Regex::compile(v);
    if (!r) return tl::unexpected(r.error());
    *regex = *r;
    return core::ok_status();
  }
  return bad("pattern must be String or Regex");
}

R<SplitBehavior> parse_behavior(const std::string& b) {
  if (b == "Removed") return SplitBehavior::kRemoved;
  if (b == "Isolated") return SplitBehavior::kIsolated;
  if (b == "MergedWithPrevious") return SplitBehavior::kMergedWithPrevious;
  if (b == "MergedWithNext") return SplitBehavior::kMergedWithNext;
  if (b == "Contiguous") return SplitBehavior::kContiguous;
  return unsupported("split behavior", b);
}

R<std::unique_ptr<Normalizer>> parse_normalizer(element e) {
  std::string type = str_or(e, "type", "");
  if (type == "Sequence") {
    std::vector<std::unique_ptr<Normalizer>> steps;
    array a;
    if (e["normalizers"].get(a) != simdjson::SUCCESS) return bad("Sequence normalizer without list");
    for (element x : a) {
      auto n = parse_normalizer(x);
      if (!n) return n;
      steps.push_back(std::move(*n));
    }
    return std::unique_ptr<Normalizer>(new SequenceNormalizer(std::move(steps)));
  }
  if (type == "NFC") return std::unique_ptr<Normalizer>(new UnicodeNormalizer(NormalForm::kNfc));
  if (type == "NFD") return std::unique_ptr<Normalizer>(new UnicodeNormalizer(NormalForm::kNfd));
  if (type == "NFKC") return std::unique_ptr<Normalizer>(new UnicodeNormalizer(NormalForm::kNfkc));
  if (type == "NFKD") return std::unique_ptr<Normalizer>(new UnicodeNormalizer(NormalForm::kNfkd));
  if (type == "Lowercase") return std::unique_ptr<Normalizer>(new LowercaseNormalizer());
  if (type == "Strip") {
    return std::unique_ptr<Normalizer>(
        new StripNormalizer(bool_or(e, "strip_left", true), bool_or(e, "strip_right", true)));
  }
  if (type == "StripAccents") return std::unique_ptr<Normalizer>(new StripAccentsNormalizer());
  if (type == "Nmt") return std::unique_ptr<Normalizer>(new NmtNormalizer());
  if (type == "Prepend") return std::unique_ptr<Normalizer>(new PrependNormalizer(str_or(e, "prepend", "")));
  if (type == "Replace") {
    std::shared_ptr<const Regex> re;
    std::string lit;
    if (auto s = parse_pattern(e, &re, &lit); !s) return tl::unexpected(s.error());
    return std::unique_ptr<Normalizer>(new ReplaceNormalizer(re, lit, str_or(e, "content", "")));
  }
  if (type == "BertNormalizer") {
    bool lower = bool_or(e, "lowercase", true);
    bool strip = is_null_or_missing(e, "strip_accents") ? lower : bool_or(e, "strip_accents", lower);
    return std::unique_ptr<Normalizer>(new BertNormalizer(bool_or(e, "clean_text", true),
                                                          bool_or(e, "handle_chinese_chars", true),
                                                          strip, lower));
  }
  if (type == "Precompiled") {
    std::string_view b64;
    if (e["precompiled_charsmap"].get(b64) != simdjson::SUCCESS) {
      // A null charsmap is the identity.
      return std::unique_ptr<Normalizer>(new SequenceNormalizer({}));
    }
    std::string blob;
    int val = 0, bits = -8;
    for (char c : b64) {
      int d;
      if (c >= 'A' && c <= 'Z') d = c - 'A';
      else if (c >= 'a' && c <= 'z') d = c - 'a' + 26;
      else if (c >= '0' && c <= '9') d = c - '0' + 52;
      else if (c == '+') d = 62;
      else if (c == '/') d = 63;
      else continue;
      val = (val << 6) | d;
      bits += 6;
      if (bits >= 0) {
        blob.push_back(static_cast<char>((val >> bits) & 0xFF));
        bits -= 8;
      }
    }
    return PrecompiledNormalizer::create(std::move(blob));
  }
  return unsupported("normalizer", type);
}

R<PrependScheme> parse_prepend_scheme(element e) {
  std::string s = str_or(e, "prepend_scheme", "");
  if (s.empty()) return bool_or(e, "add_prefix_space", true) ? PrependScheme::kAlways : PrependScheme::kNever;
  if (s == "always") return PrependScheme::kAlways;
  if (s == "first") return PrependScheme::kFirst;
  if (s == "never") return PrependScheme::kNever;
  return unsupported("Metaspace prepend_scheme", s);
}

// `byte_level` is set when the chain contains a ByteLevel pre-tokenizer (which must come last).
R<std::unique_ptr<PreTokenizer>> parse_pre_tokenizer(element e, bool* byte_level, bool last) {
  std::string type = str_or(e, "type", "");
  if (type == "Sequence") {
    array a;
    if (e["pretokenizers"].get(a) != simdjson::SUCCESS) return bad("Sequence pre_tokenizer without list");
    std::vector<std::unique_ptr<PreTokenizer>> steps;
    size_t n = a.size(), i = 0;
    for (element x : a) {
      auto p = parse_pre_tokenizer(x, byte_level, last && ++i == n);
      if (!p) return p;
      steps.push_back(std::move(*p));
    }
    return std::unique_ptr<PreTokenizer>(new SequencePreTokenizer(std::move(steps)));
  }
  if (type == "ByteLevel") {
    if (!last) return unsupported("pre_tokenizer", "ByteLevel followed by other pre-tokenizers");
    *byte_level = true;
    return std::unique_ptr<PreTokenizer>(
        new ByteLevelPreTokenizer(bool_or(e, "add_prefix_space", true), bool_or(e, "use_regex", true)));
  }
  if (type == "Split") {
    std::shared_ptr<const Regex> re;
    std::string lit;
    if (auto s = parse_pattern(e, &re, &lit); !s) return tl::unexpected(s.error());
    auto b = parse_behavior(str_or(e, "behavior", "Isolated"));
    if (!b) return tl::unexpected(b.error());
    return std::unique_ptr<PreTokenizer>(new SplitPreTokenizer(re, lit, *b, bool_or(e, "invert", false)));
  }
  if (type == "Metaspace") {
    auto scheme = parse_prepend_scheme(e);
    if (!scheme) return tl::unexpected(scheme.error());
    return std::unique_ptr<PreTokenizer>(
        new MetaspacePreTokenizer(str_or(e, "replacement", "\xE2\x96\x81"), *scheme, bool_or(e, "split", true)));
  }
  if (type == "Whitespace") {
    return std::unique_ptr<PreTokenizer>(new CharClassPreTokenizer(CharSplitKind::kWhitespace, SplitBehavior::kRemoved));
  }
  if (type == "WhitespaceSplit") {
    return std::unique_ptr<PreTokenizer>(new CharClassPreTokenizer(CharSplitKind::kWhitespaceSplit, SplitBehavior::kRemoved));
  }
  if (type == "BertPreTokenizer") {
    return std::unique_ptr<PreTokenizer>(new CharClassPreTokenizer(CharSplitKind::kBert, SplitBehavior::kRemoved));
  }
  if (type == "Punctuation") {
    auto b = parse_behavior(str_or(e, "behavior", "Isolated"));
    if (!b) return tl::unexpected(b.error());
    return std::unique_ptr<PreTokenizer>(new CharClassPreTokenizer(CharSplitKind::kPunctuation, *b));
  }
  if (type == "Digits") {
    return std::unique_ptr<PreTokenizer>(new CharClassPreTokenizer(
        bool_or(e, "individual_digits", false) ? CharSplitKind::kDigitsIndividual : CharSplitKind::kDigits,
        SplitBehavior::kIsolated));
  }
  if (type == "CharDelimiterSplit") {
    std::string d = str_or(e, "delimiter", " ");
    size_t p = 0;
    char32_t c = d.empty() ? U' ' : next_code_point(d, &p);
    return std::unique_ptr<PreTokenizer>(new CharClassPreTokenizer(CharSplitKind::kCharDelimiter, SplitBehavior::kRemoved, c));
  }
  return unsupported("pre_tokenizer", type);
}

R<std::unique_ptr<Decoder>> parse_decoder(element e) {
  std::string type = str_or(e, "type", "");
  if (type == "Sequence") {
    array a;
    if (e["decoders"].get(a) != simdjson::SUCCESS) return bad("Sequence decoder without list");
    std::vector<std::unique_ptr<Decoder>> steps;
    for (element x : a) {
      auto d = parse_decoder(x);
      if (!d) return d;
      steps.push_back(std::move(*d));
    }
    return std::unique_ptr<Decoder>(new SequenceDecoder(std::move(steps)));
  }
  if (type == "ByteLevel") return std::unique_ptr<Decoder>(new ByteLevelDecoder());
  if (type == "ByteFallback") return std::unique_ptr<Decoder>(new ByteFallbackDecoder());
  if (type == "Fuse") return std::unique_ptr<Decoder>(new FuseDecoder());
  if (type == "Metaspace") {
    auto scheme = parse_prepend_scheme(e);
    if (!scheme) return tl::unexpected(scheme.error());
    return std::unique_ptr<Decoder>(
        new MetaspaceDecoder(str_or(e, "replacement", "\xE2\x96\x81"), *scheme != PrependScheme::kNever));
  }
  if (type == "WordPiece") {
    return std::unique_ptr<Decoder>(new WordPieceDecoder(str_or(e, "prefix", "##"), bool_or(e, "cleanup", true)));
  }
  if (type == "Strip") {
    int64_t start = 0, stop = 0;
    if (e["start"].get(start) != simdjson::SUCCESS) start = 0;
    if (e["stop"].get(stop) != simdjson::SUCCESS) stop = 0;
    return std::unique_ptr<Decoder>(new StripDecoder(str_or(e, "content", " "), static_cast<size_t>(start), static_cast<size_t>(stop)));
  }
  if (type == "Replace") {
    std::shared_ptr<const Regex> re;
    std::string lit;
    if (auto s = parse_pattern(e, &re, &lit); !s) return tl::unexpected(s.error());
    return std::unique_ptr<Decoder>(new ReplaceDecoder(re, lit, str_or(e, "content", "")));
  }
  if (type == "BPEDecoder") return std::unique_ptr<Decoder>(new BpeSuffixDecoder(str_or(e, "suffix", "</w>")));
  return unsupported("decoder", type);
}

R<std::vector<TokenId>> special_ids(object specials, std::string_view name) {
  element s;
  if (specials[name].get(s) != simdjson::SUCCESS) return bad("template special token '" + std::string(name) + "' undefined");
  std::vector<TokenId> ids;
  array a;
  if (s["ids"].get(a) != simdjson::SUCCESS) return bad("template special token without ids");
  for (element x : a) {
    uint64_t v;
    if (x.get(v) != simdjson::SUCCESS) return bad("template special token id not an integer");
    if (v >= kMaxTokenId) return bad("template special token id out of range");
    ids.push_back(static_cast<TokenId>(v));
  }
  return ids;
}

R<std::unique_ptr<PostProcessor>> parse_post_processor(element e) {
  std::string type = str_or(e, "type", "");
  if (type == "Sequence") {
    array a;
    if (e["processors"].get(a) != simdjson::SUCCESS) return bad("Sequence post_processor without list");
    std::vector<std::unique_ptr<PostProcessor>> steps;
    for (element x : a) {
      auto p = parse_post_processor(x);
      if (!p) return p;
      steps.push_back(std::move(*p));
    }
    return std::unique_ptr<PostProcessor>(new SequencePostProcessor(std::move(steps)));
  }
  if (type == "ByteLevel") return std::unique_ptr<PostProcessor>(new NoopPostProcessor());
  if (type == "BertProcessing" || type == "RobertaProcessing") {
    array cls, sep;
    uint64_t cls_id, sep_id;
    if (e["cls"].get(cls) != simdjson::SUCCESS || e["sep"].get(sep) != simdjson::SUCCESS ||
        cls.at(1).get(cls_id) != simdjson::SUCCESS || sep.at(1).get(sep_id) != simdjson::SUCCESS ||
        cls_id >= kMaxTokenId || sep_id >= kMaxTokenId) {
      return bad(type + " without valid cls/sep");
    }
    return std::unique_ptr<PostProcessor>(new WrapPostProcessor({static_cast<TokenId>(cls_id)}, {static_cast<TokenId>(sep_id)}));
  }
  if (type == "TemplateProcessing") {
    array single;
    object specials;
    if (e["single"].get(single) != simdjson::SUCCESS) return bad("TemplateProcessing without single");
    if (e["special_tokens"].get(specials) != simdjson::SUCCESS) specials = object();
    std::vector<TokenId> prefix, suffix;
    bool seen_seq = false;
    for (element item : single) {
      element st;
      if (item["SpecialToken"].get(st) == simdjson::SUCCESS) {
        auto ids = special_ids(specials, str_or(st, "id", ""));
        if (!ids) return tl::unexpected(ids.error());
        auto& dst = seen_seq ? suffix : prefix;
        dst.insert(dst.end(), ids->begin(), ids->end());
      } else if (item["Sequence"].error() == simdjson::SUCCESS) {
        if (seen_seq) return unsupported("TemplateProcessing", "single template with two sequences");
        seen_seq = true;
      } else {
        return bad("TemplateProcessing item is neither SpecialToken nor Sequence");
      }
    }
    return std::unique_ptr<PostProcessor>(new WrapPostProcessor(std::move(prefix), std::move(suffix)));
  }
  return unsupported("post_processor", type);
}

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
