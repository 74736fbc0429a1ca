// Connection-level failures and "the server became unreachable" detection.
//
// A connection-level failure is a request that never reached a server able to answer it:
// connect refused / unreachable / DNS / connect timeout (ErrorKind::kConnect), a failed TLS
// handshake (kTls), or a connection closed or reset before any response byte (kStreamReset with
// no byte received). Closed-loop slots back off on these (schedule.h); every other outcome, an
// HTTP 500 included, proves the server is there and resets the back-off.
//
// find_outages() looks at a run's profiling records in send order and finds the outages: maximal
// runs of consecutive sends (across all workers) that all failed at the connection level. The
// run ended unreachable when the last outage reaches the last send. Its rule for failing the run
// (exit 3 by default; see docs/reliability.md):
//
//   the run ends unreachable, AND the trailing outage lasted at least kFailMinShare of the
//   profiling window (first send to last end) or at least kFailMinNs, AND it holds at least
//   kFailMinErrors sends.
//
// Why time and not the share of failed requests: with back-off a server killed 1 s into a 5 s
// run at concurrency 10 leaves thousands of successes and only ~100 connection errors, so any
// error-share rule would pass the run although 80% of its time measured nothing. A brief
// refusal at the very end (a server restarting as the run stops) does not fail the run: it
// lasts neither 10% of the window nor a second. Mid-run outages the server recovered from are
// warnings only: the numbers around them are real.
//
// Thread safety: pure functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "record/request_record.h"

namespace servebench::load {

bool is_connection_failure(const record::RequestRecord& rec);
// A connection failure caused on this machine, not by the server: out of descriptors (EMFILE,
// ENFILE) or local ports (EADDRNOTAVAIL). Slots back off on it too, but it says nothing about
// the server, so find_outages skips such records (they neither make nor end an outage).
bool is_client_resource_failure(const record::RequestRecord& rec);

struct Outage {
  int64_t from_ns = 0;    // request_start_ns of its first send
  int64_t to_ns = 0;      // end_ns of its last failure (the last send's, for a trailing one)
  int64_t errors = 0;     // connection-level failures in it
  bool trailing = false;  // it reaches the URL's last send: the run ended unreachable
  int32_t url_index = 0;
  std::string example;  // the first failure's error message
};

struct UnreachableReport {
  std::vector<Outage> outages;  // per URL in time order; mid-run ones with >= kWarnMinErrors only
  std::vector<std::string> warnings;  // one line per reported outage
  bool fail_run = false;              // the failing rule above holds
};

inline constexpr double kFailMinShare = 0.10;
inline constexpr int64_t kFailMinNs = 1'000'000'000;
inline constexpr int64_t kFailMinErrors = 3;
inline constexpr int64_t kWarnMinErrors = 10;  // a mid-run outage worth a line

// Collects what find_outages needs from each record as records stream past (32 bytes per
// profiling record and one copy of each distinct connection-error message, up to
// kMaxMessages), so a run need not keep its records. add() in any order; report() sorts.
//
// Thread safety: not thread-safe; one owner (the record processing consumer).
class OutageTracker {
 public:
  void add(const record::RequestRecord& r);
  // Pre-sizes for `records` more records (a live run knows its request count): 32 bytes each
  // instead of up to twice that while the list doubles.
  void reserve(size_t records) { sends_.reserve(sends_.size() + records); }
  UnreachableReport report() const;

  static constexpr size_t kMaxMessages = 1024;

 private:
  struct Send {
    int64_t start_ns;
    int64_t end_ns;
    int64_t intended_ns;
    int32_t url_index;
    uint32_t message;  // kOk: not a connection failure; else index into messages_
  };
  static constexpr uint32_t kOk = UINT32_MAX;
  uint32_t message_id(const std::string& message);

  std::vector<Send> sends_;
  std::vector<std::string> messages_;
  std::unordered_map<std::string, uint32_t> message_ids_;  // messages_[i] -> i
};

// Looks at profiling records only (warm-up and dropped records — grace or Ctrl-C cancellations —
// are ignored). Offsets in the warnings count from the profiling phase's first intended send.
// With several --url values each server is judged on its own requests (round robin would
// otherwise interleave one dead server's failures with the other's successes).
UnreachableReport find_outages(const std::vector<record::RequestRecord>& records);

}  // namespace servebench::load
