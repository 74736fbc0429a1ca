// The flag table (config/flag_table.h): one declaration per flag feeds the parser, --help and
// to_json; secrets never leave parse_profile_args in an echoed form.
#include "config/flag_table.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>

#include "config/cli_options.h"
#include "core/secrets.h"

namespace servebench::config {
namespace {

using nlohmann::json;

Result<ParsedArgs> parse(std::vector<std::string> args) {
  args.insert(args.begin(), "profile");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  return parse_profile_args(static_cast<int>(argv.size()), argv.data());
}

class FlagTable : public ::testing::Test {
 protected:
  void SetUp() override { core::secrets::clear_for_testing(); }
  void TearDown() override { core::secrets::clear_for_testing(); }
};

TEST_F(FlagTable, EveryFlagIsDeclaredOnceWithAConversion) {
  std::set<std::string> names, keys;
  for (const FlagSpec& f : profile_flags()) {
    EXPECT_TRUE(f.apply) << f.names;
    EXPECT_FALSE(f.help.empty()) << f.names;
    EXPECT_EQ(f.json_key.empty(), !f.to_json)
        << f.names << ": a key needs a value and a value a key";
    for (const auto& name : flag_spellings(f))
      EXPECT_TRUE(names.insert(name).second) << "declared twice: " << name;
    if (!f.json_key.empty()) {
      EXPECT_TRUE(keys.insert(f.json_key).second) << "key used twice: " << f.json_key;
    }
  }
  EXPECT_GT(names.size(), 100u);
}

TEST_F(FlagTable, ToJsonHasEveryKeyOfTheTable) {
  auto r = parse({"-m", "m"});
  ASSERT_TRUE(r) << r.error().message;
  const json j = json::parse(to_json(r->config));
  for (const FlagSpec& f : profile_flags()) {
    if (f.json_key.empty()) continue;
    EXPECT_TRUE(j.contains(json::json_pointer(f.json_key))) << f.json_key;
  }
  EXPECT_EQ(j["cli_command"], "servebench profile -m m");
}

// The layout every flag's key produces, checked against what the writer before the table
// produced for the same command line (plus the two fixed-schedule offsets, which it omitted, and
// the -H value it showed).
TEST_F(FlagTable, ToJsonLayoutIsStable) {
  auto r = parse({"-m",
                  "a,b",
                  "-u",
                  "localhost:1",
                  "-u",
                  "https://h:2/x/",
                  "--endpoint",
                  "v1/x",
                  "--streaming",
                  "--api-key",
                  "sk-abcdefgh",
                  "-H",
                  "Content-Type: text/plain",
                  "-H",
                  "X-A: 1",
                  "--extra-inputs",
                  "ignore_eos:true",
                  "--extra-inputs",
                  "{\"top_k\":5}",
                  "--request-timeout-seconds",
                  "90",
                  "--http-version",
                  "2",
                  "--insecure",
                  "--connection-reuse-strategy",
                  "sticky_user_sessions",
                  "--use-legacy-max-tokens",
                  "--use-server-token-count",
                  "--tokenizer",
                  "builtin",
                  "--tokenizer-revision",
                  "r1",
                  "--num-prompts",
                  "7",
                  "--isl",
                  "100",
                  "--isl-stddev",
                  "3",
                  "--osl",
                  "20",
                  "--osl-stddev",
                  "2",
                  "--random-seed",
                  "42",
                  "--sequence-distribution",
                  "10,20:100",
                  "--dataset-sampling-strategy",
                  "random",
                  "--num-sessions",
                  "4",
                  "--session-turns-mean",
                  "2",
                  "--session-turns-stddev",
                  "1",
                  "--session-turn-delay-mean",
                  "5",
                  "--session-turn-delay-stddev",
                  "1",
                  "--session-delay-ratio",
                  "0.5",
                  "--prefix-prompt-pool-size",
                  "3",
                  "--prefix-prompt-length",
                  "9",
                  "--shared-system-prompt-length",
                  "11",
                  "--user-context-prompt-length",
                  "12",
                  "--session-header",
                  "X-S",
                  "--cache-bust",
                  "system_suffix",
                  "--reset-kv-cache-path",
                  "rk",
                  "--reset-kv-cache-timeout-seconds",
                  "7",
                  "--concurrency",
                  "8",
                  "--benchmark-duration",
                  "10",
                  "--benchmark-grace-period",
                  "inf",
                  "--num-warmup-sessions",
                  "2",
                  "--warmup-duration",
                  "3",
                  "--concurrency-ramp-duration",
                  "2",
                  "--prefill-concurrency",
                  "4",
                  "--request-cancellation-rate",
                  "10",
                  "--request-cancellation-delay",
                  "0.5",
                  "--workers-max",
                  "3",
                  "--artifact-dir",
                  "out",
                  "--profile-export-prefix",
                  "pp",
                  "--export-level",
                  "raw",
                  "--goodput",
                  "request_latency:100",
                  "--slice-duration",
                  "2",
                  "--fail-on",
                  "request_latency.p99>1",
                  "-v"});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->config.verbosity, 2);
  json got = json::parse(to_json(r->config));
  got.erase("cli_command");
  // The environment block depends on the machine (core/env.h; tested in core_test).
  ASSERT_TRUE(got.contains("environment") && got["environment"].is_object());
  got.erase("environment");
  const json expected = json::parse(
      R"JSON({"endpoint":{"api_key":"<redacted>","connection_reuse_strategy":"sticky-user-sessions","custom_e)JSON"
      R"JSON(ndpoint":"/v1/x","download_video_content":false,"http_version":"2","insecure_tls":true,"model_na)JSON"
      R"JSON(mes":["a","b"],"model_selection_strategy":"round_robin","model_weights":null,"per_chunk_usage":f)JSON"
      R"JSON(alse,"request_content_type":"application/json","reset_kv_cache":{"path":"/rk","timeout_seconds":)JSON"
      R"JSON(7.0},"server_profiler":false,"server_profiler_start_path":"/start_profile","server_profiler_stop)JSON"
      R"JSON(_path":"/stop_profile","server_profiler_timeout_seconds":30.0,"session_header":"X-S","streaming")JSON"
      R"JSON(:true,"timeout_seconds":90.0,"type":"chat","url_strategy":"round_robin","urls":["http://localhos)JSON"
      R"JSON(t:1","https://h:2/x"],"use_legacy_max_tokens":true,"use_server_token_count":true,"wait_for_model)JSON"
      R"JSON(_interval":5.0,"wait_for_model_mode":"inference","wait_for_model_timeout":0.0},"fail_on":"reques)JSON"
      R"JSON(t_latency.p99>1","goodput":"request_latency:100","gpu_telemetry":{"disabled":false,"values":[]},)JSON"
      R"JSON("input":{"audio":{"batch_size":1,"depths":["16"],"format":"wav","length":{"mean":0.0,"stddev":0.)JSON"
      R"JSON(0},"num_channels":1,"sample_rates":["16"]},"cache_bust":"system_suffix","conversation":{"num":4,)JSON"
      R"JSON("turn":{"delay":{"mean":5.0,"ratio":0.5,"stddev":1.0},"mean":2.0,"stddev":1.0}},"custom_dataset_)JSON"
      R"JSON(type":null,"dataset_filters":[],"dataset_sampling_strategy":"random","extra":{"ignore_eos":true,)JSON"
      R"JSON("top_k":5},"file":null,"fixed_schedule":null,"fixed_schedule_auto_offset":false,"fixed_schedule_)JSON"
      R"JSON(end_offset":null,"fixed_schedule_start_offset":null,"force_min_tokens":true,"headers":["Content-)JSON"
      R"JSON(Type: text/plain","X-A: <redacted>"],"hf_subset":null,"hf_weka_dataset":null,"image":{"batch_siz)JSON"
      R"JSON(e":1,"format":"png","height":{"mean":0.0,"stddev":0.0},"source":"noise","source_sampling":"rando)JSON"
      R"JSON(m-with-replacement","uuid_and_strip":false,"width":{"mean":0.0,"stddev":0.0}},"inter_turn_delay_)JSON"
      R"JSON(cap_seconds":null,"isl_block_size":null,"max_idle_gap_cap_seconds":null,"media":{"pool_size":0},)JSON"
      R"JSON("num_dataset_entries":7,"omit_kv_hints":false,"open_loop_replay":true,"open_loop_strict":false,")JSON"
      R"JSON(prompt":{"batch_size":1,"corpus":null,"input_tokens":{"mean":100.0,"range_ratio":null,"stddev":3)JSON"
      R"JSON(.0},"output_tokens":{"mean":20.0,"range_ratio":null,"stddev":2.0},"prefix_prompt":{"length":9,"p)JSON"
      R"JSON(ool_size":3},"random_corpus_style":"vllm","random_range_ratio":null,"range_ratio_style":"vllm",")JSON"
      R"JSON(shared_system_prompt_length":11,"system_prompt":null,"system_prompt_file":null,"user_context_pro)JSON"
      R"JSON(mpt_length":12},"public_dataset":null,"random_seed":42,"rankings":{"passages":{"mean":1,"prompt_)JSON"
      R"JSON(token_mean":550,"prompt_token_stddev":0,"stddev":0},"query":{"prompt_token_mean":550,"prompt_tok)JSON"
      R"JSON(en_stddev":0}},"replay_speedup":1.0,"sequence_distribution":"10,20:100","synthesis":{"max_isl":n)JSON"
      R"JSON(ull,"max_osl":null,"output_len_multiplier":1.0,"prefix_len_multiplier":1.0,"prefix_root_multipli)JSON"
      R"JSON(er":1,"prompt_len_multiplier":1.0,"speedup_ratio":1.0},"trace_session_sample_ratio":1.0,"video":)JSON"
      R"JSON({"audio":{"channels":0,"codec":null,"depth":16,"sample_rate":44100.0},"batch_size":1,"codec":"li)JSON"
      R"JSON(bvpx-vp9","duration":5.0,"format":"webm","fps":4,"height":0,"synth_type":"moving_shapes","width")JSON"
      R"JSON(:0}},"loadgen":{"arrival_pattern":"poisson","arrival_smoothness":null,"benchmark_duration":10.0,)JSON"
      R"JSON("benchmark_grace_period":null,"concurrency":8,"concurrency_ramp_duration":2.0,"failed_request_th)JSON"
      R"JSON(reshold":null,"num_users":null,"num_warmup_sessions":2,"prefill_concurrency":4,"prefill_concurre)JSON"
      R"JSON(ncy_ramp_duration":null,"request_cancellation_delay":0.5,"request_cancellation_rate":10.0,"reque)JSON"
      R"JSON(st_count":null,"request_rate":null,"request_rate_ramp_duration":null,"request_rate_series":null,)JSON"
      R"JSON("user_centric_rate":null,"warmup_arrival_pattern":null,"warmup_concurrency":null,"warmup_concurr)JSON"
      R"JSON(ency_ramp_duration":null,"warmup_duration":3.0,"warmup_grace_period":null,"warmup_prefill_concur)JSON"
      R"JSON(rency":null,"warmup_prefill_concurrency_ramp_duration":null,"warmup_request_count":null,"warmup_)JSON"
      R"JSON(request_rate":null,"warmup_request_rate_ramp_duration":null,"workers_max":3},"network_latency":{)JSON"
      R"JSON("automatic":false,"mean_ms":null,"ping_interval":1.0},"output":{"artifact_directory":"out","expo)JSON"
      R"JSON(rt_http_trace":false,"export_level":"raw","export_outputs_json":false,"mlflow":{"artifact_globs")JSON"
      R"JSON(:[],"experiment":null,"parent_run_id":null,"run_name":null,"tags":[],"tracking_uri":null},"otel")JSON"
      R"JSON(:{"encoding":"protobuf","gen_ai_provider":null,"resource_attributes":[],"stream":"default","url")JSON"
      R"JSON(:null},"profile_export_prefix":"pp","show_trace_timing":false,"slice_duration":2.0},"server_metr)JSON"
      R"JSON(ics":{"enabled":true,"formats":["json","csv"],"interval":0.333,"urls":[]},"tokenizer":{"apply_ch)JSON"
      R"JSON(at_template":false,"name":"builtin","revision":"r1"}})JSON");
  EXPECT_EQ(got, expected) << got.dump();
}

