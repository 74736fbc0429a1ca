// Synthetic video frames, as AIPerf's --video-synth-type names them: `moving_shapes` (a red
// circle, a green square and a blue circle crossing a black frame and wrapping at its edges),
// `grid_clock` (a grid on dark gray with a clock whose hand turns once per clip and the frame
// number in the corner) and `noise` (fresh random pixels in every frame, so no two frames or
// videos share content a server could cache).
//
// Frames are 8-bit RGB, row-major, width × height × 3 bytes. Noise is drawn from a
// std::mt19937_64 seeded by the caller, so the same seed paints the same frames on any machine.
//
// Thread safety: a FramePainter is used by one thread.
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string_view>

namespace servebench::media {

enum class VideoSynth { kMovingShapes, kGridClock, kNoise };

// "moving_shapes" | "grid_clock" | "noise"; nullopt for anything else.
std::optional<VideoSynth> parse_video_synth(std::string_view name);

class FramePainter {
 public:
  // REQUIRES: width, height, total_frames >= 1.
  FramePainter(VideoSynth synth, int width, int height, int total_frames, uint64_t seed);

  // Paints frame `index` (0-based) into `rgb` (width × height × 3 bytes).
  void paint(int index, uint8_t* rgb);

 private:
  void moving_shapes(int index, uint8_t* rgb) const;
  void grid_clock(int index, uint8_t* rgb) const;
  void noise(uint8_t* rgb);

  VideoSynth synth_;
  int width_, height_, total_frames_;
  std::mt19937_64 rng_;
};

}  // namespace servebench::media
