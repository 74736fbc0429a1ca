// tokenizer.json's pipeline components: normalizers, pre-tokenizers, decoders and
// post-processors. Every component HF defines that we do not implement is an error naming it.
#include "tokenizer/hf_json_internal.h"

namespace servebench::tokenizer::hf_json {

namespace {

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

}  // namespace

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

namespace {

R<PrependScheme> parse_prepend_scheme(element e) {
  std::string s = str_or(e, "prepend_scheme", "");
  if (s.empty()) return bool_or(e, "add_prefix_space", true) ? PrependScheme::kAlways : PrependScheme::kNever;
  if (s == "always") return PrependScheme::kAlways;
  if (s == "first") return PrependScheme::kFirst;
  if (s == "never") return PrependScheme::kNever;
  return unsupported("Metaspace prepend_scheme", s);
}

}  // namespace

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

namespace {

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

}  // namespace

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

}  // namespace servebench::tokenizer::hf_json
