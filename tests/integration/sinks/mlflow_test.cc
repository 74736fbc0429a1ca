// --mlflow-* against a real MLflow tracking server (pinned in ~/.cache/servebench/mlflow-venv,
// started here with --serve-artifacts), read back with the MLflow python client. The server
// takes ~10-30 s to start, so the full test runs only with SERVEBENCH_SINKS_FULL=1
// (`make sinks-test`); the short one here needs no MLflow: a dead tracking server is a warning.
#include <netinet/in.h>
#include <sys/socket.h>

#include "integration/sinks/sinks_harness.h"

namespace servebench::itest {
namespace {

constexpr const char* kApiKey = "sk-mlflow-test-key-31337";

int free_port() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  socklen_t len = sizeof a;
  getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  close(fd);
  return ntohs(a.sin_port);
}

std::string capture(const std::vector<std::string>& argv) {
  int fds[2];
  if (pipe(fds) != 0) return "";
  const pid_t pid = spawn(argv, fds[1], -1);
  close(fds[1]);
  std::string out;
  char buf[4096];
  ssize_t n;
  while ((n = read(fds[0], buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(n));
  close(fds[0]);
  waitpid(pid, nullptr, 0);
  return out;
}

bool wait_healthy(const std::string& url, double wait_s) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(wait_s);
  while (std::chrono::steady_clock::now() < deadline) {
    if (capture({"/usr/bin/curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", url + "/health"}) == "200")
      return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  return false;
}

TEST(Mlflow, DeadTrackingServerIsAWarningNotAFailure) {
  Server mock;
  ASSERT_TRUE(mock.start_mock({}));
  const std::string dir = make_temp_dir("sinks-mlflow-dead");
  const RunResult r = run_profile(
      dir, {"--url", mock.url(), "-m", "mock-model", "--request-count", "3", "--tokenizer",
            "builtin", "--mlflow-tracking-uri", "http://127.0.0.1:9"});
  EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_NE(r.stderr_text.find("MLflow"), std::string::npos) << r.stderr_text;
  EXPECT_FALSE(fs::exists(r.artifact_dir + "/mlflow_export.json"));
}

TEST(Mlflow, RunLoggedToARealTrackingServer) {
  const char* full = std::getenv("SERVEBENCH_SINKS_FULL");
  if (full == nullptr || std::string(full) != "1")
    GTEST_SKIP() << "the MLflow server takes long to start: run `make sinks-test`";
  const std::string py = oracle_python("mlflow-venv");
  if (py.empty()) {
    if (oracles_required()) FAIL() << "mlflow-venv missing: run scripts/sinks_venvs.sh mlflow";
    GTEST_SKIP() << "mlflow-venv missing (scripts/sinks_venvs.sh mlflow)";
  }
  const std::string dir = make_temp_dir("sinks-mlflow");
  const int port = free_port();
  const std::string uri = "http://127.0.0.1:" + std::to_string(port);
  Server tracking;
  tracking.adopt(spawn({fs::path(py).parent_path().string() + "/mlflow", "server", "--host",
                        "127.0.0.1", "--port", std::to_string(port), "--workers", "1",
                        "--backend-store-uri", "sqlite:///" + dir + "/mlflow.db",
                        "--serve-artifacts", "--artifacts-destination", dir + "/mlartifacts"},
                       -1, -1),
                 port);
  ASSERT_TRUE(wait_healthy(uri, 120)) << "mlflow server did not start";
  Server mock;
  ASSERT_TRUE(mock.start_mock({}));
  const RunResult r = run_profile(
      dir, {"--url", mock.url(), "-m", "mock-model", "--request-count", "5", "--tokenizer",
            "builtin", "--api-key", kApiKey, "--mlflow-tracking-uri", uri, "--mlflow-experiment",
            "servebench-it", "--mlflow-run-name", "itest-run", "--mlflow-tag", "team=perf",
            "--mlflow-tag", "ci=yes", "--mlflow-artifact-glob",
            "*.json", "--mlflow-artifact-glob", "*.csv"},
      180);
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const Json exported = Json::parse(read_file(r.artifact_dir + "/mlflow_export.json"));
  const std::string run_id = exported.at("run_id");
  const Json back = Json::parse(capture(
      {py, source_dir() + "/tests/integration/sinks/mlflow_readback.py", uri, run_id}));
  EXPECT_EQ(back["experiment_name"], "servebench-it");
  EXPECT_EQ(back["run_name"], "itest-run");
  EXPECT_EQ(back["status"], "FINISHED");
  EXPECT_EQ(back["tags"]["team"], "perf");
  EXPECT_EQ(back["tags"]["ci"], "yes");
  const Json summary = r.summary();
  EXPECT_DOUBLE_EQ(back["metrics"]["request_latency_avg"].get<double>(),
                   summary.at("request_latency").at("avg").get<double>());
  EXPECT_DOUBLE_EQ(back["metrics"]["request_throughput_avg"].get<double>(),
                   summary.at("request_throughput").at("avg").get<double>());
  EXPECT_EQ(back["params"]["endpoint.model_names"].dump().find("mock-model") != std::string::npos ||
                back["params"].dump().find("mock-model") != std::string::npos,
            true);
  const auto arts = back["artifacts"].dump();
  EXPECT_NE(arts.find("profile_export_aiperf.json"), std::string::npos) << arts;
  EXPECT_NE(arts.find("profile_export_aiperf.csv"), std::string::npos) << arts;
  EXPECT_EQ(arts.find("profile_export.jsonl"), std::string::npos) << arts;  // not in the globs
  EXPECT_EQ(back.dump().find(kApiKey), std::string::npos);
  for (const auto& e : fs::recursive_directory_iterator(dir + "/mlartifacts"))
    if (e.is_regular_file()) {
      EXPECT_EQ(read_file(e.path().string()).find(kApiKey), std::string::npos) << e.path();
    }

  // A child run of it.
  const RunResult child = run_profile(
      make_temp_dir("sinks-mlflow-child"), {"--url", mock.url(), "-m", "mock-model", "--request-count", "2",
                       "--tokenizer", "builtin", "--mlflow-tracking-uri", uri,
                       "--mlflow-experiment", "servebench-it", "--mlflow-parent-run-id", run_id},
      180);
  ASSERT_EQ(child.exit_code, 0) << child.stderr_text;
  const Json child_back = Json::parse(capture(
      {py, source_dir() + "/tests/integration/sinks/mlflow_readback.py", uri,
       Json::parse(read_file(child.artifact_dir + "/mlflow_export.json")).at("run_id")}));
  EXPECT_EQ(child_back["tags"]["mlflow.parentRunId"], run_id);
}

}  // namespace
}  // namespace servebench::itest
