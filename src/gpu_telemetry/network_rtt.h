// Network RTT calibration (AIPerf's network latency, aiperf-inventory.md §7.3 and §5.4): TCP
// handshake probes to each endpoint's host:port every interval (1 s) from before the load
// until it ends, at least kMinRttSamples per endpoint (the missing ones are taken at stop()),
// each bounded by a 5 s connect timeout. The mean RTT is then subtracted from the
// start-anchored latencies: network_adjusted_<tag>.<stat> = max(0, stat − mean RTT).
//
// A probe measures connect() to the socket becoming writable (SYN → SYN-ACK): one round trip,
// no TLS, no HTTP. DNS is resolved before each probe, outside the measured interval.
//
// Thread safety: start()/stop()/accessors from one thread; accessors after stop().
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/clock.h"
#include "core/result.h"

namespace servebench::gpu_telemetry {

inline constexpr int kMinRttSamples = 5;
inline constexpr int64_t kRttConnectTimeoutNs = 5'000'000'000;
inline constexpr int64_t kDefaultRttIntervalNs = 1'000'000'000;

struct HostPort {
  std::string host;
  int port = 0;
};

// "http://h:8000/v1" → {h, 8000}; default ports 80 / 443; IPv6 in brackets. Error on a URL
// without a host.
Result<HostPort> host_port_of(const std::string& url);

// One TCP handshake to `hp` (resolved now); its duration in ns.
Result<int64_t> tcp_connect_rtt_ns(const HostPort& hp, int64_t timeout_ns);

struct RttProbe {
  std::string endpoint;  // "host:port"
  int64_t wall_ns = 0;
  std::optional<int64_t> rtt_ns;  // nullopt: failed (error says why)
  std::string error;
};

class RttProber {
 public:
  RttProber(std::vector<std::string> urls, int64_t interval_ns, const core::Clock& clock,
            core::WallAnchor anchor);
  ~RttProber();
  RttProber(const RttProber&) = delete;
  RttProber& operator=(const RttProber&) = delete;

  void start();
  void stop();  // tops each endpoint up to kMinRttSamples successful probes (bounded tries)

  const std::vector<RttProbe>& probes() const { return probes_; }
  // Mean of the successful probes of all endpoints (ns); nullopt when none succeeded.
  std::optional<double> mean_rtt_ns() const;
  // One line per probe for profile_export_network_latency.jsonl.
  std::string jsonl() const;

 private:
  void run();
  void probe_all();

  std::vector<std::string> urls_;
  std::vector<HostPort> targets_;
  const int64_t interval_ns_;
  const core::Clock& clock_;
  const core::WallAnchor anchor_;
  std::thread thread_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_requested_ = false;
  std::vector<RttProbe> probes_;
};

}  // namespace servebench::gpu_telemetry
