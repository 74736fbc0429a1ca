// Synthetic media for requests, generated before t0 from the run's seed: noise images (fresh
// random pixels, never repeated, so a server cannot answer from a cache; or pictures of an
// --image-source directory resized, media/image_source.h) and noise audio clips,
// sizes and lengths drawn from normal distributions as AIPerf's --image-* and --audio-* flags,
// and video clips as its --video-* flags (media/video_frames.h, media/video_encoder.h).
//
// Thread safety: a MediaGenerator is used by one thread (it encodes a turn's images on helper
// threads of its own; the bytes do not depend on how many).
#pragma once

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "core/media_part.h"
#include "core/result.h"
#include "media/image_source.h"

namespace servebench::media {

struct ImageOptions {
  double width_mean = 0, width_stddev = 0;    // px; 0 mean = no images
  double height_mean = 0, height_stddev = 0;
  int batch_size = 1;                         // images per turn
  std::string format = "png";                 // png | jpeg | random
  std::string source = "noise";  // noise | assets (bundled pictures) | a directory (image_source.h)
  std::string source_sampling = "random-with-replacement";  // image_source.h
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

struct VideoOptions {
  int width = 0, height = 0;  // px; both 0 = no video
  int batch_size = 1;         // videos per turn
  double duration_s = 5.0;    // frames = int(duration × fps), as AIPerf
  int fps = 4;
  std::string synth_type = "moving_shapes";  // moving_shapes | grid_clock | noise
  std::string format = "webm";               // webm | mp4
  std::string codec = "libvpx-vp9";          // any FFmpeg video encoder
  double audio_sample_rate = 44100;  // Hz (values <= 1000 are kHz, as AIPerf reads them)
  int audio_channels = 0;            // 0 = no audio track
  std::string audio_codec;           // "" = aac (mp4) or libvorbis (webm)
  int audio_depth = 16;
  bool enabled() const { return width > 0 && height > 0 && batch_size > 0; }
  int frames() const { return static_cast<int>(duration_s * fps); }
};

struct MediaOptions {
  ImageOptions image;
  AudioOptions audio;
  VideoOptions video;
  bool enabled() const { return image.enabled() || audio.enabled() || video.enabled(); }
};

// Checks the options (formats, depths, rates, channels; for video also that the encoders exist,
// fit the container and open at the given size): one line naming the flag, kInvalidArgument.
Status check_media_options(const MediaOptions& o);
Status check_video_options(const VideoOptions& o);

// One synthetic image drawn but not yet encoded: its size and format, and its source (a window
// of a picture, resized where the image is encoded) or the seed its noise pixels come from.
struct ImageJob {
  int width = 0, height = 0;
  std::string format;
  SourcePick source;  // picture null: noise from noise_seed
  uint64_t noise_seed = 0;
};
// Encodes a drawn image (thread-safe: touches nothing shared).
Result<core::MediaPart> encode_image(ImageJob job);

class MediaGenerator {
 public:
  MediaGenerator(MediaOptions options, uint64_t seed);
  // The media of one turn: batch_size images, then audio clips, then videos.
  Result<std::vector<core::MediaPart>> next_turn();

 private:
  Result<ImageJob> draw_image();
  Result<std::vector<core::MediaPart>> images();  // the turn's images, encoded on several threads
  Result<core::MediaPart> audio();
  Result<core::MediaPart> video();
  int draw_positive(double mean, double stddev, int min);

  MediaOptions options_;
  std::mt19937_64 rng_;
  std::shared_ptr<ImageSourceSet> sources_;  // --image-source DIR, opened on the first image
};

}  // namespace servebench::media
