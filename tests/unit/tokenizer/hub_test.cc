// Hub download and cache layout against a fake hub server on loopback; default resolution.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <mutex>
#include <thread>

#include "core/env.h"
#include "tokenizer/fixtures.h"
#include "tokenizer/hub.h"
#include "tokenizer/tokenizer.h"

namespace servebench::tokenizer {
namespace {

namespace fs = std::filesystem;

constexpr const char* kCommit = "0123456789abcdef0123456789abcdef01234567";
constexpr const char* kTinyTokenizer =
    R"({"version":"1.0","added_tokens":[],"normalizer":null,"pre_tokenizer":{"type":"WhitespaceSplit"},)"
    R"("post_processor":null,"decoder":null,"model":{"type":"WordLevel","unk_token":"[UNK]",)"
    R"("vocab":{"[UNK]":0,"hello":1,"world":2}}})";

// A one-thread HTTP/1.1 server answering /<repo>/resolve/<rev>/tokenizer.json like the hub.
class FakeHub {
 public:
  FakeHub() {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = 0;
    ::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof(a));
    ::listen(fd_, 16);
    socklen_t len = sizeof(a);
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len);
    port_ = ntohs(a.sin_port);
    thread_ = std::thread([this] { serve(); });
  }
  ~FakeHub() {
    stop_ = true;
    ::shutdown(fd_, SHUT_RDWR);
    ::close(fd_);
    thread_.join();
  }
  std::string endpoint() const { return "http://127.0.0.1:" + std::to_string(port_); }
  int requests() const { return requests_.load(); }
  std::string last_auth() const {
    std::lock_guard<std::mutex> lock(mu_);
    return last_auth_;
  }

 private:
  void serve() {
    while (!stop_) {
      int c = ::accept(fd_, nullptr, nullptr);
      if (c < 0) return;
      std::string req;
      char buf[4096];
      while (req.find("\r\n\r\n") == std::string::npos) {
        ssize_t n = ::recv(c, buf, sizeof(buf), 0);
        if (n <= 0) break;
        req.append(buf, static_cast<size_t>(n));
      }
      ++requests_;
      auto auth = req.find("Authorization: ");
      if (auth != std::string::npos) {
        // Sockets are invisible to TSan: the mutex makes the hand-over explicit.
        std::lock_guard<std::mutex> lock(mu_);
        last_auth_ = req.substr(auth + 15, req.find("\r\n", auth) - auth - 15);
      }
      std::string path = req.substr(4, req.find(' ', 4) - 4);
      std::string status = "200 OK", body = kTinyTokenizer, extra;
      if (path.find("/org/gated/") == 0) {
        status = "401 Unauthorized";
        body = "{\"error\":\"gated\"}";
      } else if (path.find("/org/good/") == 0) {
        extra = std::string("X-Repo-Commit: ") + kCommit + "\r\nETag: \"etag-good\"\r\n";
      } else if (path.find("/org/moved/") == 0) {
        // The hub's answer for LFS files: a redirect naming the commit and the blob's etag.
        status = "302 Found";
        body = "Found. Redirecting";  // must not reach the streamed file
        extra = std::string("X-Repo-Commit: ") + kCommit + "\r\nX-Linked-Etag: \"etag-linked\"\r\n" +
                "Location: /org/good/resolve/main/tokenizer.json\r\n";
      } else if (path.find("/datasets/org/data/resolve/main/") == 0 ||
                 path.find("/datasets/org/data/resolve/refs%2Fconvert%2Fparquet/") == 0) {
        extra = std::string("X-Repo-Commit: ") + kCommit + "\r\nETag: \"etag-data\"\r\n";
        body = "[{\"id\":\"a\"}]";
      } else if (path.find("/org/corrupt/") == 0) {
        extra = std::string("X-Repo-Commit: ") + kCommit + "\r\nETag: \"etag-bad\"\r\n";
        body = "{\"model\": [truncated";
      } else {
        status = "404 Not Found";
        body = "{\"error\":\"Repository not found\"}";
      }
      std::string resp = "HTTP/1.1 " + status + "\r\nContent-Length: " + std::to_string(body.size()) +
                         "\r\nConnection: close\r\n" + extra + "\r\n" + body;
      ::send(c, resp.data(), resp.size(), MSG_NOSIGNAL);
      ::close(c);
    }
  }
  int fd_ = -1;
  uint16_t port_ = 0;
  std::thread thread_;
  std::atomic<bool> stop_{false};
  std::atomic<int> requests_{0};
  mutable std::mutex mu_;
  std::string last_auth_;
};

