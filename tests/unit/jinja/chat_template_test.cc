// Finding a chat template next to a tokenizer and rendering simple conversations.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <unistd.h>

#include "chat_template/chat_template.h"

namespace servebench::chat_template {
namespace {

namespace fs = std::filesystem;

struct TempDir {
  fs::path path = fs::temp_directory_path() / ("sb_chat_tpl_" + std::to_string(::getpid()) + "_" +
                                               std::to_string(counter++));
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
  void write(const std::string& name, const std::string& text) const {
    std::ofstream(path / name, std::ios::binary) << text;
  }
  static inline int counter = 0;
};

TEST(ChatTemplate, FromTokenizerConfigWithSpecialTokens) {
  TempDir dir;
  dir.write("tokenizer_config.json",
            R"({"bos_token": {"content": "<s>", "lstrip": false}, "eos_token": "</s>",
                "chat_template": "{{ bos_token }}{% for m in messages %}[{{ m.role }}]{{ m.content }}{{ eos_token }}{% endfor %}{% if add_generation_prompt %}[assistant]{% endif %}"})");
  auto t = find_chat_template(dir.path.string(), "main");
  ASSERT_TRUE(t.has_value()) << t.error().message;
  auto out = t->render_messages({{"user", "hi"}}, true);
  ASSERT_TRUE(out.has_value());
  EXPECT_EQ(*out, "<s>[user]hi</s>[assistant]");
}

TEST(ChatTemplate, JinjaFileWinsAndNamedTemplates) {
  TempDir dir;
  dir.write("tokenizer_config.json",
            R"({"chat_template": [{"name": "tool_use", "template": "T"}, {"name": "default", "template": "D"}]})");
  auto t = load_chat_template_dir(dir.path.string());
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(*t->render_messages({}, false), "D");
  dir.write("chat_template.jinja", "J{{ messages|length }}\n");
  t = load_chat_template_dir(dir.path.string());
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(*t->render_messages({{"user", "x"}}, false), "J1");
}

TEST(ChatTemplate, MissingTemplateIsAUsageError) {
  TempDir dir;
  dir.write("tokenizer_config.json", "{}");
  auto t = find_chat_template(dir.path.string(), "main");
  ASSERT_FALSE(t.has_value());
  EXPECT_TRUE(t.error().is_usage());
  EXPECT_NE(t.error().message.find("--apply-chat-template"), std::string::npos);
  auto bad = ChatTemplate::from_source("{% if %}", {}, "x.jinja");
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.error().message.find("x.jinja"), std::string::npos);
}

}  // namespace
}  // namespace servebench::chat_template
