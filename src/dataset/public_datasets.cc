#include "dataset/public_datasets.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cctype>

#include "dataset/loaders/input_file.h"
#include "dataset/loaders/sharegpt_counted.h"
#include "dataset/loaders/weka_trace.h"
#include "dataset/file_workload.h"
#include "dataset/parallel_counts.h"

namespace servebench::dataset {
namespace {

// AIPerf 0.13's other --public-dataset names: accepted as names, refused as not fetched yet.
constexpr std::array<std::string_view, 12> kNotYet = {
    "exgentic_v2", "exgentic", "mmstar",    "mmvu", "vision_arena", "llava_onevision",
    "librispeech", "voxpopuli", "gigaspeech", "ami", "spgispeech",   "mt_bench"};

constexpr std::string_view kBlazeditTemplate =
    "Given a code file, please apply the change requests and generate the new file.\n\nOriginal file:\n"
    "```python\n{code}\n```\n\nChange request:\n{change_request}\n\nPlease generate the new code file in the "
    "\"New file\" section below.";

// The weka_trace corpora AIPerf names, each a traces.jsonl (one trace a line) on the hub.
constexpr std::array<std::pair<std::string_view, std::string_view>, 17> kWekaCorpora = {{
    {"semianalysis_cc_traces_weka", "cc-traces-weka-no-subagents-051826"},
    {"semianalysis_cc_traces_weka_no_subagents", "cc-traces-weka-no-subagents-051826"},
    {"semianalysis_cc_traces_weka_with_subagents", "cc-traces-weka-062126"},
    {"semianalysis_cc_traces_weka_with_subagents_256k", "cc-traces-weka-062126-256k"},
    {"semianalysis_cc_traces_weka_with_subagents_060226", "cc-traces-weka-with-subagents-060226"},
    {"semianalysis_cc_traces_weka_with_subagents_060226_256k", "cc-traces-weka-with-subagents-060226-256k"},
    {"semianalysis_cc_traces_weka_with_subagents_060526", "cc-traces-weka-with-subagents-060526"},
    {"semianalysis_cc_traces_weka_with_subagents_060526_256k", "cc-traces-weka-with-subagents-060526-256k"},
    {"semianalysis_cc_traces_weka_with_subagents_060826", "cc-traces-weka-with-subagents-060826"},
    {"semianalysis_cc_traces_weka_with_subagents_060826_256k", "cc-traces-weka-with-subagents-060826-256k"},
    {"semianalysis_cc_traces_weka_061326", "cc-traces-weka-061326"},
    {"semianalysis_cc_traces_weka_061326_256k", "cc-traces-weka-061326-256k"},
    {"semianalysis_cc_traces_weka_061526", "cc-traces-weka-061526"},
    {"semianalysis_cc_traces_weka_061526_256k", "cc-traces-weka-061526-256k"},
    {"semianalysis_cc_traces_weka_062126", "cc-traces-weka-062126"},
    {"semianalysis_cc_traces_weka_062126_256k", "cc-traces-weka-062126-256k"},
    {"weka_hf", ""},
}};

PublicDataset table(std::string name, std::string repo, std::vector<std::string> files, TableSpec spec,
                    std::string about) {
  PublicDataset d;
  d.name = std::move(name);
  d.repo_id = std::move(repo);
  d.kind = PublicKind::kTable;
  d.files = std::move(files);
  d.filename = d.files.front();
  d.table = std::move(spec);
  d.about = std::move(about);
  return d;
}

TableSpec parquet_column(std::string column) { return {TableFormat::kParquet, TableRule::kColumn, std::move(column), ""}; }

std::vector<std::string> shards(const std::string& stem, int n) {
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) out.push_back(fmt::format("{}-{:05d}-of-{:05d}.parquet", stem, i, n));
  return out;
}

// The hub's own Parquet export of a split (revision refs/convert/parquet): datasets whose
// original files are not one fixed name.
PublicDataset exported(PublicDataset d) {
  d.revision = "refs/convert/parquet";
  return d;
}

PublicDataset with_subset(PublicDataset d, std::string subset, std::string split) {
  d.subset = std::move(subset);
  d.split = std::move(split);
  return d;
}

std::vector<PublicDataset> build_all() {
  std::vector<PublicDataset> all;
  PublicDataset sharegpt;
  sharegpt.name = "sharegpt";
  sharegpt.repo_id = "anon8231489123/ShareGPT_Vicuna_unfiltered";
  sharegpt.filename = "ShareGPT_V3_unfiltered_cleaned_split.json";
  sharegpt.about = "ShareGPT conversations: every human/gpt exchange a turn, max tokens = the recorded reply's length";
  all.push_back(sharegpt);
  all.push_back(table("aimo", "AI-MO/NuminaMath-TIR", {"data/train-00000-of-00001.parquet"}, parquet_column("problem"),
                      "NuminaMath-TIR competition math problems ('problem'), single turn"));
  all.push_back(table("aimo_aime", "AI-MO/aimo-validation-aime", {"data/train-00000-of-00001.parquet"},
                      parquet_column("problem"), "90 AIME problems ('problem'), single turn"));
  all.push_back(table("aimo_numina_cot", "AI-MO/NuminaMath-CoT", shards("data/train", 5), parquet_column("problem"),
                      "NuminaMath-CoT math problems ('problem'), single turn"));
  all.push_back(table("aimo_numina_1_5", "AI-MO/NuminaMath-1.5", shards("data/train", 3), parquet_column("problem"),
                      "NuminaMath-1.5 math problems ('problem'), single turn"));
  PublicDataset spec_bench = table("spec_bench", "hemingkx/Spec-Bench", {"spec_bench.jsonl"},
                                   {TableFormat::kJsonl, TableRule::kFirstOfList, "turns", ""},
                                   "Spec-Bench questions (GitHub): the first of each row's 'turns', single turn");
  spec_bench.url =
      "https://raw.githubusercontent.com/hemingkx/Spec-Bench/fd2c1cd7d2201ef71db4c5f4e455008f017967bf/data/"
      "spec_bench/question.jsonl";
  all.push_back(spec_bench);
  all.push_back(with_subset(table("spec_al_gsm8k", "openai/gsm8k", {"{subset}/{split}-00000-of-00001.parquet"},
                                  parquet_column("question"), "GSM8K test questions ('question'; subsets main, socratic)"),
                            "main", "test"));
  all.push_back(table("spec_al_math500", "HuggingFaceH4/MATH-500", {"test.jsonl"},
                      {TableFormat::kJsonl, TableRule::kColumn, "problem", ""}, "MATH-500 test problems ('problem')"));
  all.push_back(table("spec_al_humaneval", "openai/openai_humaneval", {"openai_humaneval/test-00000-of-00001.parquet"},
                      parquet_column("prompt"), "HumanEval code prompts ('prompt')"));
  all.push_back(with_subset(table("spec_al_mbpp", "google-research-datasets/mbpp", {"{subset}/{split}-00000-of-00001.parquet"},
                                  parquet_column("text"), "MBPP test tasks ('text'; subsets full, sanitized)"),
                            "full", "test"));
  // File names on main confirmed from the hub's file listings; the rest read the hub's Parquet export.
  all.push_back(table("spec_al_mtbench", "HuggingFaceH4/mt_bench_prompts",
                      {"data/train-00000-of-00001-67c6c9fef07685a3.parquet"},
                      {TableFormat::kParquet, TableRule::kTurnList, "prompt", ""},
                      "MT-Bench: each row's 'prompt' list is a two-turn conversation with live replies"));
  all.push_back(exported(table("instruct_coder", "likaixin/InstructCoder", {"default/train/0000.parquet"},
                               parquet_column("instruction"), "InstructCoder code instructions ('instruction')")));
  for (const char* size : {"5k", "10k"}) {
    const bool five = std::string_view(size) == "5k";
    PublicDataset d = table(fmt::format("blazedit_{}", size), fmt::format("vdaita/edit_{}_char", size),
                            {five ? "data/train-00000-of-00001-cd50d93ebdf7cd84.parquet" : "default/train/0000.parquet"},
                            {TableFormat::kParquet, TableRule::kTemplate, "", std::string(kBlazeditTemplate)},
                            fmt::format("Blazedit ~{} character code edits: the code file and change request in vLLM's "
                                        "edit prompt",
                                        size));
    all.push_back(five ? d : exported(d));
  }
  for (const auto& [name, repo] : kWekaCorpora) {
    PublicDataset d;
    d.name = std::string(name);
    d.repo_id = repo.empty() ? "" : "semianalysisai/" + std::string(repo);
    d.filename = "traces.jsonl";
    d.format = FileFormat::kWekaTrace;
    d.about = repo.empty() ? "a weka_trace corpus named by --hf-weka-dataset (its traces.jsonl)"
                           : "weka_trace agent sessions from semianalysisai/" + std::string(repo);
    all.push_back(std::move(d));
  }
  return all;
}

std::string supported_names() {
  std::string out;
  for (const auto& d : public_datasets())
    if (d.name.rfind("semianalysis_cc_traces_weka_", 0) != 0) out += (out.empty() ? "" : ", ") + d.name;
  return out + ", semianalysis_cc_traces_weka_*";
}

bool is_regular_file(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string fill(std::string s, std::string_view key, const std::string& value) {
  for (size_t at = s.find(key); at != std::string::npos; at = s.find(key, at + value.size())) s.replace(at, key.size(), value);
  return s;
}

bool safe_name(std::string_view s) {
  return !s.empty() && s.find("..") == std::string_view::npos &&
         std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.'; });
}

bool safe_repo(std::string_view s) {
  const size_t slash = s.find('/');
  return slash != std::string_view::npos && safe_name(s.substr(0, slash)) && safe_name(s.substr(slash + 1));
}

Result<std::string> resolve_one(const PublicDataset& d, const std::string& repo, const std::string& file,
                                const tokenizer::HubEnvironment& env, const std::string& aiperf_cache_dir) {
  const bool aiperf_named = d.name == "sharegpt" || !d.url.empty();  // AIPerf's own download cache
  if (aiperf_named && is_regular_file(aiperf_cache_dir + "/" + file)) return aiperf_cache_dir + "/" + file;
  if (!d.url.empty())
    return tokenizer::fetch_url_file(d.url, aiperf_cache_dir + "/" + file, "--public-dataset " + d.name, env);
  tokenizer::HubFile f;
  f.type = tokenizer::HubRepoType::kDataset;
  f.repo_id = repo;
  f.revision = d.revision;
  f.filename = file;
  f.what = "--public-dataset " + d.name + " ('" + repo + "')";
  f.network_timeout_ms = 1800000;  // ShareGPT is ~640 MB, the weka corpora up to ~2 GB
  return tokenizer::resolve_hub_file(f, env);
}

Result<DatasetFile> load_weka_lines(const std::string& path, const std::string& name) {
  SB_TRY_ASSIGN(InputLimits limits, InputLimits::from_env(core::env()));
  SB_TRY_ASSIGN(std::string text, read_input_file(path, limits, name));
  DatasetFile all;
  all.format = FileFormat::kWekaTrace;
  int64_t line_no = 0;
  for (size_t pos = 0; pos < text.size();) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    const std::string_view line = std::string_view(text).substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    const std::string where = fmt::format("{}:{}", path, line_no);
    SB_TRY_ASSIGN(DatasetFile one, parsers::parse_weka_trace(line, where));
    SB_TRY(parsers::merge_weka_trace(&all, std::move(one), where));
  }
  if (all.conversations.empty())
    return make_error(ErrorCode::kInvalidArgument, name + ": " + path + " holds no trace; delete it to fetch it again");
  return all;
}

Result<DatasetFile> load_sharegpt(const std::string& path, const tokenizer::Tokenizer& tok) {
  SB_TRY_ASSIGN(InputLimits limits, InputLimits::from_env(core::env()));
  SB_TRY_ASSIGN(std::string text, read_input_file(path, limits, "--public-dataset sharegpt"));
  ShareGptCountedOptions o;
  o.count = [&tok](std::string_view s) { return static_cast<int64_t>(tok.count(s)); };
  o.for_each = [](size_t n, const std::function<void(size_t)>& fn) { parallel_for(n, count_threads(n, 64), fn); };
  // The length filter's checks that hold whatever --osl says: a conversation failing them is
  // dropped by the workload builder, so its prompts need not be kept.
  FileWorkloadOptions filter;
  filter.osl_given = true;
  o.exchange_may_pass = [filter](int64_t prompt, int64_t reply) { return sharegpt_keeps(prompt, reply, filter); };
  return parse_sharegpt_counted(std::move(text), o, path);
}

}  // namespace

