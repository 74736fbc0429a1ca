#include "dataset/loaders/input_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/interrupt.h"
#include "core/units.h"

namespace servebench::dataset {
namespace {

constexpr size_t kChunkBytes = size_t{1} << 20;
constexpr int kPollIntervalMs = 100;  // the bound on how late a raised interrupt is seen

// Closes the descriptor it owns (never stdin).
class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ > STDIN_FILENO) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

tl::unexpected<Error> not_regular(std::string_view what, const std::string& path, mode_t mode) {
  // A stream (FIFO, socket) can still be read through standard input, where limits apply.
  const bool stream = S_ISFIFO(mode) || S_ISSOCK(mode);
  return make_error(ErrorCode::kInvalidArgument,
                    fmt::format("{} '{}' is {}; give a regular file{}", what, path, kind_of(mode),
                                stream ? fmt::format(" (or stream it through standard input: "
                                                     "`cat {} | servebench ... {} -`)",
                                                     path, what)
                                       : std::string()));
}

tl::unexpected<Error> too_big(std::string_view what, const std::string& path, int64_t limit) {
  return make_error(ErrorCode::kInvalidArgument,
                    fmt::format("{} '{}' is larger than the {}-byte limit; raise "
                                "SERVEBENCH_INPUT_MAX_BYTES if the file is meant to be this big",
                                what, path, limit));
}

tl::unexpected<Error> interrupted(std::string_view what, const std::string& path) {
  return make_error(ErrorCode::kInterrupted,
                    fmt::format("interrupted while reading {} '{}'", what, path));
}

// Waits until `fd` is readable, polling the interrupt flag (standard input may be a pipe whose
// writer has not written yet). False when interrupted.
bool wait_readable(int fd) {
  pollfd p{fd, POLLIN, 0};
  while (!core::interrupt_requested()) {
    const int n = ::poll(&p, 1, kPollIntervalMs);
    if (n > 0 || (n < 0 && errno != EINTR)) return true;  // readable, hung up, or let read() say
  }
  return false;
}

// Reads `fd` to the end in chunks, refusing more than `limit` bytes.
Result<std::string> read_all(int fd, bool is_pipe, int64_t limit, std::string_view what,
                             const std::string& path, int64_t size_hint = 0) {
  std::string out;
  // A regular file's size: one allocation, no copies as the string grows, and room for a JSON
  // parser's padding (64 bytes) and the past-the-limit probe byte.
  if (size_hint > 0 && size_hint <= limit) out.reserve(static_cast<size_t>(size_hint) + 128);
  for (;;) {
    if (core::interrupt_requested()) return interrupted(what, path);
    if (is_pipe && !wait_readable(fd)) return interrupted(what, path);
    const size_t old = out.size();
    const size_t room = static_cast<size_t>(limit) - std::min(old, static_cast<size_t>(limit));
    // One byte past the limit tells "exactly at the limit" from "over it".
    size_t want = std::min(kChunkBytes, room + 1);
    if (out.capacity() > old) want = std::min(want, out.capacity() - old);  // never regrow
    out.resize(old + want);
    const ssize_t n = ::read(fd, out.data() + old, want);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) {
      out.resize(old);
      continue;
    }
    if (n < 0) {
      const std::string why = std::strerror(errno);
      return make_error(ErrorCode::kIo, fmt::format("{} '{}' cannot be read: {}", what, path, why));
    }
    out.resize(old + static_cast<size_t>(n));
    if (n == 0) return out;
    if (static_cast<int64_t>(out.size()) > limit) return too_big(what, path, limit);
  }
}

Result<int64_t> limit_from(const core::EnvSnapshot& env, core::EnvVar var, int64_t fallback) {
  const auto& v = env.get(var);
  if (!v || v->empty()) return fallback;
  auto n = core::parse_count(*v);
  if (!n || *n <= 0)
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("{}='{}' is not a positive byte count (e.g. 4000000000 or 4G)",
                                  core::env_var_info(var).name, *v));
  return *n;
}

Result<std::string> read_stdin(const InputLimits& limits, std::string_view what) {
  if (::isatty(STDIN_FILENO))
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("{} '-' reads standard input, which is a terminal; pipe or "
                                  "redirect a file into it (e.g. `< data.jsonl`)",
                                  what));
  struct stat st;
  const bool is_pipe = ::fstat(STDIN_FILENO, &st) != 0 || !S_ISREG(st.st_mode);
  return read_all(STDIN_FILENO, is_pipe, limits.max_bytes, what, "-");
}

}  // namespace

Result<InputLimits> InputLimits::from_env(const core::EnvSnapshot& env) {
  InputLimits l;
  SB_TRY_ASSIGN(l.max_bytes,
                limit_from(env, core::EnvVar::kServebenchInputMaxBytes, kDefaultMaxInputBytes));
  SB_TRY_ASSIGN(l.max_line_bytes, limit_from(env, core::EnvVar::kServebenchInputMaxLineBytes,
                                             kDefaultMaxInputLineBytes));
  return l;
}

Result<std::string> read_input_file(const std::string& path, const InputLimits& limits,
                                    std::string_view what) {
  if (is_stdin_path(path)) return read_stdin(limits, what);
  // stat before open: opening a FIFO for reading blocks until a writer appears.
  struct stat st;
  if (::stat(path.c_str(), &st) != 0)
    return make_error(ErrorCode::kNotFound,
                      fmt::format("{} '{}' cannot be read: {} (check the path)", what, path,
                                  std::strerror(errno)));
  if (!S_ISREG(st.st_mode)) return not_regular(what, path, st.st_mode);
  if (st.st_size > limits.max_bytes) return too_big(what, path, limits.max_bytes);
  // O_NONBLOCK: should the path have been swapped for a FIFO since the stat, open still returns.
  Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (fd.get() < 0)
    return make_error(ErrorCode::kNotFound,
                      fmt::format("{} '{}' cannot be opened: {} (check the path and permissions)",
                                  what, path, std::strerror(errno)));
  if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode))
    return not_regular(what, path, st.st_mode);
  return read_all(fd.get(), false, limits.max_bytes, what, path, static_cast<int64_t>(st.st_size));
}

Status check_line_lengths(std::string_view text, const InputLimits& limits,
                          const std::string& name) {
  const size_t max = static_cast<size_t>(limits.max_line_bytes);
  if (text.size() <= max) return core::ok_status();
  int64_t line = 1;
  size_t pos = 0;
  while (pos < text.size()) {
    const void* nl = std::memchr(text.data() + pos, '\n', text.size() - pos);
    const size_t end =
        nl ? static_cast<size_t>(static_cast<const char*>(nl) - text.data()) : text.size();
    if (end - pos > max)
      return make_error(ErrorCode::kInvalidArgument,
                        fmt::format("{}:{}: line is longer than the {}-byte limit (one record per "
                                    "line expected; raise SERVEBENCH_INPUT_MAX_LINE_BYTES if "
                                    "records really are this long)",
                                    name, line, limits.max_line_bytes));
    pos = end + 1;
    ++line;
  }
  return core::ok_status();
}

}  // namespace servebench::dataset
