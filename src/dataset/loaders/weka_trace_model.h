// weka_trace internals shared by the parser (weka_trace.cc) and the builder (weka_build.cc): one
// parsed trace file, and the conversations built from it (see weka_trace.h for the rules).
//
// Thread safety: plain data and a pure function.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dataset/loaders/dataset_file.h"

namespace servebench::dataset::weka {

struct Req {
  double t = 0;
  std::string model;
  int64_t in = 0;
  int64_t out = 0;
  std::vector<int64_t> hash_ids;
  double api_time = -1;
  double think_time = -1;
};

struct Sub {
  double t = 0;
  std::string agent_id;
  double duration_ms = -1;
  int64_t prefix_tokens = 0;  // tool_tokens + system_tokens
  int64_t anchor = -1;        // index of the last parent request before the marker
  std::vector<Req> reqs;
};

struct Trace {
  std::string id;
  int64_t block_size = 0;
  int64_t prefix_tokens = 0;  // tool_tokens + system_tokens
  std::vector<Req> parent;
  std::vector<Sub> subs;
};

// The root conversation and its children. split_agents: split flat top-level requests and each
// sub-agent's calls into agent chains (weka_chains.h); false keeps one chain per trace and per
// sub-agent (AIPERF_DATASET_WEKA_SPLIT_FLATTENED_AGENTS=false).
DatasetFile build_trace(const Trace& tr, bool split_agents);

}  // namespace servebench::dataset::weka
