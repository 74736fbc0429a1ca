// Differential test of the chat/completions parser's fast path (openai_fast_event.h): the parser
// with its fast path and the parser on the general path only are fed the same streams -- events
// as vLLM, SGLang, llama.cpp, TGI, OpenAI and others write them, the recorded test streams and
// the chunk fuzz corpus, and thousands of mutations of them (byte flips, insertions, deletions,
// truncations, spaces, reordered, duplicated, deleted and retyped members; a fixed seed) -- and
// must give the same statuses and the same records after every event. The fast path must also
// take the events it is meant to take, so that the comparison is not vacuous.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "endpoints/endpoint.h"
#include "endpoints/openai_fast_event.h"
#include "fuzz/sse/replay.h"

namespace servebench::endpoints {
namespace {

using record::RequestRecord;
using Json = nlohmann::ordered_json;

struct CorpusEvent {
  std::string json;
  bool fast;  // the fast path must take it as it is
};

// Events as servers write them. `fast`: the shape is one the fast path handles.
const std::vector<CorpusEvent>& server_events() {
  static const std::vector<CorpusEvent> events = {
      // vLLM chat: role, content (escapes), finish, usage, per-chunk usage, logprobs, errors.
      {R"({"id":"chatcmpl-a1","object":"chat.completion.chunk","created":1732000000,"model":"meta-llama/Llama-3.1-8B-Instruct","choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}],"usage":null})", true},
      {R"({"id":"chatcmpl-a1","object":"chat.completion.chunk","created":1732000000,"model":"meta-llama/Llama-3.1-8B-Instruct","choices":[{"index":0,"delta":{"content":" the"},"logprobs":null,"finish_reason":null}],"usage":null})", true},
      {R"({"id":"chatcmpl-a1","object":"chat.completion.chunk","created":1732000000,"model":"m","choices":[{"index":0,"delta":{"content":" me \"Ishmael\"\n\\t\/"},"logprobs":null,"finish_reason":null}]})", true},
      {R"({"id":"chatcmpl-a1","object":"chat.completion.chunk","created":1732000000,"model":"m","choices":[{"index":0,"delta":{"content":""},"logprobs":null,"finish_reason":"length","stop_reason":null}]})", true},
      {R"({"id":"chatcmpl-a1","object":"chat.completion.chunk","created":1732000000,"model":"m","choices":[],"usage":{"prompt_tokens":12,"total_tokens":16,"completion_tokens":4,"prompt_tokens_details":{"cached_tokens":8}}})", true},
      {R"({"id":"chatcmpl-a1","object":"chat.completion.chunk","created":1732000000,"model":"m","choices":[{"index":0,"delta":{"content":" word"},"logprobs":null,"finish_reason":null}],"usage":{"prompt_tokens":512,"total_tokens":513,"completion_tokens":1,"prompt_tokens_details":null}})", true},
      {R"({"id":"chatcmpl-a1","object":"chat.completion.chunk","created":1732000000,"model":"m","choices":[{"index":0,"delta":{"content":" the"},"logprobs":{"content":[{"token":" the","logprob":-0.0123,"bytes":[32,116,104,101],"top_logprobs":[{"token":" the","logprob":-0.0123,"bytes":[32,116,104,101]},{"token":" a","logprob":-4.5e-3,"bytes":[32,97]}]}]},"finish_reason":null}]})", true},
      {R"({"id":"chatcmpl-r","object":"chat.completion.chunk","model":"qwen3","choices":[{"index":0,"delta":{"reasoning_content":"Let me think"},"finish_reason":null}]})", true},
      {R"({"id":"chatcmpl-r","object":"chat.completion.chunk","model":"qwen3","choices":[{"index":0,"delta":{"reasoning":" hard.","reasoning_content":" hard."},"finish_reason":null}]})", true},
      {R"({"id":"chatcmpl-r","object":"chat.completion.chunk","model":"qwen3","choices":[],"usage":{"prompt_tokens":3,"completion_tokens":9,"total_tokens":12,"completion_tokens_details":{"reasoning_tokens":6}}})", true},
      {R"({"id":"chatcmpl-t","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"id":"chatcmpl-tool-1","type":"function","index":0,"function":{"name":"get_weather"}}]},"logprobs":null,"finish_reason":null}]})", false},
      {R"({"id":"chatcmpl-t","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"city\": \""}}]},"logprobs":null,"finish_reason":null}]})", false},
      {R"({"object":"error","message":"The model `x` does not exist.","type":"NotFoundError","param":null,"code":404})", false},
      {R"({"error":{"message":"The model ran out of KV cache","type":"InternalServerError","param":null,"code":500}})", false},
      {R"({"id":"cmpl-1","object":"text_completion","created":1,"model":"m","choices":[{"index":0,"text":"Once","logprobs":null,"finish_reason":null,"stop_reason":null,"prompt_logprobs":null}],"usage":null})", true},
      {R"({"id":"cmpl-1","object":"text_completion","created":1,"model":"m","choices":[{"index":0,"text":" upon","logprobs":{"tokens":[" upon"],"token_logprobs":[-0.25],"top_logprobs":[{" upon":-0.25}],"text_offset":[4]},"finish_reason":"length"}],"usage":null})", true},
      {R"({"id":"cmpl-1","object":"text_completion","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":4,"total_tokens":6,"completion_tokens":2}})", true},
      // SGLang.
      {R"({"id":"5a3c9f","object":"chat.completion.chunk","created":1732000000,"model":"default","choices":[{"index":0,"delta":{"role":"assistant","content":" the","reasoning_content":null,"tool_calls":null},"logprobs":null,"finish_reason":null,"matched_stop":null}],"usage":null})", true},
      {R"({"id":"5a3c9f","object":"chat.completion.chunk","created":1732000000,"model":"default","choices":[{"index":0,"delta":{"role":null,"content":null,"reasoning_content":null,"tool_calls":null},"logprobs":null,"finish_reason":"stop","matched_stop":128009}],"usage":null})", true},
      {R"({"id":"5a3c9f","object":"chat.completion.chunk","created":1732000000,"model":"default","choices":[],"usage":{"prompt_tokens":10,"total_tokens":20,"completion_tokens":10,"prompt_tokens_details":null,"reasoning_tokens":0}})", true},
      {R"({"id":"5a3c9f","object":"text_completion","created":1732000000,"model":"default","choices":[{"index":0,"text":" the","logprobs":null,"finish_reason":null,"matched_stop":null}],"usage":null})", true},
      // llama.cpp.
      {R"({"choices":[{"finish_reason":null,"index":0,"delta":{"role":"assistant","content":null}}],"created":1732000001,"id":"chatcmpl-L","model":"tiny","system_fingerprint":"b1-abc","object":"chat.completion.chunk"})", true},
      {R"({"choices":[{"finish_reason":null,"index":0,"delta":{"content":" the"}}],"created":1732000001,"id":"chatcmpl-L","model":"tiny","system_fingerprint":"b1-abc","object":"chat.completion.chunk"})", true},
      {R"({"choices":[{"finish_reason":"length","index":0,"delta":{}}],"created":1732000001,"id":"chatcmpl-L","model":"tiny","system_fingerprint":"b1-abc","object":"chat.completion.chunk","timings":{"prompt_n":5,"prompt_ms":1.2,"predicted_n":2,"predicted_ms":3.4}})", true},
      {R"({"choices":[],"created":1796106729,"id":"chatcmpl-G","model":"/root/.cache/tiny.gguf","system_fingerprint":"b1-80fb11a","object":"chat.completion.chunk","usage":{"completion_tokens":3,"prompt_tokens":41,"total_tokens":44,"prompt_tokens_details":{"cached_tokens":40}},"timings":{"cache_n":40,"prompt_n":1,"prompt_ms":1.211,"prompt_per_token_ms":1.211,"prompt_per_second":825.7638315441783,"predicted_n":3,"predicted_ms":6.88,"predicted_per_token_ms":3.44,"predicted_per_second":290.69767441860466}})", true},
      {R"({"choices":[{"finish_reason":null,"index":0,"delta":{"reasoning_content":"hmm"}}],"created":1,"id":"chatcmpl-L","model":"qwen","object":"chat.completion.chunk"})", true},
      {R"({"error":{"code":400,"message":"the request exceeds the available context size","type":"exceed_context_size_error","n_prompt_tokens":5000,"n_ctx":4096}})", false},
      // TGI: its OpenAI-compatible chunks, its native token events (no choices), an error.
      {R"({"object":"chat.completion.chunk","id":"","created":1732000000,"model":"meta-llama/Meta-Llama-3-8B-Instruct","system_fingerprint":"2.4.1-sha-abc","choices":[{"index":0,"delta":{"role":"assistant","content":" the"},"logprobs":null,"finish_reason":null}],"usage":null})", true},
      {R"({"object":"chat.completion.chunk","id":"","created":1732000000,"model":"m","system_fingerprint":"2.4.1","choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":"eos_token"}],"usage":{"prompt_tokens":7,"completion_tokens":5,"total_tokens":12}})", true},
      {R"({"index":1,"token":{"id":89554,"text":" Deep","logprob":-0.9897461,"special":false},"generated_text":null,"details":null})", true},
      {R"({"index":4,"token":{"id":264,"text":" a","logprob":-0.3364258,"special":false},"generated_text":" Deep Learning is a","details":{"finish_reason":"length","generated_tokens":4,"seed":null,"input_length":6}})", true},
      {R"({"error":"Input validation error: `inputs` must have less than 4096 tokens","error_type":"validation"})", false},
      // OpenAI.
      {R"({"id":"chatcmpl-AbC","object":"chat.completion.chunk","created":1732000000,"model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":"fp_0ba0d124f1","choices":[{"index":0,"delta":{"role":"assistant","content":"","refusal":null},"logprobs":null,"finish_reason":null}],"usage":null,"obfuscation":"k3Jd"})", true},
      {R"({"id":"chatcmpl-AbC","object":"chat.completion.chunk","created":1732000000,"model":"gpt-4o-mini","choices":[],"usage":{"prompt_tokens":9,"completion_tokens":12,"total_tokens":21,"prompt_tokens_details":{"cached_tokens":0,"audio_tokens":0},"completion_tokens_details":{"reasoning_tokens":0,"audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0}}})", true},
      {R"({"id":"chatcmpl-x","object":"chat.completion","created":1,"model":"gpt-4o","choices":[{"index":0,"message":{"role":"assistant","content":"Hello!","refusal":null,"annotations":[]},"logprobs":null,"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":2,"total_tokens":7},"service_tier":"default","system_fingerprint":"fp"})", true},
      {R"({"id":"chatcmpl-f","object":"chat.completion.chunk","created":1,"model":"gpt-4","choices":[{"index":0,"delta":{"function_call":{"name":"f","arguments":""}},"finish_reason":null}]})", false},
      {R"({"error":{"message":"Rate limit reached","type":"requests","param":null,"code":"rate_limit_exceeded"}})", false},
      // Ollama, LMDeploy, DeepSeek, Anthropic-style and Gemini usage, Mistral, Python spacing.
      {R"({"id":"chatcmpl-123","object":"chat.completion.chunk","created":1,"model":"llama3","system_fingerprint":"fp_ollama","choices":[{"index":0,"delta":{"role":"assistant","content":"Hi"},"finish_reason":null}]})", true},
      {R"({"id":"1","object":"chat.completion.chunk","created":1,"model":"internlm2","choices":[{"index":0,"delta":{"role":"assistant","content":"ok","tool_calls":null},"logprobs":null,"finish_reason":null}],"usage":null})", true},
      {R"({"id":"d","object":"chat.completion.chunk","created":1,"model":"deepseek-chat","system_fingerprint":"fp_3a5770e1b4","choices":[],"usage":{"prompt_tokens":5,"completion_tokens":3,"total_tokens":8,"prompt_tokens_details":{"cached_tokens":0},"prompt_cache_hit_tokens":0,"prompt_cache_miss_tokens":5}})", false},
      {R"({"object":"chat.completion","choices":[{"message":{"content":"x"}}],"usage":{"input_tokens":5,"output_tokens":3,"cache_read_input_tokens":2}})", false},
      {R"({"object":"chat.completion","choices":[{"message":{"content":"x"}}],"usageMetadata":{"promptTokenCount":3,"candidatesTokenCount":5,"totalTokenCount":8}})", false},
      {R"({"id":"m","object":"chat.completion.chunk","created":1,"model":"voxtral","choices":[],"usage":{"prompt_tokens":50,"completion_tokens":3,"total_tokens":53,"prompt_audio_seconds":4.5}})", false},
      {R"({"id": "x", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {"content": " a"}, "finish_reason": null}], "usage": {"prompt_tokens": 3, "completion_tokens": 1}})", true},
      {"{\n  \"choices\": [\n    {\n      \"delta\": {\n        \"content\": \"b\"\n      }\n    }\n  ]\n}", true},
      // Text the fast path leaves to simdjson: UTF-8, \u escapes (pairs, lone surrogates).
      {"{\"choices\":[{\"index\":0,\"delta\":{\"content\":\" th\xE1\xBB\x9Di\"},\"finish_reason\":null}]}", false},
      {R"({"choices":[{"index":0,"delta":{"content":"\u00e9t\u00e9 \ud83d\ude00"},"finish_reason":null}]})", false},
      {R"({"choices":[{"index":0,"delta":{"content":"\ud800"},"finish_reason":null}]})", false},
      {R"({"id":"\ud800","choices":[{"index":0,"delta":{"content":"x"}}]})", false},
      // Edge shapes.
      {"{}", true},
      {R"({"choices":null,"usage":null,"error":null})", true},
      {R"({"choices":[{"delta":{"content":"a"}},{"delta":{"content":"b"}}]})", true},
      {R"({"choices":[{"text":"t","delta":{"content":"d"}}]})", true},
      {R"({"choices":[{"delta":{"content":"x"}}],"usage":{}})", true},
      {R"({"choices":[],"usage":{"prompt_tokens":0,"completion_tokens":0,"total_tokens":0}})", true},
  };
  return events;
}

