#include "core/env.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

namespace servebench::core {
namespace {

TEST(Env, SnapshotIsTakenOnceAtStartUp) {
  ::unsetenv("SERVEBENCH_CORPUS");
  reload_env_for_test();
  ::setenv("SERVEBENCH_CORPUS", "/later/corpus.txt", 1);
  EXPECT_FALSE(env().get(EnvVar::kServebenchCorpus)) << "a setenv after the snapshot is not seen";
  reload_env_for_test();
  EXPECT_EQ(env().get(EnvVar::kServebenchCorpus), "/later/corpus.txt");
  ::unsetenv("SERVEBENCH_CORPUS");
  reload_env_for_test();
}

TEST(Env, EmptyIsDistinctFromUnset) {
  EnvSnapshot s;
  EXPECT_FALSE(s.get(EnvVar::kServebenchCacheDir));
  EXPECT_EQ(s.get_or(EnvVar::kServebenchCacheDir, "dflt"), "dflt");
  s.set(EnvVar::kServebenchCacheDir, "");
  ASSERT_TRUE(s.get(EnvVar::kServebenchCacheDir));
  EXPECT_EQ(*s.get(EnvVar::kServebenchCacheDir), "");
  EXPECT_EQ(s.get_or(EnvVar::kServebenchCacheDir, "dflt"), "dflt");
  s.set(EnvVar::kServebenchCacheDir, "/c");
  EXPECT_EQ(s.get_or(EnvVar::kServebenchCacheDir, "dflt"), "/c");
}

TEST(Env, RecordedValuesRedactSecretsAndProxyCredentials) {
  EnvSnapshot s;
  s.set(EnvVar::kHfToken, "hf_supersecret");
  s.set(EnvVar::kHuggingFaceHubToken, "hf_old_secret");
  s.set(EnvVar::kHttpsProxyLower, "http://alice:pw@proxy.example:3128/");
  s.set(EnvVar::kAllProxyUpper, "bob:pw2@proxy:1080");
  s.set(EnvVar::kHome, "/home/u");
  const auto rec = s.recorded();
  std::string all;
  for (const auto& [k, v] : rec) all += k + "=" + v + ";";
  EXPECT_EQ(all,
            "HOME=/home/u;HF_TOKEN=<redacted>;HUGGING_FACE_HUB_TOKEN=<redacted>;"
            "https_proxy=http://<redacted>@proxy.example:3128/;ALL_PROXY=<redacted>@proxy:1080;");
  EXPECT_EQ(all.find("secret"), std::string::npos);
  EXPECT_EQ(all.find("pw"), std::string::npos);
}

TEST(Env, UrlUserInfoRedaction) {
  EXPECT_EQ(redact_url_user_info("http://proxy:3128"), "http://proxy:3128");
  EXPECT_EQ(redact_url_user_info("https://u:p@h/x@y"), "https://<redacted>@h/x@y");
  EXPECT_EQ(redact_url_user_info(""), "");
}

TEST(Env, SnapshotJsonIsOneObject) {
  ::setenv("HF_TOKEN", "hf_\"quoted\"", 1);
  ::setenv("HF_HUB_OFFLINE", "1", 1);
  reload_env_for_test();
  const std::string j = env_snapshot_json();
  EXPECT_EQ(j.front(), '{');
  EXPECT_EQ(j.back(), '}');
  EXPECT_NE(j.find("\"HF_TOKEN\":\"<redacted>\""), std::string::npos) << j;
  EXPECT_NE(j.find("\"HF_HUB_OFFLINE\":\"1\""), std::string::npos) << j;
  EXPECT_EQ(j.find("quoted"), std::string::npos) << j;
  ::unsetenv("HF_TOKEN");
  ::unsetenv("HF_HUB_OFFLINE");
  reload_env_for_test();
}

TEST(Env, TableNamesAreUniqueAndDocumented) {
  const char* src = std::getenv("SERVEBENCH_SOURCE_DIR");
  ASSERT_TRUE(src) << "ctest sets SERVEBENCH_SOURCE_DIR";
  std::ifstream in(std::string(src) + "/docs/environment.md");
  ASSERT_TRUE(in) << "docs/environment.md is missing";
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string doc = ss.str();
  std::set<std::string> names;
  for (const auto& v : env_vars()) {
    EXPECT_TRUE(names.insert(v.name).second) << v.name;
    EXPECT_EQ(&env_var_info(v.var), &v);
    EXPECT_NE(doc.find(std::string("| `") + v.name + "`"), std::string::npos)
        << v.name << " has no row in docs/environment.md";
  }
  EXPECT_EQ(names.size(), kEnvVarCount);
}

}  // namespace
}  // namespace servebench::core
