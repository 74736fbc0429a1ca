#include "text_source.h"

#include <openssl/evp.h>

#include <cctype>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <unordered_map>

#include "dataset/embedded_corpus.h"
#include "word_list.h"

#ifdef SERVEBENCH_MOCK_HAVE_TOKENIZER
#include "tokenizer/tokenizer.h"
#endif

namespace servebench::mock {
namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

class WordCounter final : public TokenCounter {
 public:
  int64_t count(std::string_view text) const override {
    int64_t n = 0;
    bool in_word = false;
    for (char c : text) {
      const bool space = is_space(c);
      if (!space && !in_word) ++n;
      in_word = !space;
    }
    return n;
  }
  std::string name() const override { return "whitespace words"; }
};

#ifdef SERVEBENCH_MOCK_HAVE_TOKENIZER
class RealCounter final : public TokenCounter {
 public:
  explicit RealCounter(std::shared_ptr<const tokenizer::Tokenizer> t) : t_(std::move(t)) {}
  int64_t count(std::string_view text) const override {
    return static_cast<int64_t>(t_->count(text));
  }
  std::string name() const override { return t_->name(); }

 private:
  std::shared_ptr<const tokenizer::Tokenizer> t_;
};
#endif

Result<std::string> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return make_error(ErrorCode::kNotFound,
                      "cannot read corpus file '" + path + "' (pass --corpus PATH)");
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

std::unique_ptr<TokenCounter> make_word_counter() { return std::make_unique<WordCounter>(); }

Result<std::unique_ptr<TokenCounter>> make_tokenizer_counter(const std::string& spec) {
#ifdef SERVEBENCH_MOCK_HAVE_TOKENIZER
  auto t = tokenizer::load_tokenizer(spec);
  if (!t) return tl::unexpected(t.error());
  return std::unique_ptr<TokenCounter>(std::make_unique<RealCounter>(std::move(*t)));
#else
  return make_error(ErrorCode::kUnsupported,
                    "--tokenizer " + spec +
                        ": this servebench-mock was built without the tokenizer library "
                        "(rebuild after src/tokenizer lands, or drop --tokenizer)");
#endif
}

Result<std::string> sha256_file_hex(const std::string& path) {
  auto data = read_file(path);
  if (!data) return tl::unexpected(data.error());
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (EVP_Digest(data->data(), data->size(), digest, &len, EVP_sha256(), nullptr) != 1) {
    return make_error(ErrorCode::kInternal, "SHA256 failed for '" + path + "'");
  }
  std::string hex;
  char buf[3];
  for (unsigned int i = 0; i < len; ++i) {
    std::snprintf(buf, sizeof(buf), "%02x", digest[i]);
    hex += buf;
  }
  return hex;
}

Result<OutputText> OutputText::load(const std::string& corpus_path, const TokenCounter* tokenizer) {
  SB_TRY_ASSIGN(auto corpus, read_checked(corpus_path));
  return from_text(corpus, "corpus '" + corpus_path + "'", tokenizer);
}

Result<OutputText> OutputText::load_embedded(const TokenCounter* tokenizer) {
  return from_text(dataset::embedded_corpus(), "the embedded corpus", tokenizer);
}

Result<std::string> OutputText::read_checked(const std::string& corpus_path) {
  // The checksum file sits next to the corpus: "HEX  NAME" lines.
  const size_t slash = corpus_path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : corpus_path.substr(0, slash);
  const std::string base = slash == std::string::npos ? corpus_path : corpus_path.substr(slash + 1);
  std::ifstream sums(dir + "/SHA256SUMS");
  if (!sums) {
    return make_error(ErrorCode::kNotFound, "cannot read '" + dir +
                                                "/SHA256SUMS' (the corpus checksum file must "
                                                "sit next to --corpus)");
  }
  std::string expected, line;
  while (std::getline(sums, line)) {
    std::istringstream ls(line);
    std::string hex, name;
    ls >> hex >> name;
    if (!name.empty() && name[0] == '*') name.erase(0, 1);
    if (name == base) expected = hex;
  }
  if (expected.empty()) {
    return make_error(ErrorCode::kNotFound,
                      "no checksum for '" + base + "' in " + dir + "/SHA256SUMS");
  }
  auto actual = sha256_file_hex(corpus_path);
  if (!actual) return tl::unexpected(actual.error());
  if (*actual != expected) {
    return make_error(ErrorCode::kInvalidArgument, "corpus '" + corpus_path + "' has SHA256 " +
                                                       *actual + " but SHA256SUMS says " +
                                                       expected + " (restore the vendored file)");
  }
  return read_file(corpus_path);
}

Result<OutputText> OutputText::from_text(std::string_view corpus, const std::string& what,
                                         const TokenCounter* tokenizer) {
  OutputText text;
  if (tokenizer != nullptr) {
    text.strip_first_space_ = tokenizer->count(" the") > tokenizer->count("the");
  }
  for (const std::string& w : mock_word_list()) {
    if (tokenizer != nullptr) {
      // One token in the middle of a text, no merge with itself or a neighbour, and one token
      // where it would start a text.
      const std::string first = text.strip_first_space_ ? w.substr(1) : w;
      if (tokenizer->count("the" + w) != 2 || tokenizer->count("the" + w + w) != 3 ||
          tokenizer->count("the" + w + " the") != 3 || tokenizer->count(first) != 1 ||
          tokenizer->count(first + " the") != 2) {
        continue;
      }
    }
    text.vocabulary_.push_back(w);
  }
  if (text.vocabulary_.size() < 16) {
    return make_error(ErrorCode::kUnsupported,
                      "tokenizer '" + (tokenizer ? tokenizer->name() : std::string("?")) +
                          "' keeps only " + std::to_string(text.vocabulary_.size()) +
                          " single-token words of the mock word list (need 16)");
  }
  std::unordered_map<std::string, uint16_t> index;
  for (size_t i = 0; i < text.vocabulary_.size(); ++i) {
    index.emplace(text.vocabulary_[i].substr(1), static_cast<uint16_t>(i));
  }
  std::string word;
  auto flush = [&] {
    if (word.empty()) return;
    auto it = index.find(word);
    if (it != index.end()) text.sequence_.push_back(it->second);
    word.clear();
  };
  for (char c : corpus) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalpha(u) != 0) {
      word.push_back(static_cast<char>(std::tolower(u)));
    } else {
      flush();
    }
  }
  flush();
  if (text.sequence_.empty()) {
    return make_error(ErrorCode::kInvalidArgument,
                      what + " has none of the mock's words");
  }
  if (tokenizer != nullptr) {
    // Prove the construction on a long sample: its token count must equal its piece count.
    std::string sample;
    const int64_t n = 4096;
    text.append(0, n, &sample, /*starts_text=*/true);
    const int64_t got = tokenizer->count(sample);
    if (got != n) {
      return make_error(ErrorCode::kUnsupported,
                        "tokenizer '" + tokenizer->name() + "' counts " + std::to_string(got) +
                            " tokens in a " + std::to_string(n) +
                            "-word mock output (pieces merge); exact counts are impossible");
    }
  }
  return text;
}

void OutputText::append(uint64_t start, int64_t count, std::string* out, bool starts_text) const {
  size_t pos = static_cast<size_t>(start % sequence_.size());
  for (int64_t i = 0; i < count; ++i) {
    const std::string& piece = vocabulary_[sequence_[pos]];
    if (i == 0 && starts_text && strip_first_space_) {
      out->append(piece, 1);
    } else {
      out->append(piece);
    }
    if (++pos == sequence_.size()) pos = 0;
  }
}

}  // namespace servebench::mock
