// The JMESPath subset (endpoints/jmespath.h) against the examples of the JMESPath specification
// and tutorial for fields, sub-expressions, indexes and list projections, and (when the Python
// `jmespath` package is installed, see scripts/setup.sh) against that reference implementation
// on generated expressions and documents.
#include "endpoints/jmespath.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>

namespace servebench::endpoints {
namespace {

std::string search(std::string_view expr, std::string_view doc) {
  auto p = JmesPath::compile(expr, "test");
  EXPECT_TRUE(p.has_value()) << expr << ": " << (p ? "" : p.error().message);
  if (!p) return "<compile error>";
  auto r = p->search_json(doc);
  EXPECT_TRUE(r.has_value());
  return r ? *r : "<search error>";
}

TEST(JmesPath, SpecIdentifiers) {
  EXPECT_EQ(search("foo", R"({"foo": "value"})"), "\"value\"");
  EXPECT_EQ(search("bar", R"({"foo": "value"})"), "null");
  EXPECT_EQ(search("foo", R"({"foo": [0, 1, 2]})"), "[0,1,2]");
  EXPECT_EQ(search("\"with space\"", R"({"with space": "value"})"), "\"value\"");
  EXPECT_EQ(search("\"special chars: !@#\"", R"({"special chars: !@#": "value"})"), "\"value\"");
  EXPECT_EQ(search("\"quote\\\"char\"", R"({"quote\"char": "value"})"), "\"value\"");
  EXPECT_EQ(search("\"\\u2713\"", "{\"\xe2\x9c\x93\": \"value\"}"), "\"value\"");
}

TEST(JmesPath, SpecSubExpressions) {
  EXPECT_EQ(search("foo.bar", R"({"foo": {"bar": "value"}})"), "\"value\"");
  EXPECT_EQ(search("foo.\"bar\"", R"({"foo": {"bar": "value"}})"), "\"value\"");
  EXPECT_EQ(search("foo.bar", R"({"foo": {"baz": "value"}})"), "null");
  EXPECT_EQ(search("foo.bar.baz", R"({"foo": {"bar": {"baz": "value"}}})"), "\"value\"");
  EXPECT_EQ(search("a.b.c.d", R"({"a": {"b": {"c": {"d": "value"}}}})"), "\"value\"");
  // A field of a non-object is null.
  EXPECT_EQ(search("foo.bar", R"({"foo": "string"})"), "null");
  EXPECT_EQ(search("foo.bar", R"({"foo": [1, 2]})"), "null");
}

TEST(JmesPath, SpecIndexExpressions) {
  const char* list = R"(["a", "b", "c", "d", "e", "f"])";
  EXPECT_EQ(search("[0]", list), "\"a\"");
  EXPECT_EQ(search("[1]", list), "\"b\"");
  EXPECT_EQ(search("[-1]", list), "\"f\"");
  EXPECT_EQ(search("[-6]", list), "\"a\"");
  EXPECT_EQ(search("[6]", list), "null");
  EXPECT_EQ(search("[-7]", list), "null");
  EXPECT_EQ(search("[0]", R"({"foo": 1})"), "null");
  EXPECT_EQ(
      search("a.b.c[0].d[1][0]", R"({"a": {"b": {"c": [{"d": [0, [1, 2]]}, {"d": [3, 4]}]}}})"),
      "1");
  EXPECT_EQ(search("foo[0].bar", R"({"foo": [{"bar": "one"}, {"bar": "two"}]})"), "\"one\"");
}

TEST(JmesPath, SpecListProjections) {
  const char* people =
      R"({"people": [{"first": "James", "last": "d"}, {"first": "Jacob", "last": "e"},
                     {"first": "Jayden", "last": "f"}, {"missing": "different"}],
          "foo": {"bar": "baz"}})";
  EXPECT_EQ(search("people[*].first", people), "[\"James\",\"Jacob\",\"Jayden\"]");
  EXPECT_EQ(search("people[*]", R"({"people": [1, null, 2]})"), "[1,2]");
  EXPECT_EQ(search("[*].foo", R"([{"foo": 1}, {"foo": 2}, {"bar": 3}])"), "[1,2]");
  EXPECT_EQ(search("foo[*].bar", R"({"foo": {"bar": 1}})"), "null");  // not a list
  EXPECT_EQ(search("people[*].first[0]", people), "[]");              // strings are not lists
  const char* reservations =
      R"({"reservations": [{"instances": [{"state": "running"}, {"state": "stopped"}]},
                           {"instances": [{"state": "terminated"}, {"state": "running"}]}]})";
  EXPECT_EQ(search("reservations[*].instances[*].state", reservations),
            R"([["running","stopped"],["terminated","running"]])");
  EXPECT_EQ(search("reservations[*].instances[0].state", reservations),
            R"(["running","terminated"])");
  EXPECT_EQ(search("reservations[0].instances[*].state", reservations), R"(["running","stopped"])");
}

TEST(JmesPath, ResponseShapesUsersWrite) {
  const char* emb = R"({"data": [{"embedding": [0.5, -1]}, {"embedding": [2, 3]}]})";
  EXPECT_EQ(search("data[0].embedding", emb), "[0.5,-1]");
  EXPECT_EQ(search("data[*].embedding", emb), "[[0.5,-1],[2,3]]");
  EXPECT_EQ(
      search("choices[0].message.content", R"({"choices": [{"message": {"content": "hi"}}]})"),
      "\"hi\"");
  EXPECT_EQ(search(" outputs [ 0 ] . text ", R"({"outputs": [{"text": "ok"}]})"), "\"ok\"");
}

