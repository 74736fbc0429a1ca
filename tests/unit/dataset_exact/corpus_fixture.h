// Shared by the dataset test suites: the vendored corpus and a tokenizer loaded by spec (a load
// failure fails the calling test).
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "dataset/synthetic_prompts.h"
#include "tokenizer/tokenizer.h"
#include "unit/tokenizer/fixtures.h"

namespace servebench::dataset::testing {

inline const std::string& vendored_corpus() {
  static const std::string c = [] {
    auto r = load_corpus(tokenizer::testing::source_dir() + "/data/corpus/mobydick.txt");
    return r ? *r : std::string();
  }();
  return c;
}

inline std::shared_ptr<const tokenizer::Tokenizer> load_tokenizer_or_fail(const std::string& spec) {
  auto t = tokenizer::load_tokenizer(spec);
  EXPECT_TRUE(t) << (t ? "" : t.error().message);
  return t ? *t : nullptr;
}

}  // namespace servebench::dataset::testing
