// Error summary groups: failed requests counted by (error kind, code, normalised message), so
// messages that embed per-request details — response ids (chatcmpl-9f2c...), UUIDs, hex
// digests, long numbers — fold into one group instead of one group per failure.
//
// Thread safety: normalize_error_message is a pure function; ErrorGroups is a value type, not
// thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace servebench::metrics {

// `message` with per-request details replaced by placeholders:
//   * UUIDs (8-4-4-4-12 hex digits)                        → <uuid>
//   * runs of 5 or more digits                             → <n>
//   * alphanumeric runs of 8 or more characters that mix
//     digits and letters (ids, hex digests, base62 tokens) → <id>
// Runs are maximal sequences of ASCII letters and digits, so a prefix such as "chatcmpl-" or
// "req_" stays: "chatcmpl-9f2c01ab77e6" → "chatcmpl-<id>". Words without digits ("Bearer",
// "internal") and short numbers (HTTP 500, 30 s) are kept.
std::string normalize_error_message(std::string_view message);

struct ErrorGroup {
  int32_t code = 0;     // HTTP status, 0 when none
  std::string type;     // error_kind_name()
  std::string message;  // normalised
  int64_t count = 0;
};

// Most frequent groups kept in the summary; the rest fold into one "(other messages)" group
// per (code, type).
inline constexpr size_t kMaxErrorGroups = 50;
// Distinct groups tracked while accumulating. Past this, failures with a new message count in
// their (code, type)'s "(other messages)" group straight away, so memory stays bounded even if
// normalisation misses a per-request detail (then which messages got their own group depends
// on arrival order; the counts per (code, type) never do).
inline constexpr size_t kMaxTrackedErrorGroups = 4096;

class ErrorGroups {
 public:
  void add(int32_t code, std::string_view type, std::string_view message);
  void merge(ErrorGroups&& other);
  // Groups, most frequent first (ties by code, type, message), capped at kMaxErrorGroups plus
  // the "(other messages)" groups.
  std::vector<ErrorGroup> groups() const;
  // Failures per kind name, sorted by name.
  std::vector<std::pair<std::string, int64_t>> by_kind() const;
  size_t memory_bytes() const;

 private:
  using Key = std::tuple<int32_t, std::string, std::string>;  // code, type, message
  void add_key(Key key, int64_t n);

  std::map<Key, int64_t> groups_;
  std::map<std::string, int64_t, std::less<>> by_kind_;
};

}  // namespace servebench::metrics