std::string source_dir() {
  const char* src = std::getenv("SERVEBENCH_SOURCE_DIR");
  return src ? std::string(src) : std::string(SERVEBENCH_TEST_SOURCE_DIR);
}

// The data lines of the recorded test streams and the chunk fuzz corpus (fast path unknown).
std::vector<std::string> recorded_events() {
  std::vector<std::string> out;
  const std::filesystem::path data = source_dir() + "/tests/unit/endpoints/data";
  for (const auto& entry : std::filesystem::directory_iterator(data)) {
    if (entry.path().extension() != ".sse") continue;
    std::istringstream lines(servebench::testing::read_file_bytes(entry.path()));
    for (std::string line; std::getline(lines, line);) {
      if (line.rfind("data:", 0) != 0) continue;
      out.push_back(line.substr(line.size() > 5 && line[5] == ' ' ? 6 : 5));
    }
  }
  const std::string corpus = source_dir() + "/tests/fuzz/chunk/corpus";
  for (const auto& file : servebench::testing::corpus_files(corpus)) {
    out.push_back(servebench::testing::read_file_bytes(file));
  }
  std::sort(out.begin(), out.end());  // directory order is not fixed; the seed's cases should be
  return out;
}

// xorshift64*: the same cases on every platform (std:: distributions are not specified).
struct Rng {
  uint64_t state;
  uint64_t next() {
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 0x2545F4914F6CDD1Dull;
  }
  size_t below(size_t n) { return n == 0 ? 0 : static_cast<size_t>(next() % n); }
  bool chance(int percent) { return below(100) < static_cast<size_t>(percent); }
  template <class T>
  const T& pick(const std::vector<T>& v) { return v[below(v.size())]; }
};

