// Result<T> and Error: the return type of every operation that can fail in an expected way
// (parsing, I/O, config, setup). No exceptions cross module boundaries.
//
// Thread safety: value types; safe to move between threads.
#pragma once

#include <string>
#include <string_view>
#include <utility>

#include <tl/expected.hpp>

namespace servebench::core {

enum class ErrorCode {
  kInvalidArgument,  // bad flag, bad value, bad file contents: exit code 2
  kNotFound,         // a file, tokenizer or model that cannot be found: exit code 2
  kIo,               // read/write failure
  kParse,            // malformed input
  kUnsupported,      // a component or feature we do not implement
  kNetwork,          // connect/transfer failure outside the measured path
  kTimeout,
  kInternal,
};

const char* error_code_name(ErrorCode code);

struct Error {
  ErrorCode code = ErrorCode::kInternal;
  std::string message;  // one line, names the input and the fix

  // True for errors caused by user input (map to exit code 2).
  bool is_usage() const {
    return code == ErrorCode::kInvalidArgument || code == ErrorCode::kNotFound ||
           code == ErrorCode::kParse || code == ErrorCode::kUnsupported;
  }
};

template <class T>
using Result = tl::expected<T, Error>;

// Status: a Result carrying no value.
using Status = tl::expected<void, Error>;

inline tl::unexpected<Error> make_error(ErrorCode code, std::string message) {
  return tl::unexpected<Error>(Error{code, std::move(message)});
}

inline Status ok_status() { return {}; }

}  // namespace servebench::core

namespace servebench {
using core::Error;
using core::ErrorCode;
using core::make_error;
using core::Result;
using core::Status;
}  // namespace servebench
