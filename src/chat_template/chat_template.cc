#include "chat_template/chat_template.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "tokenizer/hub.h"

namespace servebench::chat_template {
namespace fs = std::filesystem;
namespace {

bool read_file(const fs::path& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return true;
}

// A special token in tokenizer_config.json is a string or an AddedToken object {content: ...}.
std::string token_text(const nlohmann::json& j) {
  if (j.is_string()) return j.get<std::string>();
  if (j.is_object() && j.contains("content") && j["content"].is_string()) {
    return j["content"].get<std::string>();
  }
  return {};
}

std::string template_from_config(const nlohmann::json& config) {
  auto it = config.find("chat_template");
  if (it == config.end()) return {};
  if (it->is_string()) return it->get<std::string>();
  if (it->is_array()) {
    for (const auto& entry : *it) {
      if (entry.value("name", "") == "default" && entry.contains("template")) {
        return entry["template"].get<std::string>();
      }
    }
  }
  return {};
}

}  // namespace

core::Result<ChatTemplate> ChatTemplate::from_source(
    std::string source, std::vector<std::pair<std::string, std::string>> special_tokens,
    std::string origin) {
  auto parsed = jinja::Template::parse(source);
  if (!parsed) {
    return core::make_error(core::ErrorCode::kParse,
                            "chat template " + origin + ": " + parsed.error().message);
  }
  ChatTemplate t;
  t.source_ = std::move(source);
  t.origin_ = std::move(origin);
  t.template_ = std::move(*parsed);
  t.special_tokens_ = std::move(special_tokens);
  return t;
}

core::Result<std::string> ChatTemplate::render(const jinja::Value& messages,
                                               const jinja::Value& tools,
                                               bool add_generation_prompt,
                                               const jinja::Value& kwargs,
                                               const jinja::RenderOptions& options) const {
  jinja::Value ctx = jinja::Value::make_dict();
  ctx.dict->set("messages", messages);
  ctx.dict->set("tools", tools.is_undefined() ? jinja::Value::none() : tools);
  ctx.dict->set("documents", jinja::Value::none());
  ctx.dict->set("add_generation_prompt", jinja::Value::boolean(add_generation_prompt));
  for (const auto& [name, text] : special_tokens_) ctx.dict->set(name, jinja::Value::string(text));
  if (kwargs.kind == jinja::Kind::kDict) {
    for (const auto& [k, v] : kwargs.dict->items) ctx.dict->set(k, v);
  }
  auto out = template_.render(ctx, options);
  if (!out) {
    return core::make_error(out.error().code,
                            "chat template " + origin_ + ": " + out.error().message);
  }
  return out;
}

core::Result<std::string> ChatTemplate::render_messages(const std::vector<ChatMessage>& messages,
                                                        bool add_generation_prompt) const {
  jinja::List list;
  for (const auto& m : messages) {
    jinja::Value d = jinja::Value::make_dict();
    d.dict->set("role", jinja::Value::string(m.role));
    d.dict->set("content", jinja::Value::string(m.content));
    list.push_back(d);
  }
  return render(jinja::Value::make_list(std::move(list)), jinja::Value::none(),
                add_generation_prompt, jinja::Value::undefined());
}

core::Result<ChatTemplate> load_chat_template_dir(const std::string& dir) {
  fs::path base(dir);
  std::string config_text, source, origin;
  nlohmann::json config = nlohmann::json::object();
  if (read_file(base / "tokenizer_config.json", config_text)) {
    try {
      config = nlohmann::json::parse(config_text);
    } catch (const std::exception& e) {
      return core::make_error(core::ErrorCode::kParse, (base / "tokenizer_config.json").string() +
                                                           ": invalid JSON (" + e.what() + ")");
    }
  }
  if (read_file(base / "chat_template.jinja", source)) {
    origin = (base / "chat_template.jinja").string();
  } else {
    source = template_from_config(config);
    origin = (base / "tokenizer_config.json").string();
  }
  if (source.empty()) {
    return core::make_error(core::ErrorCode::kNotFound,
                            "--apply-chat-template: no chat template in " + dir +
                                " (neither chat_template.jinja nor a \"chat_template\" in "
                                "tokenizer_config.json); point --tokenizer at the model's "
                                "tokenizer folder or drop --apply-chat-template");
  }
  std::vector<std::pair<std::string, std::string>> tokens;
  for (const char* name : {"bos_token", "eos_token", "unk_token", "pad_token", "sep_token",
                           "cls_token", "mask_token"}) {
    if (config.contains(name)) {
      std::string text = token_text(config[name]);
      if (!text.empty()) tokens.emplace_back(name, text);
    }
  }
  return ChatTemplate::from_source(std::move(source), std::move(tokens), std::move(origin));
}

core::Result<ChatTemplate> find_chat_template(std::string_view tokenizer_spec,
                                              const std::string& revision) {
  std::string spec(tokenizer_spec);
  std::error_code ec;
  if (fs::is_directory(spec, ec)) return load_chat_template_dir(spec);
  if (fs::is_regular_file(spec, ec)) return load_chat_template_dir(fs::path(spec).parent_path().string());
  auto env = tokenizer::HubEnvironment::from_env();
  std::string dir = tokenizer::find_cached_tokenizer(env.cache_dir, spec, revision.empty() ? "main" : revision);
  if (dir.empty()) {
    return core::make_error(core::ErrorCode::kNotFound,
                            "--apply-chat-template: tokenizer '" + spec +
                                "' is neither a folder nor in the hub cache " + env.cache_dir +
                                "; pass --tokenizer <folder with tokenizer_config.json>");
  }
  return load_chat_template_dir(dir);
}

}  // namespace servebench::chat_template