// ---- byte-level mutations ----

const std::string kBytes = std::string("{}[]\",:\\/ \t\n\r0123456789-+.eEtrufalsnu") +
                           std::string("\x00\x01\x1f\x7f\x80\xc3\xa9\xff", 8);

std::string mutate_bytes(std::string s, Rng& rng) {
  const size_t at = rng.below(s.size() + 1);
  switch (rng.below(5)) {
    case 0:  // replace a byte
      if (!s.empty()) s[std::min(at, s.size() - 1)] = kBytes[rng.below(kBytes.size())];
      break;
    case 1: s.insert(at, 1, kBytes[rng.below(kBytes.size())]); break;
    case 2:
      if (at < s.size()) s.erase(at, 1 + rng.below(3));
      break;
    case 3: s.resize(at); break;
    default: s.insert(at, std::string(1 + rng.below(2), " \t\n\r"[rng.below(4)])); break;
  }
  return s;
}

// ---- structural mutations (on an ordered parse, written back by hand) ----

// Raw JSON texts put in by the mutations; written in place of the marker string "@@<index>@@".
const std::vector<std::string> kRawValues = {
    "null", "true", "false", "0", "1", "7", "-1", "-0", "1.5", "1e3", "2.0", "12345678901234567",
    "123456789012345", R"("")", R"("x")", R"("stop")", R"("error")", R"("a\nb\"c")", R"("\u00e9")",
    R"("\ud800")", "\"\xC3\xA9\"", "[]", "[null]", "{}", R"({"a":1})", R"([{"function":{"name":"f"}}])",
    R"({"message":"m"})", R"({"prompt_tokens":3,"completion_tokens":2})", R"({"cached_tokens":4})",
    R"([{"delta":{"content":"q"}}])", R"({"content":"c","reasoning":"r"})",
};
const std::vector<std::string> kKeys = {
    "content", "reasoning", "reasoning_content", "text", "delta", "message", "finish_reason",
    "usage", "usageMetadata", "error", "object", "tool_calls", "function_call", "prompt_tokens",
    "completion_tokens", "total_tokens", "prompt_tokens_details", "completion_tokens_details",
    "cached_tokens", "reasoning_tokens", "input_tokens", "output_tokens", "tokens", "meta",
    "choices", "index", "role", "logprobs", "x",
};

