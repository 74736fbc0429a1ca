// GPU telemetry and network RTT end to end: `servebench profile` against servebench-mock with
// the fake NVML / AMD SMI libraries (tests/fakes/, found through LD_LIBRARY_PATH exactly as the
// real ones would be) and the mock's DCGM-exporter mode. Checks the raw samples file, the GPU
// block of the JSON export, the CSV table, and that each GPU's energy equals its energy counter's
// growth between two of its recorded samples (the fakes integrate a known constant power, so
// that growth is also power × time).
#include <dlfcn.h>
#include <poll.h>

#include <cmath>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "integration/profile/harness.h"

namespace servebench::itest {
namespace {

struct TempDir {
  explicit TempDir(const std::string& tag) : path(make_temp_dir(tag)) {}
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  std::string path;
};

// LD_LIBRARY_PATH for the children of one test.
struct ScopedLibraryPath {
  explicit ScopedLibraryPath(const std::string& dir) { setenv("LD_LIBRARY_PATH", dir.c_str(), 1); }
  ~ScopedLibraryPath() { unsetenv("LD_LIBRARY_PATH"); }
};

std::vector<std::string> load_args(const Server& mock, std::vector<std::string> extra) {
  // ~2 s of load (40 requests, 2 at a time, ~95 ms each): several 333 ms samples.
  std::vector<std::string> a = {"-m", "mock-model", "--tokenizer", "simple", "--isl", "32",
                                "--osl", "16", "--extra-inputs", "ignore_eos:true", "--streaming",
                                "-u", mock.url(), "--concurrency", "2", "--request-count", "40"};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

// For each GPU uuid: the (timestamp_ns, counter value) samples of `counter_tag` in the JSONL.
std::map<std::string, std::vector<std::pair<int64_t, double>>> counters(
    const std::vector<Json>& lines, const std::string& counter_tag) {
  std::map<std::string, std::vector<std::pair<int64_t, double>>> out;
  for (const auto& l : lines)
    if (l["telemetry_data"].contains(counter_tag))
      out[l["gpu_uuid"]].emplace_back(l["timestamp_ns"].get<int64_t>(),
                                      l["telemetry_data"][counter_tag].get<double>());
  return out;
}

// Checks one platform's GPUs: the JSONL samples, the JSON block, and energy == counter growth.
void check_local_gpus(const RunResult& r, const std::string& endpoint, const std::string& prefix,
                      const std::vector<double>& power_w) {
  const std::string jsonl = r.artifact_dir + "/gpu_telemetry_export.jsonl";
  ASSERT_TRUE(fs::exists(jsonl)) << r.stderr_text;
  const auto lines = read_jsonl(jsonl);
  ASSERT_GE(lines.size(), 2 * power_w.size());
  for (const auto& l : lines) {
    EXPECT_EQ(l["dcgm_url"], endpoint + "://localhost");
    EXPECT_GT(l["timestamp_ns"].get<int64_t>(), 0);
  }
  const Json s = r.summary();
  ASSERT_TRUE(s.contains("telemetry_data")) << r.stderr_text;
  const Json& gpus = s["telemetry_data"]["endpoints"][endpoint]["gpus"];
  ASSERT_EQ(gpus.size(), power_w.size());
  const std::string power_tag = prefix == "nvidia" ? "nvidia_power_usage" : "amd_power";
  const std::string counter_tag = prefix + "_energy_consumption";
  const auto series = counters(lines, counter_tag);
  double total_j = 0;
  for (size_t i = 0; i < power_w.size(); ++i) {
    const Json& g = gpus["gpu_" + std::to_string(i)];
    EXPECT_EQ(g["platform"], prefix);
    EXPECT_DOUBLE_EQ(g["metrics"][power_tag]["avg"].get<double>(), power_w[i]);
    EXPECT_EQ(g["metrics"][power_tag]["unit"], "W");
    ASSERT_TRUE(g.contains("servebench_energy"));
    EXPECT_EQ(g["servebench_energy"]["source"], "energy_counter");
    const double joules = g["servebench_energy"]["joules"].get<double>();
    total_j += joules;
    // Some pair of recorded samples (a before b) grew by exactly that much...
    const auto& c = series.at(g["gpu_uuid"].get<std::string>());
    bool matched = false;
    for (size_t a = 0; a < c.size() && !matched; ++a) {
      for (size_t b = a + 1; b < c.size() && !matched; ++b) {
        const double grown_j = (c[b].second - c[a].second) * 1e6;
        if (std::fabs(grown_j - joules) > 1e-6 * std::max(1.0, joules)) continue;
        matched = true;
        // ...and that is the fake's constant power over the time between them (±5 %: the
        // sample's timestamp is taken just after the library read its clock).
        const double span_s = static_cast<double>(c[b].first - c[a].first) / 1e9;
        EXPECT_NEAR(joules, power_w[i] * span_s, 0.05 * power_w[i] * span_s + 1.0)
            << "span " << span_s << " s";
        EXPECT_GT(span_s, 1.0);  // the window spans the ~2 s load
      }
    }
    EXPECT_TRUE(matched) << "GPU " << i << ": " << joules << " J matches no counter difference";
  }
  EXPECT_NEAR(s[prefix + "_total_gpu_energy"]["avg"].get<double>(), total_j, 1e-6 * total_j);
  EXPECT_EQ(s[prefix + "_total_gpu_energy"]["unit"], "J");
  const double osl = s["total_osl"]["avg"].get<double>();
  EXPECT_EQ(osl, 40 * 16);
  EXPECT_NEAR(s[prefix + "_energy_per_output_token"]["avg"].get<double>(), total_j * 1e3 / osl,
              1e-6 * total_j);
  EXPECT_NEAR(s[prefix + "_output_tokens_per_joule"]["avg"].get<double>(), osl / total_j,
              1e-6 * osl / total_j);
  const std::string csv = read_file(r.artifact_dir + "/profile_export_aiperf.csv");
  EXPECT_NE(csv.find("Endpoint,GPU_Index,GPU_Name,GPU_UUID,Platform,Metric,avg,min,max"),
            std::string::npos);
  EXPECT_NE(csv.find(endpoint + ",1,"), std::string::npos) << csv;
}

TEST(GpuTelemetryE2E, NvmlFakeTwoGpusEnergyFromCounter) {
  TempDir dir("gpu-nvml");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--ttft-ms", "20", "--itl-ms", "5"}));
  ScopedLibraryPath lib(bin_dir() + "/fakes/nvml");
  auto r = run_profile(dir.path, load_args(mock, {"--gpu-telemetry", "pynvml"}));
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  check_local_gpus(r, "pynvml", "nvidia", {100.0, 150.0});
}

TEST(GpuTelemetryE2E, AmdSmiFakeTwoGpusEnergyFromCounter) {
  TempDir dir("gpu-amd");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--ttft-ms", "20", "--itl-ms", "5"}));
  ScopedLibraryPath lib(bin_dir() + "/fakes/amdsmi");
  auto r = run_profile(dir.path, load_args(mock, {"--gpu-telemetry", "amdsmi"}));
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  check_local_gpus(r, "amdsmi", "amd", {100.0, 150.0});
}

TEST(GpuTelemetryE2E, MissingNvmlIsNotAnError) {
  if (void* real = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL)) {
    dlclose(real);
    GTEST_SKIP() << "this machine has NVML: nothing is missing";
  }
  TempDir dir("gpu-none");
  Server mock;
  ASSERT_TRUE(mock.start_mock({}));
  auto r = run_profile(dir.path, {"-m", "mock-model", "--tokenizer", "simple", "-u", mock.url(),
                                  "--request-count", "4", "--gpu-telemetry", "pynvml"});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_FALSE(fs::exists(r.artifact_dir + "/gpu_telemetry_export.jsonl"));
  EXPECT_FALSE(r.summary().contains("telemetry_data"));
  const std::string console = read_file(r.artifact_dir + "/profile_export_console.txt");
  EXPECT_NE(console.find("GPU Telemetry: 0/1 sources reachable"), std::string::npos) << console;
  EXPECT_NE(console.find("NVML not available"), std::string::npos) << console;
}

TEST(GpuTelemetryE2E, BadCustomMetricsFileIsAUsageError) {
  TempDir dir("gpu-bad");
  auto r = run_profile(dir.path, {"-m", "mock-model", "--tokenizer", "simple", "-u",
                                  "http://127.0.0.1:9", "--gpu-telemetry", "/nonexistent/m.csv"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.stderr_text.find("--gpu-telemetry '/nonexistent/m.csv'"), std::string::npos)
      << r.stderr_text;
}

// servebench-mock with --dcgm-port 0: the listening line, then the DCGM exporter's line.
struct DcgmMock {
  pid_t pid = -1;
  int out_fd = -1;
  std::string url, dcgm_url;
  bool start(const std::vector<std::string>& extra) {
    std::vector<std::string> argv = {bin_dir() + "/servebench-mock", "--port", "0", "--dcgm-port",
                                     "0"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    int fds[2];
    if (pipe(fds) != 0) return false;
    pid = spawn(argv, fds[1], -1);
    close(fds[1]);
    out_fd = fds[0];
    std::string lines[2];
    for (auto& line : lines) {
      char ch;
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
      while (std::chrono::steady_clock::now() < deadline) {
        pollfd p{out_fd, POLLIN, 0};
        if (poll(&p, 1, 100) <= 0) continue;
        if (read(out_fd, &ch, 1) != 1 || ch == '\n') break;
        line.push_back(ch);
      }
    }
    const std::string l0 = "listening on ", l1 = "dcgm exporter on ";
    if (lines[0].rfind(l0, 0) != 0 || lines[1].rfind(l1, 0) != 0) return false;
    url = lines[0].substr(l0.size());
    dcgm_url = lines[1].substr(l1.size());
    return true;
  }
  ~DcgmMock() {
    if (pid > 0) {
      kill(pid, SIGTERM);
      waitpid(pid, nullptr, 0);
    }
    if (out_fd >= 0) close(out_fd);
  }
};

TEST(GpuTelemetryE2E, DcgmMockTwoGpusFollowLoad) {
  TempDir dir("gpu-dcgm");
  DcgmMock mock;
  ASSERT_TRUE(mock.start({"--ttft-ms", "20", "--itl-ms", "5"}));
  std::vector<std::string> args = {"-m", "mock-model", "--tokenizer", "simple", "--isl", "32",
                                   "--osl", "16", "--extra-inputs", "ignore_eos:true",
                                   "--streaming", "-u", mock.url, "--concurrency", "8",
                                   "--request-count", "160", "--gpu-telemetry", mock.dcgm_url};
  auto r = run_profile(dir.path, args);
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const std::string jsonl = r.artifact_dir + "/gpu_telemetry_export.jsonl";
  ASSERT_TRUE(fs::exists(jsonl)) << r.stderr_text;
  const auto lines = read_jsonl(jsonl);
  ASSERT_GE(lines.size(), 4u);
  for (const auto& l : lines) {
    EXPECT_EQ(l["dcgm_url"], mock.dcgm_url);
    EXPECT_EQ(l["hostname"], "servebench-mock");
    EXPECT_EQ(l["gpu_model_name"], "NVIDIA H100 80GB HBM3");
  }
  const Json s = r.summary();
  const std::string endpoint = mock.dcgm_url.substr(7, mock.dcgm_url.find("/metrics") - 7);
  const Json& gpus = s["telemetry_data"]["endpoints"][endpoint]["gpus"];
  ASSERT_EQ(gpus.size(), 2u) << s["telemetry_data"].dump();
  // Under load (8 in flight of the saturation 32) the utilisation rises above idle.
  EXPECT_GT(gpus["gpu_0"]["metrics"]["nvidia_gpu_utilization"]["max"].get<double>(), 0);
  EXPECT_GT(gpus["gpu_0"]["metrics"]["nvidia_power_usage"]["max"].get<double>(), 70);
  // Energy: the counter's growth between two recorded samples (the mock integrates the power it
  // reports, so counter differences are exact in mJ).
  const auto series = counters(lines, "nvidia_energy_consumption");
  double total_j = 0;
  for (const auto& [name, g] : gpus.items()) {
    ASSERT_TRUE(g.contains("servebench_energy")) << name;
    EXPECT_EQ(g["servebench_energy"]["source"], "energy_counter");
    const double joules = g["servebench_energy"]["joules"].get<double>();
    total_j += joules;
    const auto& c = series.at(g["gpu_uuid"].get<std::string>());
    bool matched = false;
    for (size_t a = 0; a < c.size() && !matched; ++a)
      for (size_t b = a + 1; b < c.size() && !matched; ++b)
        matched = std::fabs((c[b].second - c[a].second) * 1e6 - joules) < 1e-3;
    EXPECT_TRUE(matched) << name << ": " << joules << " J matches no counter difference";
  }
  EXPECT_GT(total_j, 0);
  EXPECT_NEAR(s["nvidia_total_gpu_energy"]["avg"].get<double>(), total_j, 1e-6 * total_j);
}

TEST(GpuTelemetryE2E, NetworkRttProbesAndAdjustedLatencies) {
  TempDir dir("rtt");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--ttft-ms", "10"}));
  auto r = run_profile(dir.path, {"-m", "mock-model", "--tokenizer", "simple", "-u", mock.url(),
                                  "--streaming", "--request-count", "8",
                                  "--network-latency-automatic", "--no-gpu-telemetry"});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const auto probes = read_jsonl(r.artifact_dir + "/profile_export_network_latency.jsonl");
  int good = 0;
  for (const auto& p : probes) good += p["rtt_ms"].is_number() ? 1 : 0;
  EXPECT_GE(good, 5);
  const Json s = r.summary();
  const double rtt = s["network_rtt"]["avg"].get<double>();
  EXPECT_GT(rtt, 0);
  EXPECT_EQ(s["network_rtt"]["unit"], "ms");
  for (const char* tag : {"request_latency", "time_to_first_token"}) {
    const std::string adj = std::string("network_adjusted_") + tag;
    ASSERT_TRUE(s.contains(adj)) << adj;
    for (const char* st : {"avg", "min", "p50", "p99"}) {
      EXPECT_NEAR(s[adj][st].get<double>(), std::max(0.0, s[tag][st].get<double>() - rtt), 1e-9)
          << adj << "." << st;
    }
  }
}

TEST(GpuTelemetryE2E, FixedNetworkLatencyIsSubtracted) {
  TempDir dir("rtt-fixed");
  Server mock;
  ASSERT_TRUE(mock.start_mock({"--ttft-ms", "30"}));
  auto r = run_profile(dir.path, {"-m", "mock-model", "--tokenizer", "simple", "-u", mock.url(),
                                  "--streaming", "--request-count", "6",
                                  "--network-latency-mean", "12.5", "--no-gpu-telemetry"});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const Json s = r.summary();
  EXPECT_DOUBLE_EQ(s["network_rtt"]["avg"].get<double>(), 12.5);
  EXPECT_NEAR(s["network_adjusted_time_to_first_token"]["min"].get<double>(),
              s["time_to_first_token"]["min"].get<double>() - 12.5, 1e-9);
  EXPECT_FALSE(fs::exists(r.artifact_dir + "/profile_export_network_latency.jsonl"));
}

}  // namespace
}  // namespace servebench::itest