TEST(JmesPath, OutsideTheSubsetIsAOneLineUsageError) {
  for (const char* bad :
       {"", "foo.", "foo..bar", "foo[", "foo[]", "foo[0:2]", "foo[?a==`1`]", "foo.*", "foo | bar",
        "length(foo)", "foo.[0]", "{a: b}", "\"open", "foo[x]", "1foo", "foo[0", "foo bar"}) {
    auto p = JmesPath::compile(bad, "--extra-inputs response_field");
    ASSERT_FALSE(p.has_value()) << bad;
    EXPECT_EQ(p.error().code, ErrorCode::kInvalidArgument);
    EXPECT_EQ(p.error().message.find('\n'), std::string::npos);
    EXPECT_NE(p.error().message.find("--extra-inputs response_field"), std::string::npos);
    EXPECT_NE(p.error().message.find("[*]"), std::string::npos) << p.error().message;
  }
}

// --- differential test against Python's jmespath -------------------------------------------

std::string python_with_jmespath() {
  std::vector<std::string> candidates;
  if (const char* env = std::getenv("SERVEBENCH_PYTHON")) candidates.emplace_back(env);
  if (const char* home = std::getenv("HOME"))
    candidates.push_back(std::string(home) + "/.cache/servebench/pyvenv/bin/python3");
  candidates.emplace_back("python3");
  for (const auto& py : candidates) {
    if (py.find('/') != std::string::npos && !std::filesystem::exists(py)) continue;
    const std::string cmd = py + " -c 'import jmespath' >/dev/null 2>&1";
    if (std::system(cmd.c_str()) == 0) return py;
  }
  return "";
}

nlohmann::json random_doc(std::mt19937& rng, int depth) {
  // Containers near the top, scalars deeper down: most generated paths then reach something.
  const int kind =
      depth < 2 ? static_cast<int>(4 + rng() % 2) : static_cast<int>(rng() % (depth > 2 ? 4u : 6u));
  switch (kind) {
    case 0:
      return static_cast<int>(rng() % 100);
    case 1:
      return std::string(1, static_cast<char>('p' + rng() % 3));
    case 2:
      return nullptr;
    case 3:
      return (rng() % 2) == 0;
    case 4: {
      nlohmann::json a = nlohmann::json::array();
      const int n = static_cast<int>(1 + rng() % 3);
      for (int i = 0; i < n; ++i) a.push_back(random_doc(rng, depth + 1));
      return a;
    }
    default: {
      nlohmann::json o = nlohmann::json::object();
      for (const char* k : {"a", "b", "c"})
        if (rng() % 3 != 0) o[k] = random_doc(rng, depth + 1);
      return o;
    }
  }
}

std::string random_expr(std::mt19937& rng) {
  static const char* kSteps[] = {".a", ".b", ".c", "[0]", "[1]", "[-1]", "[-2]", "[*]", ".\"a\""};
  std::string e =
      (rng() % 3 == 0) ? std::string("[*]") : std::string(1, static_cast<char>('a' + rng() % 3));
  const int n = static_cast<int>(rng() % 5);
  for (int i = 0; i < n; ++i) e += kSteps[rng() % std::size(kSteps)];
  return e;
}

TEST(JmesPath, AgreesWithPythonJmespath) {
  const std::string py = python_with_jmespath();
  if (py.empty()) GTEST_SKIP() << "Python jmespath not installed (scripts/setup.sh installs it)";
  std::mt19937 rng(20260412);
  std::vector<std::pair<std::string, std::string>> cases;
  for (int i = 0; i < 400; ++i) {
    nlohmann::json doc = nlohmann::json::object();
    for (const char* k : {"a", "b", "c"}) doc[k] = random_doc(rng, 0);
    cases.emplace_back(random_expr(rng), doc.dump());
  }
  const auto dir =
      std::filesystem::temp_directory_path() / ("sb_jmespath_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  {
    std::ofstream in(dir / "cases.jsonl");
    for (const auto& [e, d] : cases) in << nlohmann::json{{"e", e}, {"d", d}}.dump() << "\n";
  }
  const std::string script =
      "import json,sys,jmespath\n"
      "for line in open(sys.argv[1]):\n"
      "    c=json.loads(line)\n"
      "    print(json.dumps(jmespath.search(c['e'], json.loads(c['d']))))\n";
  {
    std::ofstream s(dir / "run.py");
    s << script;
  }
  const std::string cmd = py + " " + (dir / "run.py").string() + " " +
                          (dir / "cases.jsonl").string() + " > " + (dir / "out.txt").string();
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  std::ifstream out(dir / "out.txt");
  std::string line;
  size_t i = 0, non_null = 0;
  while (std::getline(out, line)) {
    ASSERT_LT(i, cases.size());
    const auto want = nlohmann::json::parse(line);
    const auto got = nlohmann::json::parse(search(cases[i].first, cases[i].second));
    EXPECT_EQ(got, want) << cases[i].first << " on " << cases[i].second;
    non_null += !want.is_null();
    ++i;
  }
  EXPECT_EQ(i, cases.size());
  EXPECT_GT(non_null, cases.size() / 4);  // the generated cases exercise real matches
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace servebench::endpoints