// Every object and array in `j`, outermost first.
void containers(Json& j, std::vector<Json*>* out) {
  if (!j.is_object() && !j.is_array()) return;
  out->push_back(&j);
  for (auto& child : j) containers(child, out);
}

// A member written twice: in object `object`, after its member `index`, again with `value`.
struct Duplicate {
  const Json* object = nullptr;
  size_t index = 0;
  std::string value;  // raw JSON
};

std::string write(const Json& j, const Duplicate& dup, bool spaced) {
  const std::string comma = spaced ? ", " : ",";
  const std::string colon = spaced ? ": " : ":";
  std::string out;
  if (j.is_object()) {
    out += "{";
    size_t i = 0;
    for (auto it = j.begin(); it != j.end(); ++it, ++i) {
      if (i) out += comma;
      const std::string key = Json(it.key()).dump();
      out += key + colon + write(it.value(), dup, spaced);
      if (&j == dup.object && i == dup.index) out += comma + key + colon + dup.value;
    }
    return out + "}";
  }
  if (j.is_array()) {
    out += "[";
    for (size_t i = 0; i < j.size(); ++i) out += (i ? comma : "") + write(j[i], dup, spaced);
    return out + "]";
  }
  return j.dump();
}

std::string with_raw_values(std::string s) {
  for (size_t i = 0; i < kRawValues.size(); ++i) {
    const std::string marker = "\"@@" + std::to_string(i) + "@@\"";
    for (size_t at; (at = s.find(marker)) != std::string::npos;) {
      s.replace(at, marker.size(), kRawValues[i]);
    }
  }
  return s;
}

