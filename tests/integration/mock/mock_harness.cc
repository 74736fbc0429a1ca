#include "mock_harness.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <thread>

namespace servebench::mock::testing {

int64_t steady_now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

namespace {

std::string binary() {
  const char* d = std::getenv("SERVEBENCH_BIN_DIR");
  if (d != nullptr && *d != '\0') return std::string(d) + "/servebench-mock";
  // The test binary lives next to servebench-mock (build/bin).
  char self[4096];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (n > 0) {
    std::string dir(self, static_cast<size_t>(n));
    return dir.substr(0, dir.find_last_of('/')) + "/servebench-mock";
  }
  return "build/bin/servebench-mock";
}

std::vector<char*> make_argv(const std::string& bin, const std::vector<std::string>& args) {
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(bin.c_str()));
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  return argv;
}

}  // namespace

std::unique_ptr<MockProcess> MockProcess::start(const std::vector<std::string>& args,
                                                int nofile_limit) {
  int out[2];
  if (pipe(out) != 0) return nullptr;
  const std::string bin = binary();
  auto argv = make_argv(bin, args);
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(out[1], 1);
    close(out[0]);
    close(out[1]);
    if (nofile_limit > 0) {
      const rlimit lim{static_cast<rlim_t>(nofile_limit), static_cast<rlim_t>(nofile_limit)};
      setrlimit(RLIMIT_NOFILE, &lim);
    }
    execv(bin.c_str(), argv.data());
    _exit(127);
  }
  close(out[1]);
  auto p = std::unique_ptr<MockProcess>(new MockProcess());
  p->pid_ = pid;
  std::string line;
  const int64_t deadline = steady_now_ns() + 10'000'000'000;
  char c;
  while (steady_now_ns() < deadline) {
    pollfd pfd{out[0], POLLIN, 0};
    if (poll(&pfd, 1, 100) <= 0) continue;
    if (read(out[0], &c, 1) != 1) break;
    if (c == '\n') break;
    line.push_back(c);
  }
  close(out[0]);  // later stdout writes would get EPIPE; the mock prints nothing else
  p->first_line_ = line;
  const size_t colon = line.rfind(':');
  if (line.rfind("listening on http://", 0) != 0 || colon == std::string::npos) {
    std::fprintf(stderr, "servebench-mock did not start: first line '%s'\n", line.c_str());
    return nullptr;
  }
  p->port_ = static_cast<uint16_t>(std::atoi(line.c_str() + colon + 1));
  return p;
}

