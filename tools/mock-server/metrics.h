// Server-side counters of servebench-mock, rendered as Prometheus text with vLLM's names, so
// the client's server-metrics scraper can be tested against it:
//   vllm:num_requests_running, vllm:num_requests_waiting        (gauges)
//   vllm:prompt_tokens_total, vllm:generation_tokens_total      (counters)
//   vllm:request_success_total                                  (counter)
//   vllm:time_to_first_token_seconds                            (histogram, vLLM's buckets;
//        measured from request receipt to the first token write, queue time included)
//   vllm:e2e_request_latency_seconds                            (histogram, same buckets;
//        receipt to the last byte of a successful generation)
//   vllm:kv_cache_usage_perc                                    (gauge: running / kv_slots,
//        at most 1; kv_slots is --max-concurrency, else 256)
// Every sample carries the label model_name="<served model>".
//
// Thread safety: all updates are relaxed atomics; render() may race with updates (a scrape
// sees a slightly torn but monotone snapshot, as with any Prometheus client).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <string>

namespace servebench::mock {

class MockMetrics {
 public:
  static constexpr std::array<double, 22> kTtftBucketsS = {
      0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1,  0.25,  0.5,   0.75,
      1.0,   2.5,   5.0,  7.5,  10.0, 20.0, 40.0, 80.0, 160.0, 640.0, 2560.0};

  std::atomic<int64_t> running{0};
  std::atomic<int64_t> waiting{0};
  std::atomic<int64_t> prompt_tokens{0};
  std::atomic<int64_t> generation_tokens{0};
  std::atomic<int64_t> success{0};

  int64_t kv_slots = 256;  // set once before serving

  void observe_ttft_ns(int64_t ns) { ttft_.observe_ns(ns); }
  void observe_e2e_ns(int64_t ns) { e2e_.observe_ns(ns); }
  std::string render(const std::string& model) const;

 private:
  struct Histogram {
    std::array<std::atomic<int64_t>, kTtftBucketsS.size()> buckets{};  // non-cumulative
    std::atomic<int64_t> count{0};
    std::atomic<int64_t> sum_ns{0};
    void observe_ns(int64_t ns);
    void render(const char* name, const std::string& label, std::string* out) const;
  };
  Histogram ttft_;
  Histogram e2e_;
};

}  // namespace servebench::mock
