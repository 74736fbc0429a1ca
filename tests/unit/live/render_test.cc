// Dashboard frame, progress line, live JSON and Prometheus text from a known snapshot; display
// choice for each --ui-type with and without a terminal; a session's final output.
#include "live/render.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "live/live_json.h"
#include "live/live_session.h"

namespace servebench::live {
namespace {

constexpr int64_t kMs = 1'000'000;
constexpr int64_t kS = 1'000'000'000;

LiveSnapshot sample() {
  LiveSnapshot s;
  s.phase = LivePhase::kProfiling;
  s.profiling_start_ns = 10 * kS;
  s.published_ns = 14 * kS;
  s.expected_requests = 200;
  s.issued = 58;
  s.completed = 50;
  s.ok = 47;
  s.failed = 3;
  s.output_tokens = 4700;
  s.window_request_rate = 12.5;
  s.window_token_rate = 1175;
  s.overall_request_rate = 12.5;
  s.ttft = {{12.3 * kMs, 40.0 * kMs, 40}, {11.0 * kMs, 55.5 * kMs, 47}};
  s.itl = {{2.0 * kMs, 3.0 * kMs, 40}, {2.1 * kMs, 3.5 * kMs, 47}};
  s.latency = {{200.0 * kMs, 1.5 * kS, 40}, {210.0 * kMs, 1.6 * kS, 47}};
  s.errors[static_cast<size_t>(record::ErrorKind::kHttpStatus)] = 2;
  s.errors[static_cast<size_t>(record::ErrorKind::kTimeout)] = 1;
  s.cpu_percent = 35;
  return s;
}

TEST(Render, FrameShowsEveryPanel) {
  const std::string f = render_frame(sample(), {100, false});
  for (const char* want : {"phase profiling", "50/200 req", "25%", "ETA 12s", "in flight 8",
                           "requests/s 12.5", "TTFT", "12.3 ms", "55.5 ms", "ITL", "latency",
                           "1.50 s", "schedule lag", "http_status 2", "timeout 1", "CPU 35%"})
    EXPECT_NE(f.find(want), std::string::npos) << want << "\n" << f;
  EXPECT_EQ(f.find("\x1b["), std::string::npos);  // no colour when asked for none
  std::istringstream lines(f);
  std::string line;
  while (std::getline(lines, line)) EXPECT_LE(line.size(), 100u) << line;
  EXPECT_NE(render_frame(sample(), {100, true}).find("\x1b[32m"), std::string::npos);
}

TEST(Render, FitLinesCountsOnlyVisibleCharacters) {
  EXPECT_EQ(fit_lines("abcdef\nab\n", 4), "abcd\x1b[0m\nab\n");
  EXPECT_EQ(fit_lines("\x1b[32mabcdef\x1b[0m\n", 3), "\x1b[32mabc\x1b[0m\x1b[0m\n");
  const std::string narrow = fit_lines(render_frame(sample(), {40, true}), 39);
  std::istringstream lines(narrow);
  std::string line;
  while (std::getline(lines, line)) {
    const std::string plain = std::regex_replace(line, std::regex("\x1b\\[[0-9;]*[A-Za-z]"), "");
    EXPECT_LE(plain.size(), 39u) << plain;
  }
}

TEST(Render, LineIsOneLine) {
  const std::string l = render_line(sample());
  EXPECT_EQ(l.find('\n'), std::string::npos);
  EXPECT_NE(l.find("profiling  25% 50/200 req"), std::string::npos) << l;
  EXPECT_NE(l.find("errors 3"), std::string::npos) << l;
  EXPECT_EQ(format_ns(0, 0), "-");
  EXPECT_EQ(format_ns(850e3, 1), "850 us");
}

TEST(LiveJson, ProgressAndMetricsAreValidJson) {
  const auto p = nlohmann::json::parse(progress_json(sample()));
  EXPECT_EQ(p["phase"], "profiling");
  EXPECT_DOUBLE_EQ(p["progress"].get<double>(), 0.25);
  EXPECT_EQ(p["in_flight"], 8);
  const auto m = nlohmann::json::parse(metrics_json(sample()));
  EXPECT_NEAR(m["time_to_first_token"]["window"]["p50"].get<double>(), 12.3, 1e-9);
  EXPECT_EQ(m["errors_by_kind"]["http_status"], 2);
  EXPECT_EQ(m["errors_by_kind"].size(), 2u);
  LiveSnapshot empty;
  const auto e = nlohmann::json::parse(metrics_json(empty));
  EXPECT_TRUE(e["time_to_first_token"]["window"]["p50"].is_null());
  EXPECT_TRUE(e["progress"].is_number());
}

// Prometheus text format 0.0.4: comments, or `name{labels} value`.
TEST(LiveJson, PrometheusTextParses) {
  const std::string text = prometheus_text(sample());
  const std::regex sample_line(
      R"(^[a-zA-Z_:][a-zA-Z0-9_:]*(\{[a-zA-Z_][a-zA-Z0-9_]*="[^"]*"(,[a-zA-Z_][a-zA-Z0-9_]*="[^"]*")*\})? [-+0-9.eE]+(inf|Inf|NaN)?$)");
  std::istringstream in(text);
  std::string line;
  int samples = 0;
  while (std::getline(in, line)) {
    if (line.rfind("# HELP ", 0) == 0 || line.rfind("# TYPE ", 0) == 0) continue;
    EXPECT_TRUE(std::regex_match(line, sample_line)) << line;
    ++samples;
  }
  EXPECT_GT(samples, 20);
  EXPECT_NE(text.find("servebench_requests_completed_total 50\n"), std::string::npos);
  EXPECT_NE(text.find("servebench_errors_total{kind=\"timeout\"} 1\n"), std::string::npos);
  EXPECT_NE(text.find("servebench_ttft_seconds{scope=\"window\",quantile=\"0.5\"} 0.0123\n"),
            std::string::npos)
      << text;
}

TEST(Display, ChoiceFollowsFlagAndTerminal) {
  using config::UiType;
  EXPECT_EQ(choose_display(UiType::kAuto, true, 1), Display::kDashboard);
  EXPECT_EQ(choose_display(UiType::kAuto, false, 1), Display::kPlain);
  EXPECT_EQ(choose_display(UiType::kAuto, false, 0), Display::kNone);
  EXPECT_EQ(choose_display(UiType::kSimple, true, 0), Display::kSimple);
  EXPECT_EQ(choose_display(UiType::kSimple, false, 0), Display::kPlain);
  EXPECT_EQ(choose_display(UiType::kDashboard, false, 0), Display::kPlain);
  EXPECT_EQ(choose_display(UiType::kNone, true, 1), Display::kNone);
}

std::string read_all(std::FILE* f) {
  std::rewind(f);
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof(buf), f)) > 0) out.append(buf, n);
  return out;
}

