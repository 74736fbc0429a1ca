// `servebench config init|validate|expand`: bundled YAML templates, checking a config file
// through the profile flag parser, and listing the runs (sweep cells) a file stands for.
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "config/cli_options.h"
#include "yaml_config/cells.h"
#include "yaml_config/templates.h"
#include "yaml_config/yaml_config.h"

namespace servebench::cli {
namespace {

namespace yc = yaml_config;

int fail(const std::string& msg) {
  std::fprintf(stderr, "servebench config: %s\n", msg.c_str());
  return 2;
}

void replace_all(std::string* s, const std::string& from, const std::string& to) {
  for (size_t p = s->find(from); p != std::string::npos; p = s->find(from, p + to.size()))
    s->replace(p, from.size(), to);
}

int run_init(const std::vector<std::string>& args) {
  std::string name = "minimal", output, model, url;
  bool list = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto next = [&](std::string* dst) {
      if (i + 1 >= args.size()) return false;
      *dst = args[++i];
      return true;
    };
    bool ok = true;
    if (a == "-l" || a == "--list") list = true;
    else if (a == "-t" || a == "--template") ok = next(&name);
    else if (a == "-o" || a == "--output") ok = next(&output);
    else if (a == "-m" || a == "--model") ok = next(&model);
    else if (a == "-u" || a == "--url") ok = next(&url);
    else return fail("init: unknown option '" + a + "' (options: -t TEMPLATE, -l, -o FILE, -m MODEL, -u URL)");
    if (!ok) return fail("init: " + a + " needs a value");
  }
  if (list) {
    for (const auto& t : yc::templates()) {
      std::string text = t.text, title;
      const size_t p = text.find("template: ");
      if (p != std::string::npos) title = text.substr(p + 10, text.find('\n', p) - p - 10);
      std::printf("%-16s %s\n", t.name, title.c_str());
    }
    return 0;
  }
  for (const auto& t : yc::templates()) {
    if (name != t.name) continue;
    std::string text = t.text;
    if (!model.empty()) replace_all(&text, "${MODEL_NAME:my-model}", model);
    if (!url.empty()) replace_all(&text, "${INFERENCE_URL:http://localhost:8000}", url);
    if (output.empty()) {
      std::fputs(text.c_str(), stdout);
      return 0;
    }
    std::ofstream out(output, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out) return fail("init: cannot write '" + output + "'; check the folder exists and is writable");
    std::fprintf(stderr, "servebench config: wrote %s (template %s)\n", output.c_str(), t.name);
    return 0;
  }
  return fail("init: no template '" + name + "' (servebench config init --list shows them)");
}

// Every cell through the profile parser: the same checks a run does before it sends anything.
Result<std::vector<yc::Cell>> checked_cells(const std::string& file) {
  auto loaded = yc::load_file(file);
  if (!loaded) return tl::unexpected<Error>(loaded.error());
  auto cells = yc::expand_cells(loaded->args);
  if (!cells) return make_error(ErrorCode::kInvalidArgument, file + ": " + cells.error().message);
  for (const auto& c : *cells) {
    std::vector<const char*> argv = {"profile"};
    for (const auto& a : c.argv) argv.push_back(a.c_str());
    auto parsed = config::parse_profile_args(static_cast<int>(argv.size()), argv.data());
    if (!parsed)
      return make_error(ErrorCode::kInvalidArgument,
                        file + (c.label.empty() ? "" : " (cell " + c.label + ")") + ": " + parsed.error().message);
  }
  return cells;
}

int run_validate(const std::vector<std::string>& args) {
  if (args.size() != 1) return fail("validate: give one config file: servebench config validate FILE.yaml");
  auto cells = checked_cells(args[0]);
  if (!cells) return fail(cells.error().message);
  std::printf("%s: valid (%zu run%s)\n", args[0].c_str(), cells->size(), cells->size() == 1 ? "" : "s");
  return 0;
}

std::string quoted(const std::string& s) {
  if (!s.empty() && s.find_first_of(" '\"{}[];|&$") == std::string::npos) return s;
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

int run_expand(const std::vector<std::string>& args) {
  std::string file, format = "text";
  for (size_t i = 0; i < args.size(); ++i) {
    if ((args[i] == "-F" || args[i] == "--format") && i + 1 < args.size()) format = args[++i];
    else if (file.empty() && args[i][0] != '-') file = args[i];
    else return fail("expand: usage: servebench config expand FILE.yaml [--format text|json|yaml]");
  }
  if (file.empty() || (format != "text" && format != "json" && format != "yaml"))
    return fail("expand: usage: servebench config expand FILE.yaml [--format text|json|yaml]");
  auto cells = checked_cells(file);
  if (!cells) return fail(cells.error().message);
  nlohmann::json j = nlohmann::json::array();
  for (size_t i = 0; i < cells->size(); ++i) {
    const auto& c = (*cells)[i];
    if (format == "text") {
      std::string line;
      for (const auto& a : c.argv) line += " " + quoted(a);
      std::printf("[%zu] %s\n   servebench profile%s\n", i, c.label.empty() ? "(single run)" : c.label.c_str(),
                  line.c_str());
    } else if (format == "json") {
      j.push_back({{"index", i}, {"label", c.label}, {"flags", c.argv}});
    } else {
      std::printf("- index: %zu\n  label: \"%s\"\n  flags:\n", i, c.label.c_str());
      for (const auto& a : c.argv) std::printf("    - %s\n", nlohmann::json(a).dump().c_str());
    }
  }
  if (format == "json") std::printf("%s\n", j.dump(2).c_str());
  return 0;
}

}  // namespace

int run_config(int argc, char** argv) {
  if (argc < 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h") {
    std::fprintf(argc < 2 ? stderr : stdout,
                 "usage: servebench config init [-t TEMPLATE] [-l] [-o FILE] [-m MODEL] [-u URL]\n"
                 "       servebench config validate FILE.yaml\n"
                 "       servebench config expand FILE.yaml [--format text|json|yaml]\n");
    return argc < 2 ? 2 : 0;
  }
  const std::string sub = argv[1];
  const std::vector<std::string> args(argv + 2, argv + argc);
  if (sub == "init") return run_init(args);
  if (sub == "validate") return run_validate(args);
  if (sub == "expand") return run_expand(args);
  return fail("unknown subcommand '" + sub + "' (init, validate or expand)");
}

}  // namespace servebench::cli
