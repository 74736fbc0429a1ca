#include "metrics.h"

#include <cstdio>

namespace servebench::mock {

void MockMetrics::observe_ttft_ns(int64_t ns) {
  const double s = static_cast<double>(ns) / 1e9;
  for (size_t i = 0; i < kTtftBucketsS.size(); ++i) {
    if (s <= kTtftBucketsS[i]) {
      ttft_buckets_[i].fetch_add(1, std::memory_order_relaxed);
      break;
    }
  }
  ttft_count_.fetch_add(1, std::memory_order_relaxed);
  ttft_sum_ns_.fetch_add(ns, std::memory_order_relaxed);
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
  out += "# HELP vllm:time_to_first_token_seconds Histogram of time to first token in seconds.\n";
  out += "# TYPE vllm:time_to_first_token_seconds histogram\n";
  int64_t cumulative = 0;
  for (size_t i = 0; i < kTtftBucketsS.size(); ++i) {
    cumulative += ttft_buckets_[i].load(std::memory_order_relaxed);
    std::snprintf(buf, sizeof(buf), "%s,le=\"%g\"", label.c_str(), kTtftBucketsS[i]);
    line("vllm:time_to_first_token_seconds_bucket", buf, static_cast<double>(cumulative));
  }
  const double count = load(ttft_count_);
  line("vllm:time_to_first_token_seconds_bucket", label + ",le=\"+Inf\"", count);
  line("vllm:time_to_first_token_seconds_sum", label, load(ttft_sum_ns_) / 1e9);
  line("vllm:time_to_first_token_seconds_count", label, count);
  return out;
}

}  // namespace servebench::mock
