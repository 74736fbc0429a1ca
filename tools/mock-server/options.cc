#include "options.h"

#include <cmath>
#include <cstdio>
#include <functional>
#include <map>

#include "core/units.h"
#include "length_rules.h"

namespace servebench::mock {
namespace {

Error bad_flag(const std::string& flag, const std::string& value, const std::string& want) {
  return Error{ErrorCode::kInvalidArgument, "servebench-mock: bad value '" + value + "' for " +
                                                flag + " (want " + want + "; see --help)"};
}

Result<double> number(const std::string& flag, const std::string& v, double lo, double hi) {
  auto d = core::parse_double(v);
  if (!d || *d < lo || *d > hi) {
    char want[96];
    std::snprintf(want, sizeof(want), "a number in [%g, %g]", lo, hi);
    return tl::unexpected(bad_flag(flag, v, want));
  }
  return *d;
}

Result<int64_t> integer(const std::string& flag, const std::string& v, int64_t lo, int64_t hi) {
  auto d = core::parse_count(v);
  if (!d || *d < lo || *d > hi) {
    return tl::unexpected(bad_flag(
        flag, v, "a whole number in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]"));
  }
  return *d;
}

}  // namespace

std::string mock_usage() {
  return R"(servebench-mock: a fake OpenAI-compatible LLM server for testing and benchmarking
servebench. Streams exactly as vLLM does; latencies, faults and output lengths are knobs.

usage: servebench-mock [options]

Listening (the first stdout line is exactly `listening on http://HOST:PORT`):
  --host HOST                 bind address (default 127.0.0.1)
  --port N                    port, 0 = ephemeral (default 0)
  --threads N                 event-loop threads (default 1)
  --model NAME                served model name (default mock-model)
  --max-body-bytes N          larger request bodies get 413 (default 32M)
  --path-prefix PATH          serve every route under PATH (e.g. /proxy: /proxy/v1/models);
                              other paths get 404

DCGM exporter mode (a second listener serving DCGM's /metrics for fake GPUs that follow the
load; its line `dcgm exporter on http://HOST:PORT/metrics` follows the listening line):
  --dcgm-port N               port, 0 = ephemeral (default: off)
  --dcgm-num-gpus N           fake GPUs, 1..8 (default 2)
  --dcgm-gpu-name NAME        modelName label (default NVIDIA H100 80GB HBM3)
  --dcgm-hostname NAME        Hostname label (default servebench-mock)

Latency model (offsets from admission; see docs):
  --ttft-ms X                 time to first token (default 0)
  --itl-ms X                  gap between token events (default 0)
  --prefill-us-per-token X    TTFT grows by X µs per prompt token (default 0)
  --jitter-cv X               log-normal noise on TTFT and each gap, coefficient of variation
  --tokens-per-chunk N        tokens per SSE event, as speculative decoding (default 1)
  --reasoning-tokens N        first N output tokens go to delta.reasoning_content (default 0)
  --early-role-chunk          send the role chunk with the headers, not with the first token
  --tool-calls                chat answers with one function call (name "lookup", the
                              generated text as its arguments) instead of content
  --cached-tokens N           usage reports prompt_tokens_details.cached_tokens = min(N, prompt)
  --spec-decode K             usage reports speculative decoding as SGLang names it: each
                              verification step drafts K tokens and accepts K/2 of them
                              (spec_verify_ct, spec_accept_token_num, spec_draft_token_num)
  --max-concurrency N         generate at most N at once; queue the rest (default 0 = no limit)
  --default-max-tokens N      output cap when a request sets none (default 128)
  --seed N                    seed of output lengths, text, jitter and faults (default 0)

Output length: max_completion_tokens, else max_tokens, else --default-max-tokens; with
ignore_eos exactly that many, otherwise a seeded length in [max(min_tokens,1), max].

Faults:
  --error-rate PCT            share of requests (0..100) that fail (default 0)
  --error-kind KIND           http500 | http429 | reset | stall | malformed | error-event |
                              mixed (one of the others but stall, drawn per request)
  --stall-timeout-ms X        a stalled response is closed after X ms (default 600000)
  (video jobs: http500/http429 answer the submit; any other kind makes the job end "failed")

Media generation (POST /v1/images/generations, POST /v1/videos + GET /v1/videos/{id}[/content]):
  --video-steps N             progress steps of a video job, --itl-ms each (default 4)
  --video-content-bytes N     size of a finished video's content (default 65536)
Per request, the header `X-Mock-Scenario: key=value;...` overrides ttft_ms, itl_ms,
prefill_us_per_token, jitter_cv, tokens_per_chunk, reasoning_tokens, error_rate, error_kind,
early_role, output_tokens, tool_calls, cached_tokens.

Token counting:
  --tokenizer SPEC            count prompt tokens with this tokenizer (same specs as servebench)
                              Without it, prompt tokens = number of whitespace-separated words
                              in each message's text, and output is drawn from a fixed list of
                              single-token " word" pieces (one token per word).
  --corpus PATH               output text corpus (default: the vendored data/corpus/mobydick.txt;
                              checked against SHA256SUMS next to it)

Files:
  --record-requests FILE      one JSON line per request (what the client sent)
  --record-bodies             add each request body, byte for byte, to that line ("body")
  --ground-truth FILE         one JSON line per request (server-side write times)

Routes: POST /v1/chat/completions, POST /v1/completions, GET /v1/models, GET /health,
GET /metrics (vLLM names), POST /reset_prefix_cache, POST /start_profile and /stop_profile,
POST /v1/images/generations (+ GET /v1/images/mock/<name>.png), POST /v1/images/edits,
POST /v1/videos,
GET /v1/videos/{id} and /v1/videos/{id}/content, POST /v1/infer (NIM image retrieval).
)";
}

