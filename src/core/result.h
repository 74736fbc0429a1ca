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
  kInterrupted,      // set-up stopped by SIGINT/SIGTERM (core/interrupt.h); not a usage error
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

// Early return on failure, so a chain of fallible steps reads as straight-line code.
//
//   SB_TRY(validate(x));                       // Status or Result: returns its error, if any
//   SB_TRY_ASSIGN(auto n, parse_count(text));  // declares (or assigns) n from the value
//
// The enclosing function returns a Result<U> or Status (any U): the error converts to it.
// Each macro evaluates `expr` exactly once. SB_TRY_ASSIGN expands to several statements, so it
// cannot be the body of an unbraced if/else, and its `lhs` cannot hold a bare comma (write
// `SB_TRY_ASSIGN(auto p, make_pair())`, not `SB_TRY_ASSIGN(std::pair<A, B> p, ...)`).
#define SB_TRY(expr)                                                           \
  do {                                                                         \
    if (auto sb_try_result_ = (expr); !sb_try_result_)                         \
      return ::tl::unexpected<::servebench::core::Error>(                      \
          std::move(sb_try_result_).error());                                  \
  } while (0)

#define SB_TRY_CONCAT_INNER_(a, b) a##b
#define SB_TRY_CONCAT_(a, b) SB_TRY_CONCAT_INNER_(a, b)
#define SB_TRY_ASSIGN(lhs, expr) \
  SB_TRY_ASSIGN_IMPL_(SB_TRY_CONCAT_(sb_try_value_, __COUNTER__), lhs, expr)
#define SB_TRY_ASSIGN_IMPL_(tmp, lhs, expr)                                             \
  auto tmp = (expr);                                                                    \
  if (!tmp) return ::tl::unexpected<::servebench::core::Error>(std::move(tmp).error()); \
  lhs = std::move(*tmp)

namespace servebench {
using core::Error;
using core::ErrorCode;
using core::make_error;
using core::Result;
using core::Status;
}  // namespace servebench
