// SseParser: incremental Server-Sent Events framing, fed raw body bytes in any split.
// Handles "\n", "\r\n" and "\r" line ends, multi-line `data:` (joined with "\n"), comments
// (":" lines), `event:` names (e.g. "error"), `id:`/`retry:` (ignored), a leading BOM, and
// events of any size. `[DONE]` is reported as an ordinary data payload; the caller decides.
//
// Every event completed by one feed() call is reported with that call's recv_ns (the time the
// bytes were read), as DESIGN.md's timing rules require.
//
// Framing follows the WHATWG EventSource rules: a data field appends its value plus "\n" to the
// event's data and the last "\n" is dropped at dispatch; an empty line dispatches the event only
// when at least one data field was seen (an `event:` line alone is discarded); one space after
// the colon is stripped; a line without a colon is a field with an empty value.
//
// Cost: a single-line event whose bytes arrive in one feed() is reported as a view into the fed
// bytes (no copy); only multi-line events and events split across feeds are copied.
//
// Thread safety: one parser per stream; not shared.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace servebench::transport {

struct SseEvent {
  std::string_view event;  // "" when no event: field was given
  std::string_view data;   // joined data lines
  int64_t recv_ns = 0;
};

class SseParser {
 public:
  // `on_event` is called for each completed event; views are valid only during the call.
  template <class F>
  void feed(std::string_view bytes, int64_t recv_ns, F&& on_event);
  // End of stream: a final event without its blank line is dispatched (AIPerf does the same).
  template <class F>
  void finish(int64_t recv_ns, F&& on_event);
  void reset();

  // Non-template core (implemented in sse_parser.cc). Returns true when an event completed;
  // call repeatedly until it returns false.
  bool next_event(std::string_view* input, SseEvent* out);
  bool flush_event(SseEvent* out);

 private:
  std::string line_;        // partial line carried across feeds
  std::string data_;        // data of the event being built
  std::string event_;       // event name of the event being built
  bool has_data_ = false;
  bool last_was_cr_ = false;
  bool bom_checked_ = false;
  // Zero-copy path: the event's single data line, viewing the caller's input (data_in_view_).
  std::string_view data_view_;
  bool data_in_view_ = false;
  // The last dispatched event's strings are still referenced by the caller; cleared lazily.
  bool pending_reset_ = false;
  size_t bom_matched_ = 0;

  bool whole_data_event(std::string_view* input, SseEvent* out);
  bool process_line(std::string_view line, bool line_in_input, SseEvent* out);
  void clear_event();
};

template <class F>
void SseParser::feed(std::string_view bytes, int64_t recv_ns, F&& on_event) {
  SseEvent ev;
  while (next_event(&bytes, &ev)) {
    ev.recv_ns = recv_ns;
    on_event(ev);
  }
}

template <class F>
void SseParser::finish(int64_t recv_ns, F&& on_event) {
  SseEvent ev;
  if (flush_event(&ev)) {
    ev.recv_ns = recv_ns;
    on_event(ev);
  }
}

}  // namespace servebench::transport