Result<MockOptions> parse_mock_options(const std::vector<std::string>& args) {
  MockOptions o;
  ServerConfig& s = o.server;
  using Setter = std::function<Status(const std::string& flag, const std::string& v)>;
  auto set_ms = [](int64_t* out) {
    return Setter([out](const std::string& f, const std::string& v) -> Status {
      auto d = number(f, v, 0, 1e9);
      if (!d) return tl::unexpected(d.error());
      *out = core::ms_to_ns(*d);
      return core::ok_status();
    });
  };
  auto set_int = [](int64_t* out, int64_t lo, int64_t hi) {
    return Setter([out, lo, hi](const std::string& f, const std::string& v) -> Status {
      auto d = integer(f, v, lo, hi);
      if (!d) return tl::unexpected(d.error());
      *out = *d;
      return core::ok_status();
    });
  };
  auto set_str = [](std::string* out) {
    return Setter([out](const std::string& f, const std::string& v) -> Status {
      if (v.empty()) return tl::unexpected(bad_flag(f, v, "a non-empty value"));
      *out = v;
      return core::ok_status();
    });
  };
  int64_t port = 0, threads = 1, seed = 0, dcgm_port = -1, dcgm_gpus = 2;
  const std::map<std::string, Setter> valued = {
      {"--host", set_str(&s.host)},
      {"--port", set_int(&port, 0, 65535)},
      {"--threads", set_int(&threads, 1, 256)},
      {"--model", set_str(&s.model)},
      {"--max-body-bytes", set_int(&s.max_body_bytes, 1, int64_t{1} << 40)},
      {"--ttft-ms", set_ms(&s.knobs.ttft_ns)},
      {"--itl-ms", set_ms(&s.knobs.itl_ns)},
      {"--prefill-us-per-token",
       [&](const std::string& f, const std::string& v) -> Status {
         auto d = number(f, v, 0, 1e9);
         if (!d) return tl::unexpected(d.error());
         s.knobs.prefill_ns_per_token = std::llround(*d * 1000.0);
         return core::ok_status();
       }},
      {"--jitter-cv",
       [&](const std::string& f, const std::string& v) -> Status {
         auto d = number(f, v, 0, 100);
         if (!d) return tl::unexpected(d.error());
         s.knobs.jitter_cv = *d;
         return core::ok_status();
       }},
      {"--tokens-per-chunk", set_int(&s.knobs.tokens_per_chunk, 1, kMaxTokensPerRequest)},
      {"--reasoning-tokens", set_int(&s.knobs.reasoning_tokens, 0, kMaxTokensPerRequest)},
      {"--max-concurrency", set_int(&s.max_concurrency, 0, 100'000'000)},
      {"--default-max-tokens", set_int(&s.default_max_tokens, 1, kMaxTokensPerRequest)},
      {"--seed", set_int(&seed, 0, INT64_MAX)},
      {"--video-steps", set_int(&s.video_steps, 1, 1000)},
      {"--video-content-bytes", set_int(&s.video_content_bytes, 1, int64_t{1} << 30)},
      {"--error-rate",
       [&](const std::string& f, const std::string& v) -> Status {
         auto d = number(f, v, 0, 100);
         if (!d) return tl::unexpected(d.error());
         s.knobs.error_rate_pct = *d;
         return core::ok_status();
       }},
      {"--error-kind",
       [&](const std::string& f, const std::string& v) -> Status {
         auto k = parse_fault_kind(v);
         if (!k)
           return tl::unexpected(
               bad_flag(f, v, "http500|http429|reset|stall|malformed|error-event|mixed"));
         s.knobs.error_kind = *k;
         return core::ok_status();
       }},
      {"--stall-timeout-ms", set_ms(&s.stall_timeout_ns)},
      {"--record-requests", set_str(&s.record_requests_path)},
      {"--cached-tokens", set_int(&s.knobs.cached_tokens, 0, INT64_MAX)},
      {"--spec-decode", set_int(&s.knobs.spec_decode_draft, 1, 64)},
      {"--path-prefix",
       [&](const std::string& f, const std::string& v) -> Status {
         if (v.size() < 2 || v.front() != '/' || v.back() == '/') {
           return tl::unexpected(bad_flag(f, v, "a path such as /proxy (leading /, no trailing /)"));
         }
         s.path_prefix = v;
         return core::ok_status();
       }},
      {"--ground-truth", set_str(&s.ground_truth_path)},
      {"--tokenizer", set_str(&o.tokenizer_spec)},
      {"--corpus", set_str(&o.corpus_path)},
      {"--dcgm-port", set_int(&dcgm_port, 0, 65535)},
      {"--dcgm-num-gpus", set_int(&dcgm_gpus, 1, 8)},
      {"--dcgm-gpu-name", set_str(&o.dcgm.gpu_name)},
      {"--dcgm-hostname", set_str(&o.dcgm.hostname)},
  };
  for (size_t i = 0; i < args.size(); ++i) {
    std::string flag = args[i];
    if (flag == "--help" || flag == "-h") {
      o.help = true;
      continue;
    }
    if (flag == "--version") {
      o.version = true;
      continue;
    }
    if (flag == "--early-role-chunk") {
      s.knobs.early_role = true;
      continue;
    }
    if (flag == "--tool-calls") {
      s.knobs.tool_calls = true;
      continue;
    }
    if (flag == "--record-bodies") {
      s.record_bodies = true;
      continue;
    }
    std::string value;
    bool has_value = false;
    if (const size_t eq = flag.find('='); eq != std::string::npos && flag.rfind("--", 0) == 0) {
      value = flag.substr(eq + 1);
      flag = flag.substr(0, eq);
      has_value = true;
    }
    auto it = valued.find(flag);
    if (it == valued.end()) {
      return make_error(ErrorCode::kInvalidArgument,
                        "servebench-mock: unknown option '" + flag + "' (see --help)");
    }
    if (!has_value) {
      if (i + 1 >= args.size()) {
        return make_error(ErrorCode::kInvalidArgument,
                          "servebench-mock: option " + flag + " needs a value (see --help)");
      }
      value = args[++i];
    }
    if (auto st = it->second(flag, value); !st) return tl::unexpected(st.error());
  }
  s.port = static_cast<uint16_t>(port);
  o.dcgm.port = static_cast<int>(dcgm_port);
  o.dcgm.gpus = static_cast<int>(dcgm_gpus);
  o.dcgm.host = s.host;
  s.threads = static_cast<int>(threads);
  s.seed = static_cast<uint64_t>(seed);
  return o;
}

}  // namespace servebench::mock