const std::vector<PublicDataset>& public_datasets() {
  static const std::vector<PublicDataset> kAll = build_all();
  return kAll;
}

Result<const PublicDataset*> find_public_dataset(std::string_view name) {
  for (const auto& d : public_datasets())
    if (d.name == name) return &d;
  if (std::find(kNotYet.begin(), kNotYet.end(), name) != kNotYet.end())
    return make_error(ErrorCode::kInvalidArgument,
                      "--public-dataset " + std::string(name) +
                          " is not supported yet; supported: " + supported_names() +
                          " (or download it and pass --input-file)");
  return make_error(ErrorCode::kInvalidArgument, "--public-dataset '" + std::string(name) +
                                                     "' is not a public dataset; use one of: " +
                                                     supported_names());
}

Status check_public_dataset_options(const PublicDataset& d, const PublicDatasetOptions& o) {
  if (!o.subset.empty() && d.subset.empty())
    return make_error(ErrorCode::kInvalidArgument,
                      "--hf-subset " + o.subset + ": --public-dataset " + d.name + " has no subsets; drop --hf-subset");
  if (!o.subset.empty() && !safe_name(o.subset))
    return make_error(ErrorCode::kInvalidArgument, "--hf-subset '" + o.subset + "' is not a subset name (letters, digits, -, _, .)");
  if (!o.filters.empty() && d.kind != PublicKind::kTable)
    return make_error(ErrorCode::kInvalidArgument, "--dataset-filter applies to tabular public datasets; --public-dataset " +
                                                       d.name + " has no columns to filter, drop it");
  if (d.name == "weka_hf" && o.weka_repo.empty())
    return make_error(ErrorCode::kInvalidArgument,
                      "--public-dataset weka_hf needs --hf-weka-dataset <org/name> (e.g. semianalysisai/cc-traces-weka-062126)");
  if (!o.weka_repo.empty() && d.name != "weka_hf")
    return make_error(ErrorCode::kInvalidArgument, "--hf-weka-dataset cannot be combined with --public-dataset " + d.name +
                                                       "; omit --public-dataset or set it to weka_hf");
  if (!o.weka_repo.empty() && !safe_repo(o.weka_repo))
    return make_error(ErrorCode::kInvalidArgument,
                      "--hf-weka-dataset '" + o.weka_repo + "' is not a hub dataset id; give <org>/<name>");
  return {};
}