Json raw_marker(Rng& rng) {
  return Json("@@" + std::to_string(rng.below(kRawValues.size())) + "@@");
}

// One structural change; false when `s` is not JSON nlohmann reads.
bool mutate_structure(std::string* s, Rng& rng) {
  Json j = Json::parse(*s, nullptr, false);
  if (j.is_discarded()) return false;
  std::vector<Json*> nodes;
  containers(j, &nodes);
  if (nodes.empty()) return false;
  Json& node = *nodes[rng.below(nodes.size())];
  Duplicate dup;
  switch (rng.below(5)) {
    case 0:  // reorder
      if (node.is_object()) {
        std::vector<std::pair<std::string, Json>> items;
        for (auto it = node.begin(); it != node.end(); ++it) {
          items.emplace_back(it.key(), it.value());
        }
        for (size_t i = items.size(); i > 1; --i) std::swap(items[i - 1], items[rng.below(i)]);
        Json reordered = Json::object();
        for (auto& [k, v] : items) reordered[k] = v;
        node = reordered;
      } else if (node.size() > 1) {
        std::swap(node[0], node[node.size() - 1]);
      }
      break;
    case 1:  // duplicate a member, with its own value or another
      if (node.is_object() && !node.empty()) {
        dup.object = &node;
        dup.index = rng.below(node.size());
        auto it = node.begin();
        std::advance(it, static_cast<long>(dup.index));
        dup.value = rng.chance(50) ? with_raw_values(write(it.value(), {}, false))
                                   : kRawValues[rng.below(kRawValues.size())];
      }
      break;
    case 2:  // delete
      if (node.is_object() && !node.empty()) {
        auto it = node.begin();
        std::advance(it, static_cast<long>(rng.below(node.size())));
        node.erase(it);
      } else if (node.is_array() && !node.empty()) {
        node.erase(node.begin() + static_cast<long>(rng.below(node.size())));
      }
      break;
    case 3:  // retype or replace a member's value
      if (node.is_object() && !node.empty()) {
        auto it = node.begin();
        std::advance(it, static_cast<long>(rng.below(node.size())));
        it.value() = raw_marker(rng);
      } else if (node.is_array() && !node.empty()) {
        node[rng.below(node.size())] = raw_marker(rng);
      }
      break;
    default:  // add a member the parsers read
      if (node.is_object()) node[rng.pick(kKeys)] = raw_marker(rng);
      break;
  }
  *s = with_raw_values(write(j, dup, rng.chance(15)));
  return true;
}