class Hub : public ::testing::Test {
 protected:
  void SetUp() override {
    cache_ = fs::temp_directory_path() / ("sb_hub_test_" + std::to_string(::getpid()));
    fs::remove_all(cache_);
    fs::create_directories(cache_);
    ::setenv("HF_HUB_CACHE", cache_.c_str(), 1);
    ::setenv("HF_ENDPOINT", hub_.endpoint().c_str(), 1);
    ::setenv("HF_TOKEN", "secret-token", 1);
    ::unsetenv("HF_HUB_OFFLINE");
    core::reload_env_for_test();  // the snapshot is taken once; tests take it again
  }
  void TearDown() override {
    fs::remove_all(cache_);
    ::unsetenv("HF_HUB_CACHE");
    ::unsetenv("HF_ENDPOINT");
    ::unsetenv("HF_TOKEN");
    ::unsetenv("HF_HUB_OFFLINE");
    core::reload_env_for_test();
  }
  FakeHub hub_;
  fs::path cache_;
};

TEST_F(Hub, DownloadsIntoHuggingFaceCacheLayoutThenServesFromCache) {
  auto t = load_tokenizer("org/good");
  ASSERT_TRUE(t.has_value()) << t.error().message;
  EXPECT_EQ((*t)->encode("hello world nope", false), (std::vector<TokenId>{1, 2, 0}));
  EXPECT_EQ(hub_.last_auth(), "Bearer secret-token");
  fs::path repo = cache_ / "models--org--good";
  EXPECT_EQ(testing::read_file((repo / "refs" / "main").string()), kCommit);
  EXPECT_TRUE(fs::is_regular_file(repo / "blobs" / "etag-good"));
  fs::path snap = repo / "snapshots" / kCommit / "tokenizer.json";
  EXPECT_TRUE(fs::is_symlink(snap));
  EXPECT_EQ(testing::read_file(snap.string()), kTinyTokenizer);
  // Second load: the cache answers, even offline.
  int before = hub_.requests();
  ::setenv("HF_HUB_OFFLINE", "1", 1);
  core::reload_env_for_test();
  auto again = load_tokenizer("org/good");
  ASSERT_TRUE(again.has_value()) << again.error().message;
  EXPECT_EQ(hub_.requests(), before);
}

// No file but the blobs is left in `dir` (a failed download removes its partial file).
size_t files_in(const fs::path& dir) {
  size_t n = 0;
  if (fs::exists(dir))
    for (const auto& e : fs::directory_iterator(dir)) n += e.is_regular_file();
  return n;
}

