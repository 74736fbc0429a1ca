#include "record/request_record.h"

namespace servebench::record {

const char* error_kind_name(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kNone: return "none";
    case ErrorKind::kConnect: return "connect";
    case ErrorKind::kTls: return "tls";
    case ErrorKind::kTimeout: return "timeout";
    case ErrorKind::kHttpStatus: return "http_status";
    case ErrorKind::kStreamReset: return "stream_reset";
    case ErrorKind::kMalformedSse: return "malformed_sse";
    case ErrorKind::kServerErrorEvent: return "server_error_event";
    case ErrorKind::kCancelled: return "cancelled";
    case ErrorKind::kOther: return "other";
  }
  return "other";
}

const char* phase_name(Phase phase) {
  return phase == Phase::kWarmup ? "warmup" : "profiling";
}

}  // namespace servebench::record
