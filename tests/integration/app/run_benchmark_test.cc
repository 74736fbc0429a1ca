// app::run_benchmark in process against servebench-mock: hooks in order with sane timestamps,
// interrupts during the load and during set-up, and a bad artifact folder that sends nothing.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "app/run.h"
#include "config/cli_options.h"
#include "core/interrupt.h"
#include "integration/mock/mock_harness.h"

namespace servebench::app {
namespace {

namespace fs = std::filesystem;
using mock::testing::MockProcess;

struct Event {
  std::string name;
  PhaseInfo info;
  std::thread::id thread;
  bool dir_exists = false;
  // No summary file yet and no record written: the per-request files are opened (empty)
  // before the load, the summary files only after it.
  bool nothing_written = false;
};

class RunBenchmarkTest : public ::testing::Test {
 protected:
  void SetUp() override {
    core::reset_interrupt_for_test();
    std::string tmpl = (fs::temp_directory_path() / "sb-app-run-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
    requests_path_ = dir_ + "/requests.jsonl";
  }
  void TearDown() override {
    core::reset_interrupt_for_test();
    fs::remove_all(dir_);
  }

  void start_mock(std::vector<std::string> args) {
    args.insert(args.end(), {"--record-requests", requests_path_});
    mock_ = MockProcess::start(args);
    ASSERT_NE(mock_, nullptr);
  }
  // Requests the mock received, counted after it stopped (its file is complete then).
  size_t requests_received() {
    mock_->stop();
    std::ifstream in(requests_path_);
    size_t n = 0;
    for (std::string line; std::getline(in, line);) n += !line.empty();
    return n;
  }

  config::BenchmarkConfig make_config(std::vector<std::string> extra) {
    std::vector<std::string> args = {"profile",
                                     "-m",
                                     "m",
                                     "-u",
                                     "http://127.0.0.1:" + std::to_string(mock_->port()),
                                     "--artifact-dir",
                                     dir_ + "/art",
                                     "-q"};
    args.insert(args.end(), extra.begin(), extra.end());
    std::vector<const char*> argv;
    for (const auto& a : args) argv.push_back(a.c_str());
    auto parsed = config::parse_profile_args(static_cast<int>(argv.size()), argv.data());
    EXPECT_TRUE(parsed) << (parsed ? "" : parsed.error().message);
    return parsed ? parsed->config : config::BenchmarkConfig{};
  }

  RunHooks recording_hooks() {
    auto record = [this](const char* name) {
      return [this, name](const PhaseInfo& info) {
        Event e{name, info, std::this_thread::get_id()};
        std::error_code ec;
        e.dir_exists = fs::is_directory(info.artifact_dir, ec);
        bool any_bytes = false;
        if (e.dir_exists)
          for (const auto& f : fs::directory_iterator(info.artifact_dir, ec))
            any_bytes = any_bytes || (f.is_regular_file() && f.file_size() > 0);
        e.nothing_written = e.dir_exists && !any_bytes &&
                            !fs::exists(fs::path(info.artifact_dir) / "profile_export_aiperf.json");
        std::lock_guard<std::mutex> lock(mu_);
        events_.push_back(e);
      };
    };
    RunHooks h;
    h.before_load = record("before_load");
    h.load_started = record("load_started");
    h.load_ended = record("load_ended");
    h.after_grace = record("after_grace");
    return h;
  }
  std::vector<std::string> names() {
    std::vector<std::string> out;
    for (const auto& e : events_) out.push_back(e.name);
    return out;
  }

  std::string dir_;
  std::string requests_path_;
  std::unique_ptr<MockProcess> mock_;
  std::mutex mu_;
  std::vector<Event> events_;
};

const std::vector<std::string> kAllHooks = {"before_load", "load_started", "load_ended",
                                            "after_grace"};

TEST_F(RunBenchmarkTest, HooksRunOnceInOrderWithSaneTimestamps) {
  start_mock({"--itl-ms", "2"});
  const auto cfg = make_config({"--streaming", "--concurrency", "2", "--request-count", "8",
                                "--warmup-request-count", "2", "--osl", "5"});
  const RunResult r = run_benchmark(cfg, recording_hooks());
  ASSERT_EQ(r.exit_code, 0) << r.error;
  EXPECT_TRUE(r.sent);
  EXPECT_FALSE(r.interrupted);
  EXPECT_EQ(r.ok, 8);
  EXPECT_EQ(r.failed, 0);
  ASSERT_EQ(names(), kAllHooks);
  const auto& before = events_[0];
  const auto& started = events_[1];
  const auto& ended = events_[2];
  const auto& grace = events_[3];
  EXPECT_TRUE(before.dir_exists) << "the artifact folder is ready before the load";
  EXPECT_TRUE(before.nothing_written);
  EXPECT_EQ(before.info.artifact_dir, r.artifact_dir);
  EXPECT_EQ(before.thread, std::this_thread::get_id());
  EXPECT_EQ(grace.thread, std::this_thread::get_id());
  EXPECT_EQ(before.info.load_start_ns, 0);
  EXPECT_GT(started.info.load_start_ns, before.info.at_ns) << "warm-up runs between the two";
  EXPECT_EQ(started.info.at_ns, started.info.load_start_ns);
  EXPECT_EQ(ended.info.load_start_ns, started.info.load_start_ns);
  EXPECT_GE(ended.info.load_end_ns, started.info.load_start_ns);
  EXPECT_GE(grace.info.at_ns, ended.info.load_end_ns);
  EXPECT_EQ(grace.info.load_end_ns, ended.info.load_end_ns);
  EXPECT_EQ(grace.info.load_start_ns, started.info.load_start_ns);
  EXPECT_FALSE(ended.info.interrupted);
  // The anchor maps steady to wall time: t0 lands within a minute of now.
  const int64_t wall_t0 = started.info.anchor.to_wall_ns(started.info.load_start_ns);
  const int64_t now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  EXPECT_LT(std::llabs(now - wall_t0), 60'000'000'000LL);
  EXPECT_TRUE(fs::exists(r.artifact_dir + "/profile_export_aiperf.json"));
  EXPECT_EQ(requests_received(), 10u) << "8 profiling requests and 2 warm-up";
}

TEST_F(RunBenchmarkTest, LoadEndsAtTheDurationBeforeTheGrace) {
  start_mock({"--itl-ms", "20"});
  const auto cfg = make_config({"--streaming", "--concurrency", "2", "--benchmark-duration", "1",
                                "--benchmark-grace-period", "5", "--osl", "20", "--extra-inputs",
                                "ignore_eos:true"});
  const RunResult r = run_benchmark(cfg, recording_hooks());
  ASSERT_EQ(r.exit_code, 0) << r.error;
  ASSERT_EQ(names(), kAllHooks);
  const auto& started = events_[1];
  const auto& ended = events_[2];
  EXPECT_EQ(ended.info.load_end_ns, started.info.load_start_ns + 1'000'000'000);
  EXPECT_NE(ended.thread, std::this_thread::get_id())
      << "called by the monitor while requests drain";
  EXPECT_GT(events_[3].info.at_ns, ended.info.load_end_ns)
      << "in-flight requests finished in the grace";
}

TEST_F(RunBenchmarkTest, InterruptDuringLoadWritesArtifactsAndExits130) {
  start_mock({"--itl-ms", "10"});
  const auto cfg = make_config({"--streaming", "--concurrency", "4", "--benchmark-duration", "60",
                                "--osl", "10", "--extra-inputs", "ignore_eos:true"});
  RunHooks hooks = recording_hooks();
  auto record_started = hooks.load_started;
  hooks.load_started = [&](const PhaseInfo& info) {
    record_started(info);
    // Let some requests complete, then interrupt from another thread (as the watcher would).
    std::thread([] {
      std::this_thread::sleep_for(std::chrono::milliseconds(600));
      core::request_interrupt(SIGINT);
    }).detach();
  };
  const auto t0 = std::chrono::steady_clock::now();
  const RunResult r = run_benchmark(cfg, hooks);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(20));
  EXPECT_EQ(r.exit_code, 130) << r.error;
  EXPECT_TRUE(r.interrupted);
  EXPECT_EQ(r.signal_number, SIGINT);
  EXPECT_GT(r.ok, 0) << "completed requests do not make an interrupted run a success";
  ASSERT_EQ(names(), kAllHooks);
  EXPECT_TRUE(events_[2].info.interrupted);
  auto summary =
      nlohmann::json::parse(std::ifstream(r.artifact_dir + "/profile_export_aiperf.json"));
  EXPECT_TRUE(summary["was_cancelled"].get<bool>());
  EXPECT_TRUE(fs::exists(r.artifact_dir + "/profile_export.jsonl"));
}

TEST_F(RunBenchmarkTest, InterruptBeforeLoadSendsNothingAndWritesNothing) {
  start_mock({});
  const auto cfg = make_config({"--concurrency", "2", "--request-count", "4"});
  core::request_interrupt(SIGTERM);
  const RunResult r = run_benchmark(cfg, recording_hooks());
  EXPECT_EQ(r.exit_code, 143);
  EXPECT_TRUE(r.interrupted);
  EXPECT_FALSE(r.sent);
  EXPECT_NE(r.error.find("set-up"), std::string::npos) << r.error;
  EXPECT_TRUE(events_.empty()) << "no hook without a load";
  EXPECT_FALSE(fs::exists(dir_ + "/art")) << "no empty artifact folder left behind";
  EXPECT_EQ(requests_received(), 0u);
}

TEST_F(RunBenchmarkTest, UnwritableArtifactFolderSendsNothing) {
  start_mock({});
  std::ofstream(dir_ + "/file") << "x";
  for (const std::string& bad : {std::string("/proc/x"), dir_ + "/file"}) {
    auto cfg = make_config({"--concurrency", "2", "--request-count", "4", "--reset-kv-cache"});
    cfg.artifact_dir = bad;
    const RunResult r = run_benchmark(cfg, recording_hooks());
    EXPECT_EQ(r.exit_code, 2) << bad;
    EXPECT_NE(r.error.find("--artifact-dir"), std::string::npos) << r.error;
    EXPECT_FALSE(r.sent);
  }
  EXPECT_TRUE(events_.empty());
  EXPECT_EQ(requests_received(), 0u) << "not even the KV-cache reset";
}

}  // namespace
}  // namespace servebench::app
