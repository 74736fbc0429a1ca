// `servebench analyze-trace FILE [--block-size N] [--json]`: what a mooncake-style trace (JSONL
// lines with timestamp, input_length, output_length, hash_ids) asks of a server: ISL/OSL
// distributions, timestamp span and rate, and the prefix-cache hit rate an infinite cache would
// reach (a block is a hit when its hash id appeared in an earlier request; hit rate = reused
// blocks / total blocks; hit tokens count each reused block as --block-size tokens, capped at
// the request's input length).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <unordered_set>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/commands.h"

namespace servebench::cli {
namespace {

int fail(const std::string& msg) {
  std::fprintf(stderr, "servebench analyze-trace: %s\n", msg.c_str());
  return 2;
}

nlohmann::json describe(std::vector<double> v) {
  if (v.empty()) return nullptr;
  std::sort(v.begin(), v.end());
  auto pct = [&](double p) { return v[static_cast<size_t>(std::ceil(p / 100 * v.size())) - (p > 0 ? 1 : 0)]; };
  double sum = 0;
  for (double x : v) sum += x;
  return {{"count", v.size()}, {"min", v.front()}, {"p50", pct(50)}, {"avg", sum / v.size()},
          {"p90", pct(90)},    {"p99", pct(99)},   {"max", v.back()}};
}

}  // namespace

int run_analyze_trace(int argc, char** argv) {
  std::string file;
  long long block = 512;
  bool json = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--block-size" && i + 1 < argc) {
      block = std::atoll(argv[++i]);
      if (block <= 0) return fail("--block-size must be a positive number of tokens");
    } else if (a == "--json") {
      json = true;
    } else if ((a == "--input-file" || a == "-i") && i + 1 < argc) {
      file = argv[++i];
    } else if (a == "-h" || a == "--help") {
      std::puts("usage: servebench analyze-trace FILE.jsonl [--block-size N (512)] [--json]");
      return 0;
    } else if (file.empty() && a[0] != '-') {
      file = a;
    } else {
      return fail("unknown argument '" + a + "' (usage: servebench analyze-trace FILE [--block-size N] [--json])");
    }
  }
  if (file.empty()) return fail("give a trace file: servebench analyze-trace FILE.jsonl");
  std::ifstream in(file);
  if (!in) return fail("cannot read '" + file + "'; check the path");
  std::vector<double> isl, osl, ts;
  std::unordered_set<long long> seen;
  long long blocks = 0, hits = 0, tokens = 0, hit_tokens = 0;
  std::string line;
  for (long long n = 1; std::getline(in, line); ++n) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (!j.is_object()) return fail(file + ":" + std::to_string(n) + ": not a JSON object");
    const double in_len = j.value("input_length", 0.0);
    isl.push_back(in_len);
    if (j.contains("output_length")) osl.push_back(j["output_length"].get<double>());
    if (j.contains("timestamp")) ts.push_back(j["timestamp"].get<double>());
    long long req_hits = 0;
    if (j.contains("hash_ids") && j["hash_ids"].is_array()) {
      for (const auto& h : j["hash_ids"]) {
        if (!h.is_number_integer()) return fail(file + ":" + std::to_string(n) + ": hash_ids must be integers");
        ++blocks;
        if (!seen.insert(h.get<long long>()).second) ++hits, ++req_hits;
      }
    }
    tokens += static_cast<long long>(in_len);
    hit_tokens += std::min(static_cast<long long>(in_len), req_hits * block);
  }
  nlohmann::json out = {{"file", file}, {"requests", isl.size()}, {"block_size", block},
                        {"input_length", describe(isl)}, {"output_length", describe(osl)}};
  if (!ts.empty()) {
    const double span_ms = *std::max_element(ts.begin(), ts.end()) - *std::min_element(ts.begin(), ts.end());
    out["timestamp_span_s"] = span_ms / 1000;
    out["request_rate_per_s"] = span_ms > 0 ? (ts.size() - 1) / (span_ms / 1000) : 0.0;
  }
  out["cache"] = {{"total_blocks", blocks}, {"reused_blocks", hits},
                  {"block_hit_rate", blocks ? static_cast<double>(hits) / blocks : 0.0},
                  {"token_hit_rate", tokens ? static_cast<double>(hit_tokens) / tokens : 0.0}};
  if (json) {
    std::printf("%s\n", out.dump(2).c_str());
    return 0;
  }
  std::printf("%s: %zu requests\n", file.c_str(), isl.size());
  for (const char* k : {"input_length", "output_length"}) {
    const auto& d = out[k];
    if (d.is_null()) continue;
    std::printf("  %-14s min %g  p50 %g  avg %.1f  p90 %g  p99 %g  max %g\n", k, d["min"].get<double>(),
                d["p50"].get<double>(), d["avg"].get<double>(), d["p90"].get<double>(), d["p99"].get<double>(),
                d["max"].get<double>());
  }
  if (out.contains("timestamp_span_s"))
    std::printf("  timestamps     span %.3f s, %.3f requests/s\n", out["timestamp_span_s"].get<double>(),
                out["request_rate_per_s"].get<double>());
  std::printf("  prefix cache   %lld of %lld blocks reused: block hit rate %.4f, token hit rate %.4f "
              "(infinite cache, block size %lld)\n",
              hits, blocks, out["cache"]["block_hit_rate"].get<double>(), out["cache"]["token_hit_rate"].get<double>(),
              block);
  return 0;
}

}  // namespace servebench::cli
