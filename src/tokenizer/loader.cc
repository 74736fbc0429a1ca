// load_tokenizer / resolve_default_tokenizer: maps a --tokenizer spec to an implementation.
#include <string>

#include "tokenizer/simple_tokenizer.h"
#include "tokenizer/tokenizer.h"

namespace servebench::tokenizer {

Result<std::shared_ptr<const Tokenizer>> load_tokenizer(std::string_view spec,
                                                        const LoadOptions& options) {
  if (spec == "simple") return std::shared_ptr<const Tokenizer>(std::make_shared<SimpleTokenizer>());
  return make_error(ErrorCode::kNotFound,
                    "tokenizer '" + std::string(spec) +
                        "' cannot be loaded: only 'simple' is available in this build");
}

std::shared_ptr<const Tokenizer> resolve_default_tokenizer(std::string_view model,
                                                           const LoadOptions& options,
                                                           std::string* warning) {
  if (warning) {
    *warning = "no tokenizer found for model '" + std::string(model) +
               "'; using 'simple' word counts (token counts may differ from the model's)";
  }
  return std::make_shared<SimpleTokenizer>();
}

}  // namespace servebench::tokenizer
