// Pre-tokenizers of the tokenizer.json pipeline (HF `pre_tokenizers` module). ByteLevel only
// splits here: byte-level models convert their vocabulary to raw bytes at load, so the byte to
// "Ġ"-alphabet mapping never runs per text.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "tokenizer/pipeline.h"
#include "tokenizer/unicode.h"

namespace servebench::tokenizer {

enum class SplitBehavior { kRemoved, kIsolated, kMergedWithPrevious, kMergedWithNext, kContiguous };

// One segment of a piece: [begin, end) and whether it matched the delimiter.
struct Segment {
  size_t begin, end;
  bool is_match;
};
// Applies HF's SplitDelimiterBehavior to segments covering `piece`, appending to *out.
void apply_split_behavior(const Piece& piece, const std::vector<Segment>& segments,
                          SplitBehavior behavior, std::vector<Piece>* out);

class SequencePreTokenizer final : public PreTokenizer {
 public:
  explicit SequencePreTokenizer(std::vector<std::unique_ptr<PreTokenizer>> steps)
      : steps_(std::move(steps)) {}
  void split(std::vector<Piece>* pieces, Arena* arena) const override;

 private:
  std::vector<std::unique_ptr<PreTokenizer>> steps_;
};

class SplitPreTokenizer final : public PreTokenizer {
 public:
  SplitPreTokenizer(std::shared_ptr<const Regex> regex, std::string literal,
                    SplitBehavior behavior, bool invert)
      : regex_(std::move(regex)), literal_(std::move(literal)), behavior_(behavior),
        invert_(invert) {}
  void split(std::vector<Piece>* pieces, Arena* arena) const override;

 private:
  std::shared_ptr<const Regex> regex_;  // null: literal_
  std::string literal_;
  SplitBehavior behavior_;
  bool invert_;
};

class ByteLevelPreTokenizer final : public PreTokenizer {
 public:
  ByteLevelPreTokenizer(bool add_prefix_space, bool use_regex);
  void split(std::vector<Piece>* pieces, Arena* arena) const override;

 private:
  bool add_prefix_space_;
  std::shared_ptr<const Regex> regex_;  // null when !use_regex
};

enum class PrependScheme { kAlways, kFirst, kNever };

class MetaspacePreTokenizer final : public PreTokenizer {
 public:
  MetaspacePreTokenizer(std::string replacement, PrependScheme scheme, bool split)
      : replacement_(std::move(replacement)), scheme_(scheme), split_(split) {}
  void split(std::vector<Piece>* pieces, Arena* arena) const override;

 private:
  std::string replacement_;
  PrependScheme scheme_;
  bool split_;
};

// Character-class splitters: Whitespace (\w+|[^\w\s]+), WhitespaceSplit, BertPreTokenizer,
// Punctuation, Digits, CharDelimiterSplit.
enum class CharSplitKind { kWhitespace, kWhitespaceSplit, kBert, kPunctuation, kDigits,
                           kDigitsIndividual, kCharDelimiter };

class CharClassPreTokenizer final : public PreTokenizer {
 public:
  CharClassPreTokenizer(CharSplitKind kind, SplitBehavior behavior, char32_t delimiter = 0);
  void split(std::vector<Piece>* pieces, Arena* arena) const override;

 private:
  CharSplitKind kind_;
  SplitBehavior behavior_;
  char32_t delimiter_;
  std::shared_ptr<const Regex> regex_;  // Whitespace's pattern
};

}  // namespace servebench::tokenizer