TEST_F(FlagTable, HelpShowsDefaultsFromTheConfig) {
  auto r = parse({"--help"});
  ASSERT_TRUE(r);
  ASSERT_TRUE(r->help);
  for (const char* needle :
       {"(default: 550)", "(default: 21600)", "(default: chat)", "(default: pooled)",
        "(default: http://localhost:8000)", "(default: artifacts)", "(default: records)",
        "(default: cores-1)", "--conversation-turn-mean"})
    EXPECT_NE(r->help_text.find(needle), std::string::npos) << needle;
  EXPECT_NE(r->help_text.find("User-Agent"), std::string::npos)
      << "the -H allow-list is documented";
}

TEST_F(FlagTable, ExtraInputsArrayNamesTheExpectedForms) {
  auto r = parse({"-m", "m", "--extra-inputs", "[1,2]"});
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("--extra-inputs '[1,2]'"), std::string::npos)
      << r.error().message;
  EXPECT_NE(r.error().message.find("key:value"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("JSON object"), std::string::npos) << r.error().message;
  auto k = parse({"-m", "m", "--extra-inputs", "1"});
  ASSERT_FALSE(k);
  EXPECT_NE(k.error().message.find("key:value"), std::string::npos) << k.error().message;
}

TEST_F(FlagTable, UrlErrorsAreUsageErrors) {
  for (const char* url :
       {"localhost:99999", "localhost:abc", "localhost:0", "gopher://h", "http://h:1/#x"}) {
    auto r = parse({"-m", "m", "-u", url});
    ASSERT_FALSE(r) << url;
    EXPECT_EQ(r.error().code, ErrorCode::kInvalidArgument);
    EXPECT_NE(r.error().message.find("-u/--url"), std::string::npos) << r.error().message;
  }
}

