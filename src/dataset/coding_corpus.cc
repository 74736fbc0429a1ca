#include "dataset/coding_corpus.h"

#include <array>
#include <cstdint>

#include <fmt/format.h>

#include "core/rng.h"
#include "dataset/synthetic_prompts.h"

namespace servebench::dataset {
namespace {

constexpr size_t kTargetBytes = 300'000;

constexpr std::array kNouns = {"user", "order", "cache", "request", "token", "batch", "model", "config",
                               "session", "worker", "queue", "buffer", "record", "metric", "event", "client",
                               "server", "handler", "result", "payload", "item", "index", "key", "value",
                               "path", "file", "node", "shard", "schema", "account", "invoice", "message"};
constexpr std::array kVerbs = {"get", "set", "load", "parse", "build", "fetch", "update", "compute",
                               "validate", "render", "flush", "merge", "resolve", "encode", "decode", "send",
                               "read", "write", "handle", "process", "create", "delete", "reset", "sync"};
constexpr std::array kAdjectives = {"max", "min", "total", "pending", "active", "default", "raw", "next",
                                    "last", "cached", "local", "remote", "stale", "dirty", "new", "old"};
constexpr std::array kTypes = {"int", "str", "bool", "float", "bytes", "dict[str, Any]", "list[int]",
                               "Optional[str]", "Path", "datetime"};
constexpr std::array kCppTypes = {"int64_t", "std::string", "bool", "double", "size_t",
                                  "std::vector<int>", "std::string_view", "uint32_t"};
constexpr std::array kErrors = {"KeyError", "ValueError", "TypeError", "AttributeError", "IndexError",
                                "RuntimeError", "TimeoutError", "FileNotFoundError"};
constexpr std::array kLevels = {"INFO", "DEBUG", "WARN", "ERROR", "INFO", "INFO"};

// Fixed: the corpus must not depend on any run's seed.
constexpr uint64_t kCorpusSeed = 0x5eedc0de;

class Writer {
 public:
  explicit Writer(core::Rng* rng) : rng_(*rng) {}

  template <size_t N>
  const char* pick(const std::array<const char*, N>& words) {
    return words[rng_.next_below(N)];
  }
  int64_t num(int64_t lo, int64_t hi) { return lo + static_cast<int64_t>(rng_.next_below(static_cast<uint64_t>(hi - lo + 1))); }
  std::string ident() { return fmt::format("{}_{}", pick(kVerbs), pick(kNouns)); }
  std::string var() { return rng_.next_below(2) ? pick(kNouns) : fmt::format("{}_{}", pick(kAdjectives), pick(kNouns)); }
  std::string camel() {
    std::string n = pick(kNouns);
    std::string a = pick(kAdjectives);
    n[0] = static_cast<char>(n[0] - 'a' + 'A');
    a[0] = static_cast<char>(a[0] - 'a' + 'A');
    return a + n;
  }
  std::string hex(int digits) {
    std::string s;
    for (int i = 0; i < digits; ++i) s.push_back("0123456789abcdef"[rng_.next_below(16)]);
    return s;
  }
  std::string file() { return fmt::format("src/{}/{}.py", pick(kNouns), ident()); }

