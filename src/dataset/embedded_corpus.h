// The vendored synthetic-prompt corpus (data/corpus/mobydick.txt), embedded in the binary so
// that a servebench copied to another folder or machine needs no data files.
#pragma once

#include <string_view>

namespace servebench::dataset {

// The corpus bytes (static storage, never freed).
std::string_view embedded_corpus();

}  // namespace servebench::dataset
