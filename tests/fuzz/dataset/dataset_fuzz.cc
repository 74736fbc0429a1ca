// Fuzz target for the dataset-file parsers. The first byte picks the format; the rest is the
// file. Any input must give either a DatasetFile whose turns are consistent, or an error with a
// non-empty one-line message.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "dataset/loaders/dataset_file.h"

namespace sd = servebench::dataset;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  constexpr sd::FileFormat kFormats[] = {
      sd::FileFormat::kSingleTurn,    sd::FileFormat::kMultiTurn,    sd::FileFormat::kRandomPool,
      sd::FileFormat::kMooncakeTrace, sd::FileFormat::kBailianTrace, sd::FileFormat::kBurstGptTrace,
      sd::FileFormat::kInputsJson,    sd::FileFormat::kRawPayload,   sd::FileFormat::kShareGpt};
  const auto format = kFormats[data[0] % (sizeof(kFormats) / sizeof(kFormats[0]))];
  std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  auto r = sd::parse_dataset_text(text, format, "fuzz.jsonl");
  if (!r) {
    const auto& msg = r.error().message;
    if (msg.empty() || msg.find('\n') != std::string::npos) std::abort();
    return 0;
  }
  if (r->conversations.empty()) std::abort();
  for (const auto& c : r->conversations) {
    if (c.turns.empty() || c.session_id.empty()) std::abort();
    for (const auto& t : c.turns) {
      if (t.input_length == 0 || t.output_length == 0) std::abort();
      if (t.timestamp_ms >= 0 && t.delay_ms >= 0) std::abort();
      for (const auto& m : t.media)  // image/images, audio/audios, video/videos: non-empty strings
        if (m.value.empty() || m.field.empty() || m.line <= 0) std::abort();
    }
  }
  return 0;
}
