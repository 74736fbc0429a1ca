// Media input flags (config/flag_table.h): AIPerf's --image-* and --audio-* groups. They shape
// the synthetic images and audio clips of each turn (media/synthetic_media.h); the endpoint type
// must take media (endpoint registry: kCapMedia), which validation checks.
#include <fmt/format.h>

#include "config/flag_kinds.h"

namespace servebench::config {
namespace {

using namespace flags;  // NOLINT: the builders read as a table

std::vector<std::string> texts_of(const std::vector<double>& v) {
  std::vector<std::string> out;
  for (double x : v) out.push_back(fmt::format("{}", x));
  return out;
}

std::vector<std::string> texts_of(const std::vector<int64_t>& v) {
  std::vector<std::string> out;
  for (int64_t x : v) out.push_back(std::to_string(x));
  return out;
}

// A comma list of numbers ("16,44.1"), each checked by `parse`.
template <class T, class Parse>
FlagSpec number_list(std::string names, std::string flag, std::string help, std::vector<T> C::*f,
                     Parse parse, std::string key) {
  FlagSpec s = base(std::move(names), std::move(help), std::move(key));
  s.arity = FlagArity::kList;
  s.delimiter = ',';
  s.apply = [=](const FlagInput& in, C* c) -> Status {
    std::vector<T> values;
    for (const auto& t : in.texts) {
      auto v = parse(flag, t);
      if (!v) return tl::unexpected(v.error());
      values.push_back(static_cast<T>(*v));
    }
    if (values.empty()) return usage(flag + " needs at least one value");
    c->*f = std::move(values);
    return {};
  };
  s.to_json = [f](const C& c) -> JsonValue { return texts_of(c.*f); };
  return s;
}

}  // namespace

void add_media_flags(std::vector<FlagSpec>* out) {
  const std::string px = "a number of pixels";
  out->push_back(double_flag("--image-width-mean", "--image-width-mean",
                             "Mean width of synthetic images in pixels (0 = no images)",
                             &C::image_width_mean, px, Bound::kNonNegative,
                             "/input/image/width/mean"));
  out->push_back(double_flag("--image-width-stddev", "--image-width-stddev",
                             "Stddev of image widths", &C::image_width_stddev, px,
                             Bound::kNonNegative, "/input/image/width/stddev"));
  out->push_back(double_flag("--image-height-mean", "--image-height-mean",
                             "Mean height of synthetic images in pixels (0 = no images)",
                             &C::image_height_mean, px, Bound::kNonNegative,
                             "/input/image/height/mean"));
  out->push_back(double_flag("--image-height-stddev", "--image-height-stddev",
                             "Stddev of image heights", &C::image_height_stddev, px,
                             Bound::kNonNegative, "/input/image/height/stddev"));
  out->push_back(count_flag("--image-batch-size,--batch-size-image", "--image-batch-size",
                            "Images per turn", &C::image_batch_size, 1,
                            "/input/image/batch_size"));
  out->push_back(string_flag("--image-format", "Image encoding: png, jpeg or random",
                             &C::image_format, false, "/input/image/format"));
  out->push_back(string_flag("--image-source",
                             "Pictures of synthetic images: noise (random pixels), assets (random windows of "
                             "the bundled public-domain pictures) or a directory of PNG/JPEG pictures, each "
                             "resized to the drawn size",
                             &C::image_source, false, "/input/image/source"));
  out->push_back(string_flag("--image-source-sampling",
                             "Which --image-source picture next: random-with-replacement, shuffle-cycle or "
                             "sequential-cycle",
                             &C::image_source_sampling, false, "/input/image/source_sampling"));
  out->push_back(count_flag("--media-pool-size", "--media-pool-size",
                            "servebench: make N distinct images (audio clips, videos) before t0 and let every "
                            "request reuse them (0 = fresh media for every request)",
                            &C::media_pool_size, 0, "/input/media/pool_size"));
  out->push_back(switch_flag("--uuid-and-strip",
                             "Images carry vLLM's media \"uuid\" (a hash of their bytes), and an image a "
                             "session already sent goes as {\"image_url\": null, \"uuid\"} (vLLM's "
                             "multimodal cache)",
                             &C::uuid_and_strip, "/input/image/uuid_and_strip"));
  out->push_back(double_flag("--audio-length-mean", "--audio-length-mean",
                             "Mean length of synthetic audio clips in seconds (0 = no audio)",
                             &C::audio_length_mean_s, "seconds", Bound::kNonNegative,
                             "/input/audio/length/mean"));
  out->push_back(double_flag("--audio-length-stddev", "--audio-length-stddev",
                             "Stddev of audio lengths (s)", &C::audio_length_stddev_s, "seconds",
                             Bound::kNonNegative, "/input/audio/length/stddev"));
  out->push_back(number_list("--audio-sample-rates", "--audio-sample-rates",
                             "Sample rates to draw from, kHz (comma list)",
                             &C::audio_sample_rates_khz,
                             [](const std::string& flag, const std::string& t) {
                               return to_double(flag, t, "a sample rate in kHz");
                             },
                             "/input/audio/sample_rates"));
  out->push_back(number_list("--audio-depths", "--audio-depths",
                             "Bit depths to draw from (comma list of 8, 16, 24, 32)",
                             &C::audio_depths,
                             [](const std::string& flag, const std::string& t) {
                               return to_count(flag, t, 1);
                             },
                             "/input/audio/depths"));
  out->push_back(string_flag("--audio-format", "Audio encoding: wav or mp3", &C::audio_format,
                             false, "/input/audio/format"));
  out->push_back(count_flag("--audio-batch-size,--batch-size-audio", "--audio-batch-size",
                            "Audio clips per turn", &C::audio_batch_size, 1,
                            "/input/audio/batch_size"));
  out->push_back(count_flag("--audio-num-channels", "--audio-num-channels",
                            "Audio channels (1 or 2)", &C::audio_num_channels, 1,
                            "/input/audio/num_channels"));
}

}  // namespace servebench::config