TEST_F(FlagTable, UrlUserInfoBecomesOneBasicHeader) {
  auto r = parse({"-m", "m", "-u",
                  "http://alice:S4-password@127.0.0.1:9,http://alice:S4-password@127.0.0.1:10"});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->config.urls,
            (std::vector<std::string>{"http://127.0.0.1:9", "http://127.0.0.1:10"}));
  ASSERT_EQ(r->config.headers.size(), 1u);
  EXPECT_EQ(r->config.headers[0], "Authorization: Basic " + base64_encode("alice:S4-password"));
  const std::string j = to_json(r->config);
  EXPECT_EQ(j.find("S4-password"), std::string::npos) << j;
  EXPECT_EQ(j.find(base64_encode("alice:S4-password")), std::string::npos) << j;
  EXPECT_EQ(core::secrets::scrub("echo S4-password"), "echo <redacted>");
  // Two credentials for one Authorization header are refused.
  EXPECT_FALSE(parse({"-m", "m", "-u", "http://a:pw123456@h:1", "--api-key", "k-12345678"}));
  EXPECT_FALSE(parse({"-m", "m", "-u", "http://a:pw123456@h:1", "-H", "authorization: x"}));
  EXPECT_FALSE(parse({"-m", "m", "-u", "http://a:pw123456@h:1,http://b:pw123456@h:2"}));
}

