# Unity builds (SERVEBENCH_UNITY, on in the asan and tsan presets): the libraries and executables
# under src/ and tools/ compile in batches of 16 sources per translation unit, so the headers
# they share (fmt, simdjson, nlohmann/json, Asio/Beast, the standard library) are parsed once per
# batch instead of once per file. On the ASan+UBSan preset this took the source libraries from
# ~2.5x the CPU time down (docs/reliability.md "CI time"). Tests and benchmarks are not batched
# (their file-local helpers share names), and neither is the release build that developers
# rebuild file by file.
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