TEST_F(Hub, DatasetDownloadsStreamUnderACapAndNameRefRevisionsAsTheHubDoes) {
  HubFile f;
  f.type = HubRepoType::kDataset;
  f.repo_id = "org/data";
  f.filename = "sub/part.json";
  f.what = "dataset 'org/data'";
  f.max_bytes = 5;
  auto big = resolve_hub_file(f, HubEnvironment::from_env());
  ASSERT_FALSE(big);
  EXPECT_NE(big.error().message.find("dataset 'org/data' sub/part.json is larger than the download cap of 5 bytes"),
            std::string::npos)
      << big.error().message;
  EXPECT_EQ(files_in(cache_ / "datasets--org--data" / "blobs"), 0u) << "the partial download is removed";
  f.repo_id = "org/missing";
  EXPECT_FALSE(resolve_hub_file(f, HubEnvironment::from_env()));
  EXPECT_EQ(files_in(cache_ / "datasets--org--missing" / "blobs"), 0u) << "a 404 body is not kept";

  // The hub's Parquet export lives at revision refs/convert/parquet, %2F-escaped in the URL.
  f.repo_id = "org/data";
  f.max_bytes = kDefaultHubMaxBytes;
  f.revision = "refs/convert/parquet";
  f.filename = "default/train/0000.parquet";
  auto path = resolve_hub_file(f, HubEnvironment::from_env());
  ASSERT_TRUE(path) << path.error().message;
  const fs::path repo = cache_ / "datasets--org--data";
  EXPECT_EQ(*path, (repo / "snapshots" / kCommit / "default" / "train" / "0000.parquet").string());
  EXPECT_EQ(testing::read_file((repo / "refs" / "refs" / "convert" / "parquet").string()), kCommit);
  ::setenv("HF_HUB_OFFLINE", "1", 1);
  core::reload_env_for_test();
  auto offline = resolve_hub_file(f, HubEnvironment::from_env());
  ASSERT_TRUE(offline) << offline.error().message;
  EXPECT_EQ(*offline, *path);
}

TEST_F(Hub, AFileOffTheHubIsFetchedOnceToItsPath) {
  const std::string path = (cache_ / "aiperf" / "datasets" / "spec_bench.jsonl").string();
  const HubEnvironment env = HubEnvironment::from_env();
  auto got = fetch_url_file(hub_.endpoint() + "/datasets/org/data/resolve/main/q.jsonl", path, "--public-dataset x", env);
  ASSERT_TRUE(got) << got.error().message;
  EXPECT_EQ(*got, path);
  EXPECT_EQ(testing::read_file(path), "[{\"id\":\"a\"}]");
  EXPECT_EQ(hub_.last_auth(), "") << "HF_TOKEN goes to the hub only";
  auto again = fetch_url_file(hub_.endpoint() + "/nowhere", path, "--public-dataset x", env);
  ASSERT_TRUE(again) << "an existing file is not fetched again";
  EXPECT_EQ(hub_.requests(), 1);
  const std::string other = (cache_ / "aiperf" / "datasets" / "missing.jsonl").string();
  auto missing = fetch_url_file(hub_.endpoint() + "/nowhere", other, "--public-dataset x", env);
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("failed with HTTP 404; download it to " + other), std::string::npos)
      << missing.error().message;
  EXPECT_EQ(files_in(cache_ / "aiperf" / "datasets"), 1u) << "no partial file is left";
  auto capped = fetch_url_file(hub_.endpoint() + "/datasets/org/data/resolve/main/q.jsonl", other, "--public-dataset x",
                               env, 4);
  ASSERT_FALSE(capped);
  EXPECT_NE(capped.error().message.find("larger than 4 bytes"), std::string::npos) << capped.error().message;
  HubEnvironment offline = env;
  offline.offline = true;
  auto off = fetch_url_file(hub_.endpoint() + "/x", other, "--public-dataset x", offline);
  ASSERT_FALSE(off);
  EXPECT_NE(off.error().message.find("HF_HUB_OFFLINE=1"), std::string::npos);
}

TEST_F(Hub, FollowsTheHubsRedirect) {
  auto t = load_tokenizer("org/moved");
  ASSERT_TRUE(t.has_value()) << t.error().message;
  EXPECT_EQ((*t)->encode("hello", false), (std::vector<TokenId>{1}));
  EXPECT_EQ(hub_.requests(), 2) << "the redirect and its target";
  fs::path repo = cache_ / "models--org--moved";
  EXPECT_EQ(testing::read_file((repo / "refs" / "main").string()), kCommit);
  EXPECT_TRUE(fs::is_regular_file(repo / "blobs" / "etag-good")) << "the final answer's ETag names the blob";
}