TEST(LiveSession, PlainDisplayWritesAFinalLineAndHooksFeedIt) {
  std::FILE* out = std::tmpfile();
  ASSERT_NE(out, nullptr);
  core::FakeClock clock;
  {
    LiveSessionOptions o;
    o.display = Display::kPlain;
    o.out = out;
    o.stats.expected_requests = 4;
    auto s = LiveSession::start(o, clock);
    ASSERT_TRUE(s.has_value());
    app::RunHooks hooks;
    (*s)->attach(&hooks);
    app::PhaseInfo info;
    info.load_start_ns = 1;
    hooks.before_load(info);
    hooks.load_started(info);
    hooks.progress(4);
    record::RequestRecord r;
    r.request_start_ns = r.intended_ns = 1;
    r.end_ns = 2;
    r.error = record::ErrorKind::kConnect;
    hooks.records({r, r, r, r});
    hooks.load_ended(info);
    hooks.after_grace(info);
  }
  const std::string text = read_all(out);
  std::fclose(out);
  EXPECT_NE(text.find("servebench: done 100% 4/4 req  in flight 0"), std::string::npos) << text;
  EXPECT_NE(text.find("errors 4"), std::string::npos) << text;
  EXPECT_EQ(text.find("\x1b["), std::string::npos);
}

TEST(LiveSession, WithoutDisplayOrApiItAttachesNothing) {
  core::FakeClock clock;
  auto s = LiveSession::start(LiveSessionOptions{}, clock);
  ASSERT_TRUE(s.has_value());
  EXPECT_FALSE((*s)->active());
  app::RunHooks hooks;
  (*s)->attach(&hooks);
  EXPECT_FALSE(hooks.records);
  EXPECT_FALSE(hooks.progress);
  EXPECT_FALSE(hooks.load_started);
  EXPECT_EQ((*s)->api_port(), 0);
}

TEST(LiveSession, NothingIsPrintedForARunThatNeverStarted) {
  std::FILE* out = std::tmpfile();
  ASSERT_NE(out, nullptr);
  core::FakeClock clock;
  {
    LiveSessionOptions o;
    o.display = Display::kDashboard;
    o.out = out;
    auto s = LiveSession::start(o, clock);
    ASSERT_TRUE(s.has_value());
  }
  EXPECT_EQ(read_all(out), "");
  std::fclose(out);
}

}  // namespace
}  // namespace servebench::live
