// Synthetic media for requests, generated before t0 from the run's seed: noise images (fresh
// random pixels, never repeated, so a server cannot answer from a cache) and noise audio clips,
// sizes and lengths drawn from normal distributions as AIPerf's --image-* and --audio-* flags.
//
// Thread safety: a MediaGenerator is used by one thread.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/media_part.h"
#include "core/result.h"

namespace servebench::media {

struct ImageOptions {
  double width_mean = 0, width_stddev = 0;    // px; 0 mean = no images
  double height_mean = 0, height_stddev = 0;
  int batch_size = 1;                         // images per turn
  std::string format = "png";                 // png | jpeg | random
  bool enabled() const { return width_mean > 0 && height_mean > 0 && batch_size > 0; }
};

struct AudioOptions {
  double length_mean_s = 0, length_stddev_s = 0;  // 0 mean = no audio
  std::vector<double> sample_rates_khz = {16.0};
  std::vector<int> depths = {16};
  int channels = 1;
  int batch_size = 1;
  std::string format = "wav";  // wav | mp3
  bool enabled() const { return length_mean_s > 0 && batch_size > 0; }
};

struct MediaOptions {
  ImageOptions image;
  AudioOptions audio;
  bool enabled() const { return image.enabled() || audio.enabled(); }
};

// Checks the options (formats, depths, rates, channels): one line naming the flag, kInvalidArgument.
Status check_media_options(const MediaOptions& o);

class MediaGenerator {
 public:
  MediaGenerator(MediaOptions options, uint64_t seed);
  // The media of one turn: batch_size images, then batch_size audio clips.
  Result<std::vector<core::MediaPart>> next_turn();

 private:
  Result<core::MediaPart> image();
  Result<core::MediaPart> audio();
  int draw_positive(double mean, double stddev, int min);

  MediaOptions options_;
  std::mt19937_64 rng_;
};

}  // namespace servebench::media