TEST_F(Hub, DatasetFileGoesToTheDatasetsFolderThenServesFromCache) {
  HubFile f;
  f.type = HubRepoType::kDataset;
  f.repo_id = "org/data";
  f.filename = "sub/part.json";
  f.what = "dataset 'org/data'";
  auto path = resolve_hub_file(f, HubEnvironment::from_env());
  ASSERT_TRUE(path) << path.error().message;
  const fs::path expected = cache_ / "datasets--org--data" / "snapshots" / kCommit / "sub" / "part.json";
  EXPECT_EQ(*path, expected.string());
  std::ifstream in(*path);  // through the relative link to blobs/etag-data
  std::string body((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(body, "[{\"id\":\"a\"}]");
  EXPECT_TRUE(fs::exists(cache_ / "datasets--org--data" / "blobs" / "etag-data"));
  EXPECT_EQ(hub_.requests(), 1);
  auto again = resolve_hub_file(f, HubEnvironment::from_env());
  ASSERT_TRUE(again);
  EXPECT_EQ(*again, *path);
  EXPECT_EQ(hub_.requests(), 1) << "the second resolution is served from the cache";
  f.repo_id = "org/missing";
  f.what = "dataset 'org/missing'";
  auto missing = resolve_hub_file(f, HubEnvironment::from_env());
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("dataset 'org/missing' (revision main) has no sub/part.json"),
            std::string::npos) << missing.error().message;
}

TEST(HubEnvironment, FromASnapshot) {
  core::EnvSnapshot env;
  env.set(core::EnvVar::kHome, "/home/u");
  env.set(core::EnvVar::kHuggingFaceHubToken, "old-name-token");
  env.set(core::EnvVar::kHfHubOffline, "yes");
  const HubEnvironment e = HubEnvironment::from(env);
  EXPECT_EQ(e.cache_dir, "/home/u/.cache/huggingface/hub");
  EXPECT_EQ(e.endpoint, "https://huggingface.co");
  EXPECT_EQ(e.token, "old-name-token");
  EXPECT_TRUE(e.offline);
}

TEST_F(Hub, PinnedRevisionUsesItsOwnSnapshot) {
  LoadOptions opts;
  opts.revision = kCommit;
  auto t = load_tokenizer("org/good", opts);
  ASSERT_TRUE(t.has_value()) << t.error().message;
  EXPECT_TRUE(fs::exists(cache_ / "models--org--good" / "snapshots" / kCommit / "tokenizer.json"));
}

TEST_F(Hub, NotFoundIsOneLineUsageError) {
  auto t = load_tokenizer("org/missing");
  ASSERT_FALSE(t.has_value());
  EXPECT_TRUE(t.error().is_usage());
  EXPECT_NE(t.error().message.find("404"), std::string::npos) << t.error().message;
  EXPECT_NE(t.error().message.find("org/missing"), std::string::npos);
  EXPECT_EQ(t.error().message.find('\n'), std::string::npos);
}

TEST_F(Hub, GatedRepoAsksForToken) {
  auto t = load_tokenizer("org/gated");
  ASSERT_FALSE(t.has_value());
  EXPECT_TRUE(t.error().is_usage());
  EXPECT_NE(t.error().message.find("HF_TOKEN"), std::string::npos) << t.error().message;
}

TEST_F(Hub, CorruptDownloadIsParseError) {
  auto t = load_tokenizer("org/corrupt");
  ASSERT_FALSE(t.has_value());
  EXPECT_TRUE(t.error().is_usage());
  EXPECT_NE(t.error().message.find("not valid JSON"), std::string::npos) << t.error().message;
}

TEST_F(Hub, OfflineMissNamesTheCacheAndDoesNotConnect) {
  ::setenv("HF_HUB_OFFLINE", "1", 1);
  core::reload_env_for_test();
  auto t = load_tokenizer("org/good");
  ASSERT_FALSE(t.has_value());
  EXPECT_NE(t.error().message.find("HF_HUB_OFFLINE"), std::string::npos) << t.error().message;
  EXPECT_EQ(hub_.requests(), 0);
}

TEST_F(Hub, UnreachableEndpointFailsCleanly) {
  // A port that was just free: bind an ephemeral one and close it.
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a));
  socklen_t len = sizeof(a);
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  ::close(fd);
  ::setenv("HF_ENDPOINT", ("http://127.0.0.1:" + std::to_string(ntohs(a.sin_port))).c_str(), 1);
  core::reload_env_for_test();
  LoadOptions opts;
  opts.network_timeout_ms = 2000;
  auto t = load_tokenizer("org/good", opts);
  ASSERT_FALSE(t.has_value());
  EXPECT_TRUE(t.error().is_usage());
  EXPECT_NE(t.error().message.find("cannot be downloaded"), std::string::npos) << t.error().message;
}