int MockProcess::stop() {
  if (pid_ <= 0) return -1;
  kill(pid_, SIGTERM);
  int status = 0;
  const pid_t r = waitpid(pid_, &status, 0);
  pid_ = -1;
  return r > 0 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

MockProcess::~MockProcess() {
  if (pid_ > 0) stop();
}

RunResult run_mock_to_exit(const std::vector<std::string>& args) {
  RunResult r;
  int err[2], out[2];
  if (pipe(err) != 0 || pipe(out) != 0) return r;
  const std::string bin = binary();
  auto argv = make_argv(bin, args);
  const int64_t t0 = steady_now_ns();
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(err[1], 2);
    dup2(out[1], 1);
    close(err[0]);
    close(out[0]);
    execv(bin.c_str(), argv.data());
    _exit(127);
  }
  close(err[1]);
  close(out[1]);
  char buf[4096];
  ssize_t n;
  while ((n = read(err[0], buf, sizeof(buf))) > 0)
    r.stderr_text.append(buf, static_cast<size_t>(n));
  while ((n = read(out[0], buf, sizeof(buf))) > 0)
    r.stdout_text.append(buf, static_cast<size_t>(n));
  close(err[0]);
  close(out[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  r.wall_ns = steady_now_ns() - t0;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

RawClient::RawClient(uint16_t port) {
  fd_ = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    close(fd_);
    fd_ = -1;
    return;
  }
  int one = 1;
  setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

RawClient::~RawClient() {
  if (fd_ >= 0) close(fd_);
}

void RawClient::send_raw(const std::string& bytes) {
  size_t off = 0;
  while (off < bytes.size()) {
    const ssize_t n = send(fd_, bytes.data() + off, bytes.size() - off, MSG_NOSIGNAL);
    if (n <= 0) break;
    off += static_cast<size_t>(n);
  }
  sent_ns_ = steady_now_ns();
}

void RawClient::send_request(const std::string& method, const std::string& path,
                             const std::string& body,
                             const std::map<std::string, std::string>& headers) {
  std::string req = method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n";
  if (!body.empty() || method == "POST") {
    req +=
        "Content-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) + "\r\n";
  }
  for (const auto& [k, v] : headers) req += k + ": " + v + "\r\n";
  req += "\r\n" + body;
  send_raw(req);
}

HttpResponse RawClient::read_response(int timeout_ms) {
  HttpResponse r;
  r.sent_ns = sent_ns_;
  std::string raw = std::move(pending_);
  pending_.clear();
  size_t header_end = std::string::npos;
  bool chunked = false;
  int64_t content_length = -1;
  size_t pos = 0;        // parse position in raw (body part)
  size_t event_pos = 0;  // SSE parse position in r.body
  const int64_t deadline = steady_now_ns() + int64_t{timeout_ms} * 1'000'000;
  auto parse = [&](int64_t t) {
    while (header_end == std::string::npos) {
      header_end = raw.find("\r\n\r\n");
      if (header_end == std::string::npos) return;
      r.headers_ns = t;
      const std::string head = raw.substr(0, header_end);
      r.status = std::atoi(head.c_str() + 9);
      size_t line_start = head.find("\r\n");
      while (line_start != std::string::npos) {
        line_start += 2;
        const size_t line_end = head.find("\r\n", line_start);
        const std::string line = head.substr(line_start, line_end - line_start);
        const size_t colon = line.find(':');
        if (colon != std::string::npos) {
          std::string name = line.substr(0, colon);
          for (char& ch : name)
            ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
          std::string value = line.substr(colon + 1);
          while (!value.empty() && value[0] == ' ') value.erase(0, 1);
          r.headers[name] = value;
        }
        line_start = line_end;
      }
      chunked = r.headers.count("transfer-encoding") > 0;
      if (r.headers.count("content-length"))
        content_length = std::atoll(r.headers["content-length"].c_str());
      pos = header_end + 4;
      if (r.status == 100) {  // skip the interim response
        raw.erase(0, pos);
        header_end = std::string::npos;
        r.headers.clear();
        r.status = 0;
        pos = 0;
      }
    }
    if (chunked) {
      while (true) {
        const size_t crlf = raw.find("\r\n", pos);
        if (crlf == std::string::npos) break;
        const size_t size = std::strtoul(raw.c_str() + pos, nullptr, 16);
        if (raw.size() < crlf + 2 + size + 2) break;
        if (size == 0) {
          r.complete = true;
          pending_ = raw.substr(crlf + 4);
          pos = raw.size();
          break;
        }
        r.body.append(raw, crlf + 2, size);
        pos = crlf + 2 + size + 2;
      }
    } else if (content_length >= 0) {
      if (raw.size() - pos >= static_cast<size_t>(content_length)) {
        r.body = raw.substr(pos, static_cast<size_t>(content_length));
        pending_ = raw.substr(pos + static_cast<size_t>(content_length));
        r.complete = true;
      }
    }
    while (true) {
      const size_t end = r.body.find("\n\n", event_pos);
      if (end == std::string::npos) break;
      std::string ev = r.body.substr(event_pos, end - event_pos);
      if (ev.rfind("data: ", 0) == 0) ev.erase(0, 6);
      r.events.push_back(SseEvent{ev, t});
      event_pos = end + 2;
    }
  };
  if (!raw.empty()) parse(steady_now_ns());
  char buf[65536];
  while (!r.complete) {
    const int64_t left_ms = (deadline - steady_now_ns()) / 1'000'000;
    if (left_ms <= 0) {
      r.timed_out = true;
      break;
    }
    pollfd pfd{fd_, POLLIN, 0};
    if (poll(&pfd, 1, static_cast<int>(left_ms)) <= 0) continue;
    const ssize_t n = recv(fd_, buf, sizeof(buf), 0);
    const int64_t t = steady_now_ns();
    if (n == 0) {
      r.eof = true;
      break;
    }
    if (n < 0) {
      if (errno == ECONNRESET) r.reset = true;
      r.eof = true;
      break;
    }
    raw.append(buf, static_cast<size_t>(n));
    parse(t);
  }
  return r;
}

bool RawClient::wait_closed(int timeout_ms) {
  char buf[4096];
  const int64_t deadline = steady_now_ns() + int64_t{timeout_ms} * 1'000'000;
  while (steady_now_ns() < deadline) {
    pollfd pfd{fd_, POLLIN, 0};
    if (poll(&pfd, 1, 50) <= 0) continue;
    const ssize_t n = recv(fd_, buf, sizeof(buf), 0);
    if (n <= 0) return true;
  }
  return false;
}

HttpResponse post_json(uint16_t port, const std::string& path, const std::string& body,
                       const std::map<std::string, std::string>& headers, int timeout_ms) {
  RawClient c(port);
  c.send_request("POST", path, body, headers);
  return c.read_response(timeout_ms);
}

HttpResponse get(uint16_t port, const std::string& path) {
  RawClient c(port);
  c.send_request("GET", path, "");
  return c.read_response();
}

std::vector<std::string> read_lines(const std::string& path, size_t min_lines, int timeout_ms) {
  const int64_t deadline = steady_now_ns() + int64_t{timeout_ms} * 1'000'000;
  std::vector<std::string> lines;
  do {
    lines.clear();
    std::ifstream in(path, std::ios::binary);
    std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    // Only newline-terminated lines count: the writer may be in the middle of the last one.
    size_t start = 0;
    for (size_t nl = all.find('\n'); nl != std::string::npos; nl = all.find('\n', start)) {
      if (nl > start) lines.push_back(all.substr(start, nl - start));
      start = nl + 1;
    }
    if (lines.size() >= min_lines) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  } while (steady_now_ns() < deadline);
  return lines;
}

std::string temp_path(const std::string& name) {
  const char* t = std::getenv("TMPDIR");
  return std::string(t != nullptr ? t : "/tmp") + "/sbmock_" + std::to_string(getpid()) + "_" +
         name;
}

}  // namespace servebench::mock::testing
