// Public datasets (--public-dataset NAME): AIPerf's named datasets, fetched from the Hugging Face
// hub into its cache layout (tokenizer/hub.h: offline from the cache, downloaded when missing,
// HF_ENDPOINT, HF_TOKEN and HF_HUB_OFFLINE honoured) and then read by the file loader of their
// format (ShareGPT, weka_trace) or as a table of rows (public_table.h). A copy AIPerf already
// downloaded (.cache/aiperf/datasets/<file> under the working folder) is used first, so
// switching tools costs no second download.
//
// Every dataset is one descriptor (public_datasets()): its repository, revision, files (shards;
// "{subset}" and "{split}" are filled in), format, and for tables the row rule. Options:
// --hf-subset replaces the subset of datasets that have one (openai/gsm8k's main/socratic,
// google-research-datasets/mbpp's full/sanitized); --dataset-filter keeps rows by column value;
// --hf-weka-dataset names the repository of weka_hf (its traces.jsonl).
//
// Thread safety: call from one thread at start-up (the download writes the cache).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "dataset/loaders/dataset_file.h"
#include "dataset/public_table.h"
#include "tokenizer/hub.h"
#include "tokenizer/tokenizer.h"

namespace servebench::dataset {

enum class PublicKind { kFile, kTable };

struct PublicDataset {
  std::string name;      // the --public-dataset value
  std::string repo_id;   // a dataset repository on the hub ("" for weka_hf: --hf-weka-dataset)
  std::string filename;  // kFile: the file in it
  FileFormat format = FileFormat::kShareGpt;  // kFile: how the file is read
  std::string about;     // one line for --help and docs
  PublicKind kind = PublicKind::kFile;
  TableSpec table;                  // kTable: how rows become prompts
  std::vector<std::string> files;   // kTable: the shards, with {subset} and {split}
  std::string revision = "main";    // "refs/convert/parquet": the hub's Parquet export
  std::string subset;               // "" = the dataset has no subsets (--hf-subset refused)
  std::string split;                // fills {split}
  std::string url;                  // not on the hub: downloaded from here (filename in the AIPerf cache)
};

struct PublicDatasetOptions {
  std::string subset;       // --hf-subset ("" = the descriptor's)
  RowFilters filters;       // --dataset-filter
  std::string weka_repo;    // --hf-weka-dataset
  // When set, sharegpt is read element by element and counted with it on every core as it is
  // parsed (loaders/sharegpt_counted.h): the replies' texts are not kept. Not owned.
  const tokenizer::Tokenizer* counter = nullptr;
};

// Every dataset servebench can fetch.
const std::vector<PublicDataset>& public_datasets();

// The dataset called `name`. Errors (kInvalidArgument, one line): a name AIPerf has that
// servebench does not fetch yet, or an unknown name; both list the supported names.
Result<const PublicDataset*> find_public_dataset(std::string_view name);

// Checks the options against the dataset (one-line kInvalidArgument errors naming the flag).
Status check_public_dataset_options(const PublicDataset& d, const PublicDatasetOptions& o);

// The local path of a kFile dataset's file: `aiperf_cache_dir`/<filename> when that exists, else
// the hub cache (downloaded on a miss). Errors name the dataset and the fix.
Result<std::string> resolve_public_dataset(const PublicDataset& d, const tokenizer::HubEnvironment& env,
                                           const std::string& aiperf_cache_dir = ".cache/aiperf/datasets");

// Fetches (or finds) every file of `d` and parses them into conversations.
Result<DatasetFile> load_public_dataset(const PublicDataset& d, const PublicDatasetOptions& o,
                                        const tokenizer::HubEnvironment& env,
                                        const std::string& aiperf_cache_dir = ".cache/aiperf/datasets");

}  // namespace servebench::dataset