TEST_F(Hub, DefaultResolution) {
  std::string warning;
  // org/name: cache, then hub.
  auto t = resolve_default_tokenizer("org/good", {}, &warning);
  EXPECT_TRUE(warning.empty()) << warning;
  EXPECT_EQ(t->encode("hello", false), (std::vector<TokenId>{1}));
  // A bare name is looked up in the cache only: no request, builtin with one warning line.
  int before = hub_.requests();
  auto b = resolve_default_tokenizer("mock", {}, &warning);
  EXPECT_EQ(hub_.requests(), before);
  EXPECT_EQ(b->name(), "builtin (o200k_base)");
  EXPECT_NE(warning.find("builtin"), std::string::npos);
  EXPECT_EQ(warning.find('\n'), std::string::npos);
  // An unresolvable org/name falls back too.
  warning.clear();
  auto c = resolve_default_tokenizer("org/missing", {}, &warning);
  EXPECT_EQ(c->name(), "builtin (o200k_base)");
  EXPECT_NE(warning.find("org/missing"), std::string::npos);
}

}  // namespace
}  // namespace servebench::tokenizer

namespace servebench::tokenizer {
namespace {

TEST(HubEnvironment, HonoursHfVariables) {
  ::unsetenv("HF_HUB_CACHE");
  ::unsetenv("HUGGINGFACE_HUB_CACHE");
  ::setenv("HF_HOME", "/tmp/hf-home", 1);
  ::setenv("HF_ENDPOINT", "http://mirror.example/", 1);
  ::setenv("HF_HUB_OFFLINE", "1", 1);
  core::reload_env_for_test();
  HubEnvironment e = HubEnvironment::from_env();
  EXPECT_EQ(e.cache_dir, "/tmp/hf-home/hub");
  EXPECT_EQ(e.endpoint, "http://mirror.example");
  EXPECT_TRUE(e.offline);
  ::setenv("HF_HUB_CACHE", "/tmp/explicit-cache", 1);
  core::reload_env_for_test();
  EXPECT_EQ(HubEnvironment::from_env().cache_dir, "/tmp/explicit-cache");
  for (const char* v : {"HF_HUB_CACHE", "HF_HOME", "HF_ENDPOINT", "HF_HUB_OFFLINE"}) ::unsetenv(v);
  core::reload_env_for_test();
}

TEST(HubCache, FindsSnapshotThroughRefsOrCommit) {
  namespace fs = std::filesystem;
  fs::path cache = fs::temp_directory_path() / ("sb_hub_layout_" + std::to_string(::getpid()));
  fs::remove_all(cache);
  fs::path snap = cache / "models--Qwen--Qwen3-0.6B" / "snapshots" / kCommit;
  fs::create_directories(snap);
  fs::create_directories(cache / "models--Qwen--Qwen3-0.6B" / "refs");
  std::ofstream(snap / "tokenizer.json") << kTinyTokenizer;
  EXPECT_EQ(find_cached_tokenizer(cache.string(), "Qwen/Qwen3-0.6B", "main"), "");  // no refs/main yet
  EXPECT_EQ(find_cached_tokenizer(cache.string(), "Qwen/Qwen3-0.6B", kCommit), snap.string());
  std::ofstream(cache / "models--Qwen--Qwen3-0.6B" / "refs" / "main") << kCommit << "\n";
  EXPECT_EQ(find_cached_tokenizer(cache.string(), "Qwen/Qwen3-0.6B", "main"), snap.string());
  EXPECT_EQ(find_cached_tokenizer(cache.string(), "Qwen/Other", "main"), "");
  fs::remove_all(cache);
}

}  // namespace
}  // namespace servebench::tokenizer