TEST_F(FlagTable, SecretsNeverAppearInTheCommandLineConfigOrErrors) {
  const std::vector<std::string> headers = {"-m",
                                            "m",
                                            "-H",
                                            "X-Auth-Token: S1-auth-token",
                                            "--header=X-Custom-Secret: S2-custom-secret",
                                            "-HPrivate-Token: S5-private-token",
                                            "-H",
                                            "Ocp-Apim-Subscription-Key: S6-subscription",
                                            "-H",
                                            "Content-Type: application/json"};
  // The key and URL user info both make an Authorization header: one run each.
  for (const std::vector<std::string>& credential :
       {std::vector<std::string>{"--api-key", "S3-api-key"},
        std::vector<std::string>{"-u", "http://user:S4-url-password@127.0.0.1:9"}}) {
    core::secrets::clear_for_testing();
    std::vector<std::string> args = headers;
    args.insert(args.end(), credential.begin(), credential.end());
    auto r = parse(args);
    ASSERT_TRUE(r) << r.error().message;
    const std::string j = to_json(r->config);
    const std::string& cmd = r->config.cli_command;
    for (const char* s : {"S1-auth-token", "S2-custom-secret", "S3-api-key", "S4-url-password",
                          "S5-private-token", "S6-subscription"}) {
      EXPECT_EQ(cmd.find(s), std::string::npos) << cmd;
      EXPECT_EQ(j.find(s), std::string::npos) << j;
    }
    for (const char* s :
         {"S1-auth-token", "S2-custom-secret", "S5-private-token", "S6-subscription",
          credential[0] == "-u" ? "S4-url-password" : "S3-api-key"})
      EXPECT_EQ(core::secrets::scrub(std::string("x ") + s), "x <redacted>") << s;
    EXPECT_NE(cmd.find("X-Auth-Token: <redacted>"), std::string::npos) << cmd;
    EXPECT_NE(cmd.find("Content-Type: application/json"), std::string::npos) << cmd;
    EXPECT_NE(j.find("Content-Type: application/json"), std::string::npos) << j;
    // An error later on the same command line does not echo them either.
    args.insert(args.end(), {"--concurrency", credential[1]});
    auto e = parse(args);
    ASSERT_FALSE(e);
    EXPECT_EQ(e.error().message.find("S3-api-key"), std::string::npos) << e.error().message;
    EXPECT_EQ(e.error().message.find("S4-url-password"), std::string::npos) << e.error().message;
  }
}

TEST_F(FlagTable, HeaderWithoutColonIsNotEchoed) {
  auto r = parse({"-m", "m", "-H", "Bearer-only-secret-value"});
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("-H/--header"), std::string::npos);
  EXPECT_EQ(r.error().message.find("Bearer-only-secret-value"), std::string::npos)
      << r.error().message;
}

}  // namespace
}  // namespace servebench::config
