#include "metrics.h"

#include <algorithm>
#include <cstdio>

namespace servebench::mock {

void MockMetrics::Histogram::observe_ns(int64_t ns) {
  const double s = static_cast<double>(ns) / 1e9;
  for (size_t i = 0; i < kTtftBucketsS.size(); ++i) {
    if (s <= kTtftBucketsS[i]) {
      buckets[i].fetch_add(1, std::memory_order_relaxed);
      break;
    }
  }
  count.fetch_add(1, std::memory_order_relaxed);
  sum_ns.fetch_add(ns, std::memory_order_relaxed);
}

void MockMetrics::Histogram::render(const char* name, const std::string& label,
                                    std::string* out) const {
  char buf[256];
  auto line = [&](const char* suffix, const std::string& labels, double v) {
    std::snprintf(buf, sizeof(buf), "%s%s{%s} %.17g\n", name, suffix, labels.c_str(), v);
    *out += buf;
  };
  int64_t cumulative = 0;
  for (size_t i = 0; i < kTtftBucketsS.size(); ++i) {
    cumulative += buckets[i].load(std::memory_order_relaxed);
    char le[96];
    std::snprintf(le, sizeof(le), ",le=\"%g\"", kTtftBucketsS[i]);
    line("_bucket", label + le, static_cast<double>(cumulative));
  }
  const double n = static_cast<double>(count.load(std::memory_order_relaxed));
  line("_bucket", label + ",le=\"+Inf\"", n);
  line("_sum", label, static_cast<double>(sum_ns.load(std::memory_order_relaxed)) / 1e9);
  line("_count", label, n);
}

std::string MockMetrics::render(const std::string& model) const {
  std::string out;
  char buf[256];
  const std::string label = "model_name=\"" + model + "\"";
  auto line = [&](const char* name, const std::string& labels, double v) {
    std::snprintf(buf, sizeof(buf), "%s{%s} %.17g\n", name, labels.c_str(), v);
    out += buf;
  };
  auto load = [](const std::atomic<int64_t>& a) {
    return static_cast<double>(a.load(std::memory_order_relaxed));
  };
  out += "# HELP vllm:num_requests_running Number of requests in model execution batches.\n";
  out += "# TYPE vllm:num_requests_running gauge\n";
  line("vllm:num_requests_running", label, load(running));
  out += "# HELP vllm:num_requests_waiting Number of requests waiting to be processed.\n";
  out += "# TYPE vllm:num_requests_waiting gauge\n";
  line("vllm:num_requests_waiting", label, load(waiting));
  out += "# HELP vllm:prompt_tokens_total Number of prefill tokens processed.\n";
  out += "# TYPE vllm:prompt_tokens_total counter\n";
  line("vllm:prompt_tokens_total", label, load(prompt_tokens));
  out += "# HELP vllm:generation_tokens_total Number of generation tokens processed.\n";
  out += "# TYPE vllm:generation_tokens_total counter\n";
  line("vllm:generation_tokens_total", label, load(generation_tokens));
  out += "# HELP vllm:request_success_total Count of successfully processed requests.\n";
  out += "# TYPE vllm:request_success_total counter\n";
  line("vllm:request_success_total", label, load(success));
  out += "# HELP vllm:kv_cache_usage_perc KV-cache usage. 1 means 100 percent usage.\n";
  out += "# TYPE vllm:kv_cache_usage_perc gauge\n";
  const double slots = static_cast<double>(kv_slots > 0 ? kv_slots : 256);
  line("vllm:kv_cache_usage_perc", label, std::min(1.0, load(running) / slots));
  out += "# HELP vllm:time_to_first_token_seconds Histogram of time to first token in seconds.\n";
  out += "# TYPE vllm:time_to_first_token_seconds histogram\n";
  ttft_.render("vllm:time_to_first_token_seconds", label, &out);
  out += "# HELP vllm:e2e_request_latency_seconds Histogram of e2e request latency in seconds.\n";
  out += "# TYPE vllm:e2e_request_latency_seconds histogram\n";
  e2e_.render("vllm:e2e_request_latency_seconds", label, &out);
  return out;
}

}  // namespace servebench::mock
