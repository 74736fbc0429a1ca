// Command-line options of servebench-mock. `main` parses them with parse_mock_options and
// exits 2 with the error's one line on failure.
//
// Thread safety: plain values; the parser is a pure function.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"
#include "dcgm_exporter.h"
#include "knobs.h"

namespace servebench::mock {

struct ServerConfig {
  std::string host = "127.0.0.1";
  uint16_t port = 0;  // 0: ephemeral
  int threads = 1;
  std::string model = "mock-model";  // served model name (/v1/models, metrics labels)
  RequestKnobs knobs;                // defaults for every request
  int64_t default_max_tokens = 128;  // when a request sets no max
  int64_t max_concurrency = 0;       // 0: unlimited
  int64_t max_body_bytes = 32ll << 20;
  std::string path_prefix;           // --path-prefix: every route lives under it ("" = none)
  uint64_t seed = 0;
  std::string record_requests_path;            // "" = off
  bool record_bodies = false;                  // --record-bodies: add each body to that file
  std::string ground_truth_path;               // "" = off
  int64_t stall_timeout_ns = 600'000'000'000;  // a stalled response closes after this
  int64_t video_steps = 4;              // --video-steps: progress steps of a video job
  int64_t video_content_bytes = 65536;  // --video-content-bytes: size of a finished video
};

struct MockOptions {
  ServerConfig server;
  std::string tokenizer_spec;  // "" = the whitespace-word rule
  std::string corpus_path;     // "" = the vendored default
  DcgmConfig dcgm;             // --dcgm-port and friends (dcgm_exporter.h)
  bool help = false;
  bool version = false;
};

// `args` excludes argv[0]. Accepts `--flag value` and `--flag=value`.
Result<MockOptions> parse_mock_options(const std::vector<std::string>& args);

// The --help text.
std::string mock_usage();

}  // namespace servebench::mock
