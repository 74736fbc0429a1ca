// Text renderings of a LiveSnapshot: the terminal dashboard's frame and the one-line progress
// used by the simple display and when stderr is not a terminal. Pure functions (tests compare
// their output directly).
#pragma once

#include <string>

#include "live/live_stats.h"

namespace servebench::live {

struct FrameOptions {
  int width = 80;     // terminal columns (the progress bar fits in them)
  bool color = true;  // ANSI colours for phase and errors
};

// The dashboard: phase and progress bar with ETA, in flight, rates, TTFT/ITL/latency p50/p99
// over the window and overall, errors by kind, client health. Lines end with '\n'.
std::string render_frame(const LiveSnapshot& s, const FrameOptions& options);

// "profiling  42% 420/1000 req  in flight 8  98.1 req/s  1520 tok/s  TTFT p50 12.3 ms  errors 0
// ETA 6s" (no newline).
std::string render_line(const LiveSnapshot& s);

// Cuts every line of `text` to at most `columns` visible characters (ANSI escape sequences
// are kept and not counted; a cut line ends with a colour reset), so a frame never wraps and
// the dashboard's cursor-up redraw stays aligned on a narrow terminal.
std::string fit_lines(const std::string& text, int columns);

// "12.3 ms", "1.20 s", "850 us"; "-" when `count` is 0.
std::string format_ns(double ns, int64_t count);

}  // namespace servebench::live
