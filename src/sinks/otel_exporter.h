// --otel-url: streams the OpenTelemetry GenAI client metrics of a run to an OTLP/HTTP collector
// while it runs (AIPerf's names, aiperf-inventory.md §6.6; docs/sinks.md):
//   gen_ai.client.operation.duration           s        request latency, every request
//   gen_ai.client.operation.time_to_first_chunk s       streamed requests with content
//   gen_ai.client.operation.time_per_output_chunk s     each gap between content chunks
//   gen_ai.client.token.usage                  {token}  input and output (gen_ai.token.type)
//   aiperf.timing.requests.completed / .errors {request} counters (--stream timing|default)
// Histograms and counters are cumulative from the run's start; a failed request's duration
// point carries error.type. Every point has gen_ai.operation.name, gen_ai.provider.name,
// gen_ai.request.model, server.address and server.port.
//
// add() only copies a few numbers per record into a bounded queue under a short lock and
// returns: when the queue is full the oldest batch is dropped (counted; a warning at the end).
// It is called on the record-processing thread, never on a worker. The exporter's own thread
// drains the queue, folds it into the histograms and POSTs the whole state every interval and
// once more at stop(). A collector that is down or slow costs failed exports (counted, first
// error kept), never a stalled run.
//
// Thread safety: add() from one thread at a time; start()/stop()/warnings() from the owner.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/result.h"
#include "record/request_record.h"
#include "sinks/otlp_metrics.h"

namespace servebench::sinks {

struct OtelOptions {
  std::string url;                          // base URL or the full /v1/metrics URL
  std::vector<std::string> resource_attributes;  // key=value
  bool json = false;                        // OTLP/JSON instead of protobuf
  bool genai_metrics = true;                // --stream default|metrics
  bool timing_counters = true;              // --stream default|timing
  std::string operation_name = "chat";      // gen_ai.operation.name
  std::string provider;                     // gen_ai.provider.name
  std::string model;                        // gen_ai.request.model
  std::string server_address;
  std::string server_port;
  std::vector<std::string> headers;         // extra headers (credentials registered as secrets)
  int64_t interval_ns = 1'000'000'000;
  size_t max_queued_records = 100'000;
  std::string version;                      // scope version
};

class OtelExporter {
 public:
  explicit OtelExporter(OtelOptions options);
  ~OtelExporter();
  OtelExporter(const OtelExporter&) = delete;
  OtelExporter& operator=(const OtelExporter&) = delete;

  // The collector URL the metrics go to (…/v1/metrics).
  const std::string& endpoint() const { return endpoint_; }
  void start(uint64_t start_unix_ns);
  // Queues the batch's facts; never blocks on the network.
  void add(const std::vector<record::RequestRecord>& batch);
  // Final export, then the thread ends.
  void stop();
  // Failed exports and dropped batches, as one-line warnings ("" when none).
  std::vector<std::string> warnings() const;
  int64_t exports_ok() const { return exports_ok_; }

 private:
  struct Sample {
    double duration_s = -1;
    double ttfc_s = -1;
    int64_t input_tokens = -1;
    int64_t output_tokens = -1;
    bool ok = true;
    std::string error_type;
  };
  struct Batch {
    std::vector<Sample> samples;
    std::vector<double> chunk_gaps_s;
  };

  void run();
  void fold(Batch& b);
  void export_now();
  MetricsExport snapshot() const;

  OtelOptions options_;
  std::string endpoint_;
  Attributes base_attrs_;
  Attributes resource_;
  uint64_t start_unix_ns_ = 0;

  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Batch> queue_;
  size_t queued_records_ = 0;
  int64_t dropped_records_ = 0;
  bool stopping_ = false;
  std::thread thread_;

  // Exporter thread only (until stop() joined it).
  HistogramPoint duration_ok_, ttfc_, tpoc_, input_tokens_, output_tokens_;
  std::vector<HistogramPoint> duration_errors_;  // one per error.type
  int64_t completed_ = 0, errors_ = 0;
  int64_t exports_ok_ = 0, exports_failed_ = 0;
  std::string first_failure_;
};

}  // namespace servebench::sinks
