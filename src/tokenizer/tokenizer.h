// Tokenizer: the interface every token count in servebench goes through (ISL, OSL, reasoning
// tokens, exact-length synthetic prompts, the mock server's usage numbers).
//
// Implementations: Hugging Face tokenizer.json pipelines, tiktoken rank files, and `builtin`
// (o200k_base embedded in the binary). Loaded once before t0.
//
// Thread safety: after construction every method is const and safe to call from any number of
// threads at once (implementations keep per-thread caches internally).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace servebench::tokenizer {

using TokenId = uint32_t;

class Tokenizer {
 public:
  virtual ~Tokenizer() = default;

  // Encodes text; add_special_tokens applies the post-processor (BOS/EOS templates).
  virtual std::vector<TokenId> encode(std::string_view text, bool add_special_tokens) const = 0;
  // Number of tokens of encode(text, false); implementations may count without materializing.
  virtual size_t count(std::string_view text) const { return encode(text, false).size(); }
  // Decodes ids back to text (skip_special_tokens drops special added tokens).
  virtual std::string decode(const std::vector<TokenId>& ids, bool skip_special_tokens) const = 0;
  // Human-readable name for logs and exports ("builtin (o200k_base)", a path, a hub id).
  virtual std::string name() const = 0;
  // Vocabulary size including added tokens.
  virtual size_t vocab_size() const = 0;
  // True for the id of an added token (HF `added_tokens`, special or not; tiktoken's special
  // tokens): control markers such as <|im_start|> or <think> that are matched in raw text before
  // the model, so synthetic text must not spell them. Default: none.
  virtual bool is_added_token(TokenId /*id*/) const { return false; }
  // Identity of what this tokenizer encodes with, for caches of token counts: a content hash of
  // the file it was loaded from (or of the embedded builtin blob), computed on the first call.
  // Equal non-empty fingerprints mean the same vocabulary and rules; "" means unknown (a test
  // double, a file that changed while loading or cannot be re-read): callers must not cache.
  virtual std::string fingerprint() const { return {}; }
};

struct LoadOptions {
  std::string revision = "main";  // --tokenizer-revision
  bool allow_network = true;      // false: cache only
  int64_t network_timeout_ms = 10'000;
};

// Loads `spec`: "builtin", "simple" (test-only whitespace rule), a tokenizer.json file, a folder
// holding one, a tiktoken rank file, or a Hugging Face hub id (cache, then download).
// Errors are one line naming `spec` and the fix; ErrorCode::kNotFound / kInvalidArgument map
// to exit code 2.
Result<std::shared_ptr<const Tokenizer>> load_tokenizer(std::string_view spec,
                                                        const LoadOptions& options = {});

// The tokenizer to use when --tokenizer is absent (AIPerf's rule): a model name of the form
// "org/name" is tried as a hub id (cache first, then the hub when options.allow_network); a name
// without "/" is looked up in the Hugging Face cache only. When neither resolves (a placeholder
// like "mock", no network, a gated repo) the result is `builtin` and *warning (if non-null) gets
// one line saying counts may differ from the model's. Never fails; network attempts are bounded
// by options.network_timeout_ms.
std::shared_ptr<const Tokenizer> resolve_default_tokenizer(std::string_view model,
                                                           const LoadOptions& options,
                                                           std::string* warning);

}  // namespace servebench::tokenizer