std::string mutate(std::string s, Rng& rng) {
  const size_t rounds = 1 + rng.below(3);
  for (size_t i = 0; i < rounds; ++i) {
    if (rng.chance(55) && mutate_structure(&s, rng)) continue;
    s = mutate_bytes(std::move(s), rng);
  }
  return s;
}

// ---- comparison ----

bool same_record(const RequestRecord& a, const RequestRecord& b) {
  return a.chunks == b.chunks && a.output_text == b.output_text && a.reasoning_text == b.reasoning_text &&
         a.finish_reason == b.finish_reason && a.error == b.error &&
         a.error_message == b.error_message && a.output_items == b.output_items &&
         a.http_status == b.http_status && a.usage == b.usage;
}

std::string quoted(const std::string& s) {
  return nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// For failure messages only.
std::string describe(const RequestRecord& r) {
  std::ostringstream o;
  o << "chunks[";
  for (const auto& c : r.chunks) {
    o << int(c.kind) << ":" << c.text_offset << "+" << c.text_bytes << "@" << c.recv_ns << "/"
      << c.tokens << " ";
  }
  const auto& u = r.usage;
  o << "] out=" << quoted(r.output_text) << " reasoning=" << quoted(r.reasoning_text)
    << " finish=" << r.finish_reason << " error=" << int(r.error) << " msg=" << r.error_message
    << " items=" << r.output_items << " usage=" << u.prompt_tokens << "," << u.completion_tokens
    << "," << u.total_tokens << "," << u.reasoning_tokens << "," << u.prompt_cache_read_tokens
    << "," << u.prompt_cache_write_tokens << "," << u.prompt_cache_miss_tokens << ","
    << u.prompt_audio_tokens << "," << u.completion_audio_tokens << ","
    << u.accepted_prediction_tokens << "," << u.rejected_prediction_tokens << ","
    << u.tool_use_prompt_tokens << "," << u.prompt_audio_seconds << "," << u.spec_draft_tokens
    << "," << u.spec_accepted_tokens << "," << u.spec_steps << ","
    << u.first_content_chunk_tokens;
  return o.str();
}

class Differential {
 public:
  Differential()
      : fast_(make_openai_event_parser(OpenAiParsePath::kFastFirst)),
        general_(make_openai_event_parser(OpenAiParsePath::kGeneralOnly)) {}

  // Feeds one stream to both parsers; returns the first difference ("" when none).
  std::string run(const std::vector<std::string>& events, bool as_body = false) {
    RequestRecord a;
    RequestRecord b;
    for (size_t i = 0; i < events.size(); ++i) {
      const int64_t t = 100 + static_cast<int64_t>(i);
      const ParseStatus sa = as_body ? fast_->parse_body(events[i], t, &a)
                                     : fast_->parse_event(events[i], t, &a);
      const ParseStatus sb = as_body ? general_->parse_body(events[i], t, &b)
                                     : general_->parse_event(events[i], t, &b);
      ++events_;
      if (sa != sb || !same_record(a, b)) {
        return "event " + std::to_string(i) + " " + events[i] + "\n  status " +
               std::to_string(int(sa)) + " vs " + std::to_string(int(sb)) +
               "\n  fast:    " + describe(a) + "\n  general: " + describe(b);
      }
    }
    return "";
  }

  int64_t fast_events() const { return openai_fast_path_events(*fast_); }
  int64_t events() const { return events_; }

 private:
  std::unique_ptr<EventParser> fast_;
  std::unique_ptr<EventParser> general_;
  int64_t events_ = 0;
};

TEST(OpenAiFastEventDiff, ServerEventsAsTheyAre) {
  Differential d;
  for (const CorpusEvent& ev : server_events()) {
    const int64_t before = d.fast_events();
    EXPECT_EQ(d.run({ev.json}), "");
    EXPECT_EQ(d.fast_events() - before, ev.fast ? 1 : 0) << "fast path taken? " << ev.json;
    EXPECT_EQ(d.run({ev.json}, /*as_body=*/true), "");
  }
}

TEST(OpenAiFastEventDiff, RecordedStreamsAndFuzzCorpus) {
  Differential d;
  const std::vector<std::string> events = recorded_events();
  ASSERT_GT(events.size(), 60u);
  for (const std::string& ev : events) EXPECT_EQ(d.run({ev}), "");
  EXPECT_EQ(d.run(events), "");  // one long stream: usage, finish and errors carried across
  EXPECT_GT(d.fast_events(), d.events() / 3) << "the fast path takes too few of these";
}

TEST(OpenAiFastEventDiff, MutatedStreams) {
  std::vector<std::string> pool;
  for (const CorpusEvent& ev : server_events()) pool.push_back(ev.json);
  for (std::string& ev : recorded_events()) pool.push_back(std::move(ev));
  Rng rng{0x5eed5eed12345ull};
  Differential d;
  int64_t fast_mutants = 0;
  for (int i = 0; i < 4000; ++i) {
    std::vector<std::string> stream(1 + rng.below(3));
    for (std::string& ev : stream) {
      ev = rng.pick(pool);
      if (rng.chance(80)) ev = mutate(std::move(ev), rng);
    }
    const int64_t before = d.fast_events();
    const std::string diff = d.run(stream, /*as_body=*/rng.chance(10));
    ASSERT_EQ(diff, "") << "case " << i;
    fast_mutants += d.fast_events() > before;
  }
  // Both paths must really have been compared: the fast path takes many mutants too.
  EXPECT_GT(d.fast_events(), d.events() / 5) << d.fast_events() << " of " << d.events();
  EXPECT_GT(fast_mutants, 800);
}

}  // namespace
}  // namespace servebench::endpoints