Result<std::string> resolve_public_dataset(const PublicDataset& d, const tokenizer::HubEnvironment& env,
                                           const std::string& aiperf_cache_dir) {
  return resolve_one(d, d.repo_id, d.filename, env, aiperf_cache_dir);
}

Result<DatasetFile> load_public_dataset(const PublicDataset& d, const PublicDatasetOptions& o,
                                        const tokenizer::HubEnvironment& env, const std::string& aiperf_cache_dir) {
  SB_TRY(check_public_dataset_options(d, o));
  const std::string repo = d.name == "weka_hf" ? o.weka_repo : d.repo_id;
  if (d.kind == PublicKind::kFile) {
    SB_TRY_ASSIGN(std::string path, resolve_one(d, repo, d.filename, env, aiperf_cache_dir));
    if (d.format == FileFormat::kWekaTrace) return load_weka_lines(path, "--public-dataset " + d.name);
    if (d.format == FileFormat::kShareGpt && o.counter) return load_sharegpt(path, *o.counter);
    return load_dataset_file(path, d.format);
  }
  const std::string subset = o.subset.empty() ? d.subset : o.subset;
  TableBuilder rows(d.name, d.table, o.filters);
  SB_TRY_ASSIGN(InputLimits limits, InputLimits::from_env(core::env()));
  for (const auto& pattern : d.files) {
    const std::string file = fill(fill(pattern, "{subset}", subset), "{split}", d.split);
    SB_TRY_ASSIGN(std::string path, resolve_one(d, repo, file, env, aiperf_cache_dir));
    SB_TRY_ASSIGN(std::string bytes, read_input_file(path, limits, "--public-dataset " + d.name));
    if (d.table.format == TableFormat::kJsonl) {
      SB_TRY(rows.add_jsonl(bytes, path));
    } else {
      SB_TRY(rows.add_parquet(std::move(bytes), path));
    }
  }
  return rows.finish();
}

}  // namespace servebench::dataset
