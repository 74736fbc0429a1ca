#include "dataset/public_datasets.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace servebench::dataset {
namespace {

namespace fs = std::filesystem;

TEST(PublicDatasets, ShareGptIsKnownWithItsHubFile) {
  auto d = find_public_dataset("sharegpt");
  ASSERT_TRUE(d) << d.error().message;
  EXPECT_EQ((*d)->repo_id, "anon8231489123/ShareGPT_Vicuna_unfiltered");
  EXPECT_EQ((*d)->filename, "ShareGPT_V3_unfiltered_cleaned_split.json");
  EXPECT_EQ((*d)->format, FileFormat::kShareGpt);
}

TEST(PublicDatasets, AiperfNamesNotFetchedYetAndUnknownNamesSayWhatIsSupported) {
  for (const char* name : {"mmstar", "librispeech", "exgentic"}) {
    auto d = find_public_dataset(name);
    ASSERT_FALSE(d) << name;
    EXPECT_NE(d.error().message.find("is not supported yet; supported: sharegpt, aimo, "), std::string::npos)
        << d.error().message;
  }
  auto typo = find_public_dataset("sharegtp");
  ASSERT_FALSE(typo);
  EXPECT_EQ(typo.error().message.rfind("--public-dataset 'sharegtp' is not a public dataset; use one of: sharegpt, aimo, ", 0),
            0u)
      << typo.error().message;
  EXPECT_NE(typo.error().message.find("weka_hf, semianalysis_cc_traces_weka_*"), std::string::npos) << typo.error().message;
}

TEST(PublicDatasets, AnAiperfDownloadIsUsedBeforeTheHub) {
  const fs::path dir = fs::temp_directory_path() / ("sb_public_" + std::to_string(::getpid()));
  fs::create_directories(dir / "aiperf");
  std::ofstream(dir / "aiperf" / "ShareGPT_V3_unfiltered_cleaned_split.json") << "[]";
  tokenizer::HubEnvironment env;
  env.cache_dir = (dir / "hub").string();
  env.endpoint = "http://127.0.0.1:9";  // never contacted
  env.offline = false;
  const PublicDataset& d = **find_public_dataset("sharegpt");
  auto path = resolve_public_dataset(d, env, (dir / "aiperf").string());
  ASSERT_TRUE(path) << path.error().message;
  EXPECT_EQ(*path, (dir / "aiperf" / "ShareGPT_V3_unfiltered_cleaned_split.json").string());
  // Without that copy and offline, the miss names the cache and the way out.
  env.offline = true;
  auto miss = resolve_public_dataset(d, env, (dir / "nowhere").string());
  ASSERT_FALSE(miss);
  EXPECT_NE(miss.error().message.find("--public-dataset sharegpt"), std::string::npos) << miss.error().message;
  EXPECT_NE(miss.error().message.find("HF_HUB_OFFLINE=1"), std::string::npos) << miss.error().message;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace servebench::dataset
