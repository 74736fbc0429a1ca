# Unity builds (SERVEBENCH_UNITY: on in the asan and tsan presets, and in the release build that
# the Makefile configures unless UNITY=OFF): the libraries and executables under src/ and tools/
# compile in batches of 16 sources per translation unit, so the headers they share (fmt,
# simdjson, nlohmann/json, Asio/Beast, the standard library) are parsed once per batch instead of
# once per file. On the ASan+UBSan preset this took the source libraries from ~2.5x the CPU time
# down (docs/reliability.md "CI time"). Benchmarks are not batched. Developers who rebuild file
# by file configure with UNITY=OFF (-DSERVEBENCH_UNITY=OFF).
#
# A source whose file-local names (anonymous namespace) clash with a neighbour's in its batch is
# compiled alone: listed here, by folder.
# The build names the clash ("redefinition of ... {anonymous}::bad"): add the later file here, or
# give the helper a file-specific name.
set(SERVEBENCH_UNITY_ALONE
  src/cli:analyze_trace_cmd.cc src/cli:compare_cmd.cc src/cli:config_cmd.cc src/cli:search_cmd.cc
  src/cli:selftest_cmd.cc src/cli:synthesize_cmd.cc
  src/config:scenario.cc
  src/dataset:random_prompts.cc
  src/experiment:search_recipes.cc
  src/export:summary_json.cc
  src/media:video_codecs.cc
  src/telemetry:server_export.cc
  src/tokenizer:loader.cc
  tools/mock-server:chatlike_stream.cc tools/mock-server:embeddings_route.cc
  tools/mock-server:generic_routes.cc tools/mock-server:image_route.cc tools/mock-server:media_check.cc
  tools/mock-server:media_shapes.cc tools/mock-server:rankings_route.cc tools/mock-server:request_parse.cc
  tools/mock-server:session_stream.cc)
# Every endpoint type registers itself through a file-local `kRegistrar`: one file per unit.
set(SERVEBENCH_UNITY_OFF_TARGETS sb_endpoint_types)

function(servebench_unity_exceptions)
  foreach(entry ${SERVEBENCH_UNITY_ALONE})
    string(REPLACE ":" ";" parts "${entry}")
    list(GET parts 0 dir)
    list(GET parts 1 file)
    set_source_files_properties(${PROJECT_SOURCE_DIR}/${dir}/${file} DIRECTORY ${PROJECT_SOURCE_DIR}/${dir}
                                PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
  endforeach()
  foreach(t ${SERVEBENCH_UNITY_OFF_TARGETS})
    if(TARGET ${t})
      set_target_properties(${t} PROPERTIES UNITY_BUILD OFF)
    endif()
  endforeach()
endfunction()

# Tests (SERVEBENCH_UNITY_TESTS, on with SERVEBENCH_UNITY): each test executable's sources compile
# as one unit. A test unit's fixed cost is most of a small test file's: loading the shared
# precompiled header alone takes ~1.8 CPU-s (docs/reliability.md, "CI time"). A test source whose
# file-local helpers clash with another file's of the same executable is listed here and
# compiles alone, or its helpers get file-specific names.
set(SERVEBENCH_UNITY_TESTS_ALONE
  tests/integration/endpoints/chatlike_test.cc tests/integration/endpoints/generic_types_test.cc
  tests/integration/endpoints/rankings_test.cc tests/integration/metrics/aiperf013_e2e_test.cc
  tests/integration/mock/http_test.cc tests/integration/sinks/mlflow_test.cc
  tests/integration/sinks/otel_test.cc tests/unit/config/negation_test.cc
  tests/unit/config/trace_replay_options_test.cc tests/unit/dataset_agentic/weka_split_test.cc
  tests/unit/dataset_exact/count_cache_test.cc tests/unit/dataset_exact/random_prompts_test.cc
  tests/unit/endpoints/generic/template_test.cc tests/unit/endpoints/media_generation_test.cc
  tests/unit/endpoints/media_shapes_test.cc tests/unit/endpoints/messages_test.cc
  tests/unit/endpoints/usage_fields_test.cc tests/unit/experiment/cell_command_test.cc
  tests/unit/experiment/variant_test.cc tests/unit/export/aiperf013_records_test.cc
  tests/unit/export/artifacts_test.cc tests/unit/export/timeslice_export_test.cc
  tests/unit/gpu_telemetry/gpu_report_test.cc tests/unit/live/render_test.cc
  tests/unit/load/unreachable_test.cc tests/unit/metrics/aiperf013_rows_test.cc
  tests/unit/metrics/replay_lag_rows_test.cc tests/unit/metrics/summary_accumulator_test.cc
  tests/unit/metrics/summary_test.cc tests/unit/metrics/timeslices_test.cc
  tests/unit/mock/rankings_route_test.cc tests/unit/parquet/parquet_unit_test.cc
  tests/unit/report_html/telemetry_panels_test.cc tests/unit/telemetry/server_export_test.cc)

function(servebench_unity_test name)
  if(NOT SERVEBENCH_UNITY_TESTS)
    return()
  endif()
  set_target_properties(${name} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 0)
  foreach(path ${SERVEBENCH_UNITY_TESTS_ALONE})
    set_source_files_properties(${PROJECT_SOURCE_DIR}/${path} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
  endforeach()
endfunction()
