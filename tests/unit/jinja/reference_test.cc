// Every template × case of tests/data/chat_templates/cases.json rendered natively must equal,
// byte for byte, the rendering by Hugging Face transformers + jinja2 committed in
// reference.json (made by make_reference.py). A template that raised there must fail here.
// A second test re-runs make_reference.py in the pinned venv (scripts/jinja_venv.sh) and checks
// that the committed file is what the reference produces today.
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "chat_template/chat_template.h"

namespace servebench::chat_template {
namespace {

namespace fs = std::filesystem;

fs::path data_dir() {
  const char* src = std::getenv("SERVEBENCH_SOURCE_DIR");
  return fs::path(src ? src : ".") / "tests" / "data" / "chat_templates";
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

jinja::Value to_value(const nlohmann::ordered_json& j) {
  auto v = jinja::value_from_json(j.dump());
  return v ? *v : jinja::Value::undefined();
}

// strftime_now fixed at 2025-01-15 12:00:00, as make_reference.py fixes it.
std::string fixed_strftime(const std::string& format) {
  std::tm tm{};
  tm.tm_year = 125;
  tm.tm_mon = 0;
  tm.tm_mday = 15;
  tm.tm_hour = 12;
  tm.tm_wday = 3;
  tm.tm_yday = 14;
  char buf[128];
  size_t n = std::strftime(buf, sizeof(buf), format.c_str(), &tm);
  return std::string(buf, n);
}

TEST(ChatTemplateReference, NativeRenderingsEqualTransformers) {
  auto spec = nlohmann::ordered_json::parse(slurp(data_dir() / "cases.json"));
  auto ref = nlohmann::ordered_json::parse(slurp(data_dir() / "reference.json"));
  jinja::RenderOptions options;
  options.strftime_now = fixed_strftime;
  int compared = 0;
  for (auto& [name, tokens] : spec["templates"].items()) {
    std::vector<std::pair<std::string, std::string>> special;
    for (auto& [k, v] : tokens.items()) {
      if (v.is_string()) special.emplace_back(k, v.get<std::string>());
    }
    auto tmpl = ChatTemplate::from_source(slurp(data_dir() / (name + ".jinja")), special, name);
    ASSERT_TRUE(tmpl.has_value()) << tmpl.error().message;
    for (auto& [case_name, c] : spec["cases"].items()) {
      const auto& want = ref["renderings"][name][case_name];
      jinja::Value tools = c.contains("tools") ? to_value(c["tools"]) : jinja::Value::none();
      jinja::Value kwargs = c.contains("kwargs") ? to_value(c["kwargs"]) : jinja::Value::undefined();
      auto got = tmpl->render(to_value(c["messages"]), tools, c["add_generation_prompt"].get<bool>(),
                              kwargs, options);
      ++compared;
      if (want.contains("error")) {
        EXPECT_FALSE(got.has_value()) << name << "/" << case_name << " should raise";
        continue;
      }
      ASSERT_TRUE(got.has_value()) << name << "/" << case_name << ": " << got.error().message;
      EXPECT_EQ(*got, want["output"].get<std::string>()) << name << "/" << case_name;
    }
  }
  EXPECT_GE(compared, 7 * 9);
}

TEST(ChatTemplateReference, CommittedReferenceMatchesTransformers) {
  const char* home = std::getenv("HOME");
  const char* venv_env = std::getenv("SERVEBENCH_JINJA_VENV");
  fs::path venv = venv_env ? fs::path(venv_env) : fs::path(home ? home : "/") / ".cache/servebench/jinja-venv";
  fs::path python = venv / "bin" / "python";
  if (!fs::exists(python)) {
    if (std::getenv("SERVEBENCH_REQUIRE_ORACLES") != nullptr) {
      FAIL() << "no reference venv at " << venv << " (run scripts/jinja_venv.sh)";
    }
    GTEST_SKIP() << "no reference venv at " << venv << " (run scripts/jinja_venv.sh)";
  }
  fs::path out = fs::temp_directory_path() / ("sb_jinja_ref_" + std::to_string(::getpid()) + ".json");
  std::string cmd = python.string() + " " + (data_dir() / "make_reference.py").string() + " " +
                    out.string() + " 2>/dev/null";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  std::string fresh = slurp(out);
  fs::remove(out);
  EXPECT_EQ(fresh, slurp(data_dir() / "reference.json"))
      << "reference.json is stale: rerun make_reference.py";
}

}  // namespace
}  // namespace servebench::chat_template
