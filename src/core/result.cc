#include "core/result.h"

namespace servebench::core {

const char* error_code_name(ErrorCode code) {
  switch (code) {
    case ErrorCode::kInvalidArgument: return "invalid_argument";
    case ErrorCode::kNotFound: return "not_found";
    case ErrorCode::kIo: return "io";
    case ErrorCode::kParse: return "parse";
    case ErrorCode::kUnsupported: return "unsupported";
    case ErrorCode::kNetwork: return "network";
    case ErrorCode::kTimeout: return "timeout";
    case ErrorCode::kInternal: return "internal";
    case ErrorCode::kInterrupted: return "interrupted";
  }
  return "unknown";
}

}  // namespace servebench::core
