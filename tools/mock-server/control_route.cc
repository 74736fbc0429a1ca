// Control routes a benchmark client calls around its load, not as load: vLLM's profiler
// (POST /start_profile, /stop_profile). The mock answers 200 with an empty body and, with
// --record-requests, writes one line per call ({"path", "received_steady_ns", "control": true})
// so tests can check that the calls came and in which order relative to the load.
#include "json_line.h"
#include "session.h"

namespace servebench::mock {

void Session::answer_control(std::string_view target) {
  if (state_.record) {
    JsonLine r;
    const int64_t at = now_ns();
    r.str("path", target)
        .num("received_steady_ns", at)
        .num("received_wall_ns", state_.anchor.to_wall_ns(at))
        .boolean("control", true);
    state_.record->write_line(r.finish());
  }
  write_simple(200, "application/json", "");
}

}  // namespace servebench::mock
