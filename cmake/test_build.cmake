# How test code compiles. Test sources are about half of the build, and most of each one's time
# was spent parsing GoogleTest, gMock and the standard library at the release's -O3. Test code
# compiles at -O0 in every build (the code under test keeps its build's flags; -O1 would bring
# GCC 12's false -Warray-bounds reports on std::string; the sanitizer presets compile everything
# at -O0), and every test target reuses one precompiled header of those libraries, built once
# (docs/reliability.md, "CI time"). SERVEBENCH_PCH=OFF compiles tests without it.
option(SERVEBENCH_PCH "Precompiled headers: one shared by the tests, and the CLI's and the mock's" ON)
set(SERVEBENCH_TEST_OPT "-O0")  # test code at -O0 compiles ~38% faster than at -O1 (ASan+UBSan)

add_library(sb_test_pch OBJECT ${PROJECT_SOURCE_DIR}/cmake/test_pch.cc)
# Only libraries without compile definitions: GCC refuses a precompiled header built with a
# macro (fmt's FMT_SHARED) that the target using it does not define.
target_link_libraries(sb_test_pch PRIVATE GTest::gtest GTest::gmock nlohmann_json::nlohmann_json)
target_compile_options(sb_test_pch PRIVATE ${SERVEBENCH_TEST_OPT})
if(SERVEBENCH_PCH)
  target_precompile_headers(sb_test_pch PRIVATE
    <gtest/gtest.h> <gmock/gmock.h> <nlohmann/json.hpp>
    <algorithm> <atomic> <chrono> <cmath> <cstdint> <cstdlib> <filesystem> <fstream>
    <functional> <map> <memory> <optional> <set> <sstream> <string> <string_view> <thread>
    <unordered_map> <vector>)
endif()

# Applies the above to one test executable.
function(servebench_test_build_flags name)
  target_compile_options(${name} PRIVATE ${SERVEBENCH_TEST_OPT})
  if(SERVEBENCH_PCH)
    target_precompile_headers(${name} REUSE_FROM sb_test_pch)
  endif()
endfunction()