  std::string python_function() {
    const std::string name = ident(), arg = var(), other = var();
    std::string out = fmt::format("    def {}(self, {}: {}, {}: {} = {}) -> {}:\n", name, arg, pick(kTypes), other,
                                  pick(kTypes), num(0, 512), pick(kTypes));
    out += fmt::format("        \"\"\"{} the {} for this {}.\"\"\"\n", pick(kVerbs), pick(kNouns), pick(kNouns));
    out += fmt::format("        if not {}:\n            raise {}(f\"invalid {}: {{{}!r}}\")\n", arg, pick(kErrors), arg, arg);
    out += fmt::format("        for i, item in enumerate(self._{}s):\n", pick(kNouns));
    out += fmt::format("            if item.{} > {}:\n                self._{}[i] = item.{}({})\n", var(), num(1, 100),
                       var(), ident(), other);
    out += fmt::format("        return self._{}.get({}, {})\n\n", var(), arg, num(-1, 1) == 0 ? "None" : "0");
    return out;
  }
  std::string python_class() {
    std::string out = fmt::format("class {}({}):\n", camel(), rng_.next_below(2) ? "BaseModel" : "object");
    out += fmt::format("    def __init__(self, {}: {}) -> None:\n        self._{} = {}\n        self._{}s = []\n\n", var(),
                       pick(kTypes), var(), num(0, 64), pick(kNouns));
    for (int64_t k = num(1, 3); k > 0; --k) out += python_function();
    return out;
  }
  std::string cpp_function() {
    const std::string name = ident();
    std::string out = fmt::format("{} {}(const {}& {}, {} {}) {{\n", pick(kCppTypes), name, pick(kCppTypes), var(),
                                  pick(kCppTypes), var());
    out += fmt::format("  if ({}.empty()) return {};\n", var(), num(0, 9));
    out += fmt::format("  for (size_t i = 0; i < {}.size(); ++i) {{\n    {} += {}[i] * {};\n  }}\n", var(), var(), var(),
                       num(2, 31));
    out += fmt::format("  return {}_{};\n}}\n\n", var(), num(0, 9));
    return out;
  }
  std::string shell_session() {
    std::string out = fmt::format("$ ls -la src/{}\n", pick(kNouns));
    for (int64_t k = num(2, 6); k > 0; --k)
      out += fmt::format("-rw-r--r-- 1 dev dev {:>6} Mar {:>2} {:02}:{:02} {}.py\n", num(120, 90000), num(1, 28),
                         num(0, 23), num(0, 59), ident());
    out += fmt::format("$ pytest tests/test_{}.py -q\n", pick(kNouns));
    const int64_t passed = num(3, 40), failed = num(0, 2);
    out += std::string(static_cast<size_t>(passed), '.') + std::string(static_cast<size_t>(failed), 'F') + "\n";
    for (int64_t k = 0; k < failed; ++k)
      out += fmt::format("FAILED tests/test_{}.py::test_{} - AssertionError: assert {} == {}\n", pick(kNouns), ident(),
                         num(0, 99), num(100, 199));
    out += fmt::format("{} passed, {} failed in {}.{:02}s\n", passed, failed, num(0, 9), num(0, 99));
    out += fmt::format("$ git status --short\n M {}\n?? {}\n\n", file(), file());
    return out;
  }
  std::string json_response() {
    std::string out = fmt::format("{{\"id\": \"{}\", \"object\": \"{}\", \"created\": {}, \"{}\": {{", hex(12),
                                  pick(kNouns), num(1700000000, 1800000000), pick(kNouns));
    for (int64_t k = num(2, 5); k > 0; --k)
      out += fmt::format("\"{}\": {}{}", var(), num(0, 10000), k > 1 ? ", " : "");
    out += fmt::format("}}, \"status\": \"{}\", \"items\": [", rng_.next_below(4) ? "ok" : "error");
    for (int64_t k = num(1, 4); k > 0; --k)
      out += fmt::format("{{\"{}\": \"{}\", \"{}\": {}}}{}", pick(kNouns), hex(8), pick(kAdjectives),
                         rng_.next_below(2) ? "true" : "false", k > 1 ? ", " : "");
    return out + "]}\n\n";
  }
  std::string traceback() {
    std::string out = "Traceback (most recent call last):\n";
    for (int64_t k = num(2, 4); k > 0; --k)
      out += fmt::format("  File \"/app/{}\", line {}, in {}\n    {} = self.{}({})\n", file(), num(10, 900), ident(),
                         var(), ident(), var());
    return out + fmt::format("{}: '{}_{}'\n\n", pick(kErrors), pick(kNouns), pick(kNouns));
  }
  std::string git_diff() {
    const std::string f = file();
    const int64_t line = num(5, 400);
    std::string out = fmt::format("diff --git a/{0} b/{0}\nindex {1}..{2} 100644\n--- a/{0}\n+++ b/{0}\n", f, hex(7), hex(7));
    out += fmt::format("@@ -{},7 +{},8 @@ def {}(self):\n", line, line, ident());
    out += fmt::format("     {} = self._{}\n-    return {}({})\n+    if {} is None:\n+        return {}\n+    return {}({}, {})\n\n",
                       var(), var(), ident(), var(), var(), num(0, 9), ident(), var(), var());
    return out;
  }
  std::string log_lines() {
    std::string out;
    for (int64_t k = num(3, 8); k > 0; --k)
      out += fmt::format("2025-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z {:<5} [{}-{}] {} {} {} in {} ms\n", num(1, 12),
                         num(1, 28), num(0, 23), num(0, 59), num(0, 59), num(0, 999), pick(kLevels), pick(kNouns),
                         num(0, 15), pick(kVerbs), num(1, 4096), pick(kNouns), num(0, 2000));
    return out + "\n";
  }

  std::string section() {
    switch (rng_.next_below(8)) {
      case 0: return python_class();
      case 1: return python_function();
      case 2: return cpp_function();
      case 3: return shell_session();
      case 4: return json_response();
      case 5: return traceback();
      case 6: return git_diff();
      default: return log_lines();
    }
  }

 private:
  core::Rng& rng_;
};

std::string generate() {
  core::Rng rng = core::Rng::stream(kCorpusSeed, "coding_corpus");
  Writer w(&rng);
  std::string out;
  out.reserve(kTargetBytes + 4096);
  while (out.size() < kTargetBytes) out += w.section();
  return out;
}

}  // namespace

std::string_view coding_corpus() {
  static const std::string text = generate();
  return text;
}

Result<std::string> corpus_for(std::string_view name) {
  if (name == "coding") return std::string(coding_corpus());
  if (name == "random") return std::string();
  return load_corpus(default_corpus_path());
}

}  // namespace servebench::dataset
