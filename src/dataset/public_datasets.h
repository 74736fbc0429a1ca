// Public datasets (--public-dataset NAME): AIPerf's named datasets, fetched from the Hugging Face
// hub into its cache layout (tokenizer/hub.h: offline from the cache, downloaded when missing,
// HF_ENDPOINT, HF_TOKEN and HF_HUB_OFFLINE honoured) and then read by the file loader of their
// format. A copy AIPerf already downloaded (.cache/aiperf/datasets/<file> under the working
// folder) is used first, so switching tools costs no second download.
//
// Thread safety: call from one thread at start-up (the download writes the cache).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "dataset/loaders/dataset_file.h"
#include "tokenizer/hub.h"

namespace servebench::dataset {

struct PublicDataset {
  std::string name;      // the --public-dataset value
  std::string repo_id;   // a dataset repository on the hub
  std::string filename;  // the file in it
  FileFormat format;     // how the file is read
  std::string about;     // one line for --help and docs
};

// Every dataset servebench can fetch.
const std::vector<PublicDataset>& public_datasets();

// The dataset called `name`. Errors (kInvalidArgument, one line): a name AIPerf has that
// servebench does not fetch yet, or an unknown name; both list the supported names.
Result<const PublicDataset*> find_public_dataset(std::string_view name);

// The local path of the dataset's file: `aiperf_cache_dir`/<filename> when that exists, else the
// hub cache (downloaded on a miss). Errors name the dataset and the fix.
Result<std::string> resolve_public_dataset(const PublicDataset& d, const tokenizer::HubEnvironment& env,
                                           const std::string& aiperf_cache_dir = ".cache/aiperf/datasets");

}  // namespace servebench::dataset
