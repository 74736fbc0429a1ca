// Source pictures for synthetic images (AIPerf's --image-source DIR|assets and
// --image-source-sampling): every PNG or JPEG file of a directory is decoded once before t0, and
// each synthetic image is one of them resized (bilinear) to the drawn width and height, then
// encoded in the run's format. Files that do not decode are skipped; a directory without one
// readable picture is an error naming it (kInvalidArgument, exit code 2).
//
// `assets` are the pictures bundled in the binary (media/embedded_pictures.h). Each image is a
// random window of one of them: the window has the drawn image's aspect ratio, between half and
// all of the largest such window that fits the picture, at a random place; so two requests get
// different pixels, though they are natural pictures (they compress like photographs do).
//
// Sampling (which picture next), all from the run's seed:
//   random-with-replacement  a uniform draw each time (AIPerf's default)
//   shuffle-cycle            every picture once in a shuffled order, then a new shuffle
//   sequential-cycle         the pictures in file-name order, over and over
//
// Thread safety: an ImageSourceSet is used by one thread.
#pragma once

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace servebench::media {

struct RgbImage {
  int width = 0, height = 0;
  std::vector<uint8_t> rgb;  // width × height × 3, row-major
};

// A PNG or JPEG file's pixels as 8-bit RGB (alpha dropped, grey expanded).
Result<RgbImage> decode_image(std::string_view bytes);
// Bilinear resize to width × height (both >= 1).
RgbImage resize_image(const RgbImage& in, int width, int height);

enum class SourceSampling { kRandomWithReplacement, kShuffleCycle, kSequentialCycle };
Result<SourceSampling> parse_source_sampling(std::string_view name);

// A window of a picture: x, y, width, height in the picture's pixels.
struct Window {
  int x = 0, y = 0, width = 0, height = 0;
};
// Bilinear resize of `window` of `in` to width × height (both >= 1).
RgbImage resize_window(const RgbImage& in, Window window, int width, int height);

// The picture an image is made of, and the window of it that is resized to the image's size.
// The picture is shared (immutable), so the resize can run on another thread.
struct SourcePick {
  std::shared_ptr<const RgbImage> picture;
  Window window;
};

class ImageSourceSet {
 public:
  static Result<ImageSourceSet> open(const std::string& dir, SourceSampling sampling);
  // The bundled pictures (`--image-source assets`), each image a random window of one of them.
  static ImageSourceSet open_assets(SourceSampling sampling);
  // The next picture (per the sampling) and its window for a width × height image.
  SourcePick pick(int width, int height, std::mt19937_64& rng);
  // pick(), resized to width × height.
  RgbImage next(int width, int height, std::mt19937_64& rng);
  size_t size() const { return pictures_.size(); }
  const std::vector<std::string>& names() const { return names_; }

 private:
  size_t next_index(std::mt19937_64& rng);

  std::vector<std::shared_ptr<const RgbImage>> pictures_;
  bool random_window_ = false;      // assets: a random window; else the whole picture
  std::vector<std::string> names_;  // file names, in the pictures' order
  SourceSampling sampling_ = SourceSampling::kRandomWithReplacement;
  std::vector<size_t> cycle_;       // shuffle-cycle: what is left of this round
  size_t next_ = 0;                 // sequential-cycle
};

}  // namespace servebench::media
