#include "dataset/public_datasets.h"

#include <sys/stat.h>

#include <algorithm>
#include <array>

namespace servebench::dataset {
namespace {

// AIPerf 0.13's other --public-dataset names: accepted as names, refused as not fetched yet.
constexpr std::array<std::string_view, 26> kNotYet = {
    "exgentic_v2",      "exgentic",        "aimo",          "mmstar",          "mmvu",
    "vision_arena",     "llava_onevision", "aimo_aime",     "aimo_numina_cot", "aimo_numina_1_5",
    "spec_bench",       "spec_al_gsm8k",   "spec_al_math500", "spec_al_humaneval", "spec_al_mbpp",
    "spec_al_mtbench",  "instruct_coder",  "blazedit_5k",   "blazedit_10k",    "librispeech",
    "voxpopuli",        "gigaspeech",      "ami",           "spgispeech",      "weka_hf",
    "mt_bench"};

std::string supported_names() {
  std::string out;
  for (const auto& d : public_datasets()) out += (out.empty() ? "" : ", ") + d.name;
  return out;
}

bool is_regular_file(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

}  // namespace

const std::vector<PublicDataset>& public_datasets() {
  static const std::vector<PublicDataset> kAll = {
      {"sharegpt", "anon8231489123/ShareGPT_Vicuna_unfiltered", "ShareGPT_V3_unfiltered_cleaned_split.json",
       FileFormat::kShareGpt,
       "ShareGPT conversations: every human/gpt exchange a turn, max tokens = the recorded reply's length"},
  };
  return kAll;
}

Result<const PublicDataset*> find_public_dataset(std::string_view name) {
  for (const auto& d : public_datasets())
    if (d.name == name) return &d;
  const bool aiperf_name =
      name.rfind("semianalysis_cc_traces_weka", 0) == 0 ||
      std::find(kNotYet.begin(), kNotYet.end(), name) != kNotYet.end();
  if (aiperf_name)
    return make_error(ErrorCode::kInvalidArgument,
                      "--public-dataset " + std::string(name) +
                          " is not supported yet; supported: " + supported_names() +
                          " (or download it and pass --input-file)");
  return make_error(ErrorCode::kInvalidArgument, "--public-dataset '" + std::string(name) +
                                                     "' is not a public dataset; use one of: " +
                                                     supported_names());
}

Result<std::string> resolve_public_dataset(const PublicDataset& d, const tokenizer::HubEnvironment& env,
                                           const std::string& aiperf_cache_dir) {
  const std::string aiperf_copy = aiperf_cache_dir + "/" + d.filename;
  if (is_regular_file(aiperf_copy)) return aiperf_copy;
  tokenizer::HubFile f;
  f.type = tokenizer::HubRepoType::kDataset;
  f.repo_id = d.repo_id;
  f.filename = d.filename;
  f.what = "--public-dataset " + d.name + " ('" + d.repo_id + "')";
  f.network_timeout_ms = 600000;  // ShareGPT is ~640 MB
  return tokenizer::resolve_hub_file(f, env);
}

}  // namespace servebench::dataset
