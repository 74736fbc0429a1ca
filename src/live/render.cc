#include "live/render.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>

namespace servebench::live {
namespace {

constexpr const char* kBold = "\x1b[1m";
constexpr const char* kRed = "\x1b[31m";
constexpr const char* kGreen = "\x1b[32m";
constexpr const char* kYellow = "\x1b[33m";
constexpr const char* kReset = "\x1b[0m";

std::string paint(const std::string& text, const char* code, bool color) {
  return color ? std::string(code) + text + kReset : text;
}

std::string format_eta(double s) {
  if (s < 0) return "-";
  const auto t = static_cast<int64_t>(std::llround(s));
  if (t >= 3600) return fmt::format("{}h{:02}m", t / 3600, (t % 3600) / 60);
  if (t >= 60) return fmt::format("{}m{:02}s", t / 60, t % 60);
  return fmt::format("{}s", t);
}

std::string progress_text(const LiveSnapshot& s) {
  if (s.expected_requests > 0) return fmt::format("{}/{} req", s.completed, s.expected_requests);
  if (s.duration_ns > 0 && s.profiling_start_ns > 0)
    return fmt::format(
        "{:.0f}/{:.0f} s",
        std::max<double>(0, static_cast<double>(s.published_ns - s.profiling_start_ns)) / 1e9,
        static_cast<double>(s.duration_ns) / 1e9);
  return fmt::format("{} req", s.completed);
}

std::string bar(double fraction, int width) {
  if (width < 4) return "";
  const int inner = width - 2;
  const int filled = fraction < 0 ? 0 : static_cast<int>(std::lround(fraction * inner));
  std::string out = "[";
  for (int i = 0; i < inner; ++i) out += i < filled ? "#" : (i == filled ? ">" : " ");
  return out + "]";
}

std::string metric_row(const char* name, const LiveMetric& m) {
  return fmt::format(
      "  {:<14} {:>10} {:>10} | {:>10} {:>10}\n", name, format_ns(m.window.p50_ns, m.window.count),
      format_ns(m.window.p99_ns, m.window.count), format_ns(m.overall.p50_ns, m.overall.count),
      format_ns(m.overall.p99_ns, m.overall.count));
}

std::string errors_text(const LiveSnapshot& s, bool color) {
  std::string out;
  for (size_t k = 1; k < kErrorKinds; ++k) {
    if (s.errors[k] == 0) continue;
    if (!out.empty()) out += ", ";
    out += fmt::format("{} {}", record::error_kind_name(static_cast<record::ErrorKind>(k)),
                       s.errors[k]);
  }
  return out.empty() ? paint("none", kGreen, color) : paint(out, kRed, color);
}

}  // namespace

std::string fit_lines(const std::string& text, int columns) {
  std::string out;
  out.reserve(text.size());
  int visible = 0;
  bool cut = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    if (ch == '\n') {
      if (cut) out += kReset;
      out += ch;
      visible = 0;
      cut = false;
    } else if (ch == '\x1b') {  // CSI: ESC '[' parameters, then a final letter
      size_t j = i + 1;
      while (j < text.size() && !std::isalpha(static_cast<unsigned char>(text[j]))) ++j;
      out.append(text, i, j + 1 - i);
      i = j;
    } else if (visible < columns) {
      out += ch;
      ++visible;
    } else {
      cut = true;
    }
  }
  if (cut) out += kReset;
  return out;
}

std::string format_ns(double ns, int64_t count) {
  if (count == 0 || !std::isfinite(ns)) return "-";
  if (ns >= 1e9) return fmt::format("{:.2f} s", ns / 1e9);
  if (ns >= 1e6) return fmt::format("{:.1f} ms", ns / 1e6);
  return fmt::format("{:.0f} us", ns / 1e3);
}

std::string render_line(const LiveSnapshot& s) {
  const double p = s.progress();
  std::string out = fmt::format("{}", live_phase_name(s.phase));
  if (p >= 0) out += fmt::format(" {:3.0f}%", p * 100);
  out += fmt::format(" {}  in flight {}  {:.1f} req/s  {:.0f} tok/s  TTFT p50 {}  errors {}",
                     progress_text(s), s.in_flight(), s.window_request_rate, s.window_token_rate,
                     format_ns(s.ttft.window.p50_ns, s.ttft.window.count), s.failed);
  if (s.phase == LivePhase::kProfiling) out += fmt::format("  ETA {}", format_eta(s.eta_s()));
  return out;
}

std::string render_frame(const LiveSnapshot& s, const FrameOptions& o) {
  const bool c = o.color;
  const int width = std::max(40, o.width);
  std::string out;
  const char* phase_color = s.phase == LivePhase::kProfiling ? kGreen : kYellow;
  out += fmt::format("{} servebench  phase {}  {}\n", paint("==", kBold, c),
                     paint(live_phase_name(s.phase), phase_color, c), progress_text(s));
  const double p = s.progress();
  const std::string tail = fmt::format(
      " {:>4}  ETA {}", p >= 0 ? fmt::format("{:.0f}%", p * 100) : "-", format_eta(s.eta_s()));
  out += "  " + bar(p, width - 2 - static_cast<int>(tail.size())) + tail + "\n";
  out += fmt::format("  in flight {}   ok {}   failed {}   issued {}\n", s.in_flight(), s.ok,
                     s.failed, s.issued);
  out += fmt::format(
      "  requests/s {:.1f} (window) {:.1f} (overall)   tokens/s {:.0f} (window) "
      "{:.0f} (overall)\n",
      s.window_request_rate, s.overall_request_rate, s.window_token_rate, s.overall_token_rate);
  out += fmt::format("  {:<14} {:>10} {:>10} | {:>10} {:>10}\n", "", "p50 window", "p99 window",
                     "p50 all", "p99 all");
  out += metric_row("TTFT", s.ttft);
  out += metric_row("ITL", s.itl);
  out += metric_row("latency", s.latency);
  out += metric_row("schedule lag", s.schedule_lag);
  out += "  errors: " + errors_text(s, c) + "\n";
  const bool lagging = s.schedule_lag.window.count > 0 && s.schedule_lag.window.p99_ns > 10e6;
  out += fmt::format("  client: CPU {:.0f}%  {:.1f} us CPU/request  schedule lag p99 {}{}\n",
                     s.cpu_percent, s.cpu_per_request_us,
                     format_ns(s.schedule_lag.window.p99_ns, s.schedule_lag.window.count),
                     lagging ? paint("  (client falling behind)", kRed, c) : "");
  return out;
}

}  // namespace servebench::live
