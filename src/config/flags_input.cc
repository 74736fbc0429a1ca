// Prompt and input-file flags (config/flag_table.h).
#include "config/flag_kinds.h"

namespace servebench::config {
namespace {

using namespace flags;  // NOLINT: the builders read as a table

// Lengths of 0 mean "not set" for these fields; exported as null then.
JsonValue positive_or_null(int64_t v) { return v > 0 ? JsonValue(v) : JsonValue(nullptr); }

}  // namespace

void add_input_flags(std::vector<FlagSpec>* out) {
  out->push_back(count_flag("--num-dataset-entries,--num-prompts", "--num-dataset-entries",
                            "Unique prompts", &C::num_dataset_entries, 1,
                            "/input/num_dataset_entries"));
  out->push_back(sweepable("isl", double_flag("--synthetic-input-tokens-mean,--prompt-input-tokens-mean,--isl",
                             "--isl", "Mean input tokens", &C::isl_mean_tokens,
                             "a positive number of tokens", Bound::kAny,
                             "/input/prompt/input_tokens/mean")));
  out->push_back(
      double_flag("--synthetic-input-tokens-stddev,--prompt-input-tokens-stddev,--isl-stddev",
                  "--isl-stddev", "Input tokens stddev", &C::isl_stddev_tokens,
                  "a number of tokens >= 0", Bound::kAny, "/input/prompt/input_tokens/stddev"));
  {
    FlagSpec s = double_flag("--output-tokens-mean,--prompt-output-tokens-mean,--osl", "--osl",
                             "Mean max output tokens (default: the server decides)",
                             &C::osl_mean_tokens, "a positive number of tokens", Bound::kPositive,
                             "/input/prompt/output_tokens/mean");
    s.to_json = [](const C& c) {
      return c.osl_mean_tokens > 0 ? JsonValue(c.osl_mean_tokens) : JsonValue(nullptr);
    };
    out->push_back(sweepable("osl", std::move(s)));
  }
  out->push_back(double_flag("--output-tokens-stddev,--prompt-output-tokens-stddev,--osl-stddev",
                             "--osl-stddev", "Output tokens stddev", &C::osl_stddev_tokens,
                             "a number of tokens >= 0", Bound::kAny,
                             "/input/prompt/output_tokens/stddev"));
  out->push_back(count_flag("--random-seed", "--random-seed", "Seed for prompts and arrivals",
                            &C::random_seed, 0, "/input/random_seed"));
  out->push_back(double_flag("--isl-range-ratio", "--isl-range-ratio",
                             "Uniform input lengths around --isl (see --range-ratio-style)",
                             &C::isl_range_ratio, "a ratio between 0 and 1", Bound::kAny,
                             "/input/prompt/input_tokens/range_ratio"));
  out->push_back(double_flag("--osl-range-ratio", "--osl-range-ratio",
                             "Uniform output lengths around --osl (see --range-ratio-style)",
                             &C::osl_range_ratio, "a ratio between 0 and 1", Bound::kAny,
                             "/input/prompt/output_tokens/range_ratio"));
  out->push_back(choice_flag<bool>("--range-ratio-style", "--range-ratio-style",
                                   "vllm: [L(1-r), L(1+r)]; sglang: [L*r, L]",
                                   &C::range_ratio_sglang, {{"vllm", false}, {"sglang", true}},
                                   "vllm or sglang", true, "/input/prompt/range_ratio_style"));
  out->push_back(string_flag("--sequence-distribution,--seq-dist",
                             "Joint ISL,OSL mix 'ISL,OSL:pct;...'", &C::sequence_distribution, true,
                             "/input/sequence_distribution"));
  out->push_back(choice_flag<SamplingStrategyName>(
      "--dataset-sampling-strategy", "--dataset-sampling-strategy", "random, sequential or shuffle",
      &C::sampling_strategy,
      {{"random", SamplingStrategyName::kRandom},
       {"sequential", SamplingStrategyName::kSequential},
       {"shuffle", SamplingStrategyName::kShuffle}},
      "random, sequential or shuffle", true, "/input/dataset_sampling_strategy"));
  // Input files.
  out->push_back(string_flag("--input-file", "Dataset or trace file (JSONL, CSV, JSON) or folder",
                             &C::input_file, true, "/input/file"));
  out->push_back(string_flag(
      "--custom-dataset-type",
      "single_turn, multi_turn, random_pool, mooncake_trace, bailian_trace, burst_gpt_trace, "
      "inputs_json, raw_payload, weka_trace, dag_jsonl, sagemaker_data_capture, sharegpt (default: "
      "detected)",
      &C::custom_dataset_type, true, "/input/custom_dataset_type"));
  out->push_back(string_flag("--public-dataset",
                             "A public dataset fetched from the Hugging Face hub (sharegpt, aimo, "
                             "spec_al_gsm8k, ..., docs/workloads.md)",
                             &C::public_dataset, true, "/input/public_dataset"));
  out->push_back(string_flag("--hf-subset", "Subset (config) of a public dataset that has several",
                             &C::hf_subset, true, "/input/hf_subset"));
  {
    FlagSpec s = base("--dataset-filter",
                      "Keep the public dataset's rows whose column equals a value: key=value "
                      "(repeatable; every filter must match)",
                      "/input/dataset_filters");
    s.arity = FlagArity::kList;
    s.apply = [](const FlagInput& in, C* c) -> Status {
      for (const auto& t : in.texts) {
        if (t.find('=') == std::string::npos || t.front() == '=')
          return usage("--dataset-filter '" + t + "' is not key=value; give a column and the value its rows must have");
        c->dataset_filters.push_back(t);
      }
      return {};
    };
    s.to_json = field_json(&C::dataset_filters);
    out->push_back(std::move(s));
  }
  {
    FlagSpec s = string_flag("--hf-weka-dataset",
                             "Hub dataset repo of weka_trace traces (its traces.jsonl); selects "
                             "--public-dataset weka_hf",
                             &C::hf_weka_dataset, true, "/input/hf_weka_dataset");
    s.apply = [](const FlagInput& in, C* c) -> Status {
      c->hf_weka_dataset = in.text;
      if (c->public_dataset.empty() && !in.text.empty()) c->public_dataset = "weka_hf";  // AIPerf's auto-select
      return {};
    };
    out->push_back(std::move(s));
  }
  {
    FlagSpec s = count_flag(
        "--isl-block-size,--synthetic-input-tokens-block-size,--prompt-input-tokens-block-size",
        "--isl-block-size", "Tokens per trace hash_id", &C::isl_block_size, 1,
        "/input/isl_block_size");
    s.default_text = "512 mooncake, 16 bailian";
    s.to_json = [](const C& c) { return positive_or_null(c.isl_block_size); };
    out->push_back(std::move(s));
  }
  {
    FlagSpec s =
        base("--fixed-schedule", "Send each request at its timestamp (auto with timestamps)",
             "/input/fixed_schedule");
    s.arity = FlagArity::kSwitch;
    s.apply = [](const FlagInput& in, C* c) -> Status {
      if (in.on) c->fixed_schedule = true;
      return {};
    };
    s.to_json = field_json(&C::fixed_schedule);
    out->push_back(std::move(s));
  }
  {
    // Exported through --fixed-schedule's key. Runs after it (table order), so it sees a
    // --fixed-schedule given on the same command line.
    FlagSpec s = base("--no-fixed-schedule", "Ignore timestamps in the input file", "");
    s.arity = FlagArity::kSwitch;
    s.apply = [](const FlagInput& in, C* c) -> Status {
      if (!in.on) return {};
      if (c->fixed_schedule.value_or(false))
        return usage("--fixed-schedule and --no-fixed-schedule contradict; keep one");
      c->fixed_schedule = false;
      return {};
    };
    out->push_back(std::move(s));
  }
  out->push_back(switch_flag("--fixed-schedule-auto-offset", "Shift timestamps so the first is 0",
                             &C::fixed_schedule_auto_offset, "/input/fixed_schedule_auto_offset"));
  out->push_back(count_flag("--fixed-schedule-start-offset", "--fixed-schedule-start-offset",
                            "First timestamp (ms) to replay, inclusive",
                            &C::fixed_schedule_start_offset_ms, 0,
                            "/input/fixed_schedule_start_offset"));
  out->push_back(count_flag("--fixed-schedule-end-offset", "--fixed-schedule-end-offset",
                            "Last timestamp (ms) to replay, inclusive",
                            &C::fixed_schedule_end_offset_ms, 0,
                            "/input/fixed_schedule_end_offset"));
}

}  // namespace servebench::config
