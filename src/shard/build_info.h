// Build facts for `servebench --version` and shard manifests: version, git commit, compiler,
// build type and the optional features compiled in. Set by CMake (src/shard/CMakeLists.txt).
#pragma once

#include <string>

namespace servebench::shard {

std::string version_string();     // "0.1.0 (abc1234)": what shards of one plan must share
std::string build_info_text();    // the multi-line `servebench --version` text

}  // namespace servebench::shard
