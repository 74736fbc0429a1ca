// The synthetic frames: what each --video-synth-type paints, checked pixel by pixel.
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "media/video_frames.h"

namespace servebench::media {
namespace {

struct Frame {
  int w, h;
  std::vector<uint8_t> rgb;
  std::array<int, 3> at(int x, int y) const {
    const size_t i = (static_cast<size_t>(y) * w + x) * 3;
    return {rgb[i], rgb[i + 1], rgb[i + 2]};
  }
};

Frame paint(VideoSynth synth, int index, int w = 160, int h = 120, int frames = 20,
            uint64_t seed = 1) {
  FramePainter p(synth, w, h, frames, seed);
  Frame f{w, h, std::vector<uint8_t>(static_cast<size_t>(w) * h * 3, 7)};
  for (int i = 0; i <= index; ++i) p.paint(i, f.rgb.data());
  return f;
}

TEST(VideoFrames, NamesParse) {
  EXPECT_EQ(parse_video_synth("moving_shapes"), VideoSynth::kMovingShapes);
  EXPECT_EQ(parse_video_synth("grid_clock"), VideoSynth::kGridClock);
  EXPECT_EQ(parse_video_synth("noise"), VideoSynth::kNoise);
  EXPECT_FALSE(parse_video_synth("shapes"));
}

TEST(VideoFrames, MovingShapesStartAtTheirCornersAndMove) {
  const Frame f0 = paint(VideoSynth::kMovingShapes, 0);
  EXPECT_EQ(f0.at(40, 30), (std::array<int, 3>{0, 0, 0})) << "black background";
  EXPECT_EQ(f0.at(2, 60), (std::array<int, 3>{255, 0, 0})) << "red circle at the left edge";
  EXPECT_EQ(f0.at(80, 2), (std::array<int, 3>{0, 255, 0})) << "green square at the top";
  EXPECT_EQ(f0.at(2, 2), (std::array<int, 3>{0, 0, 255})) << "blue circle: (w, h) wraps to 0";
  // Frame 3 of 20: red moved 2 × 160 / 20 × 3 = 48 px right, green 2 × 120 / 20 × 3 = 36 px
  // down, blue 1.5 × 8 × 3 = 36 px left and 1.5 × 6 × 3 = 27 px up (from the far corner).
  const Frame f3 = paint(VideoSynth::kMovingShapes, 3);
  EXPECT_EQ(f3.at(48, 60), (std::array<int, 3>{255, 0, 0}));
  EXPECT_EQ(f3.at(80, 36), (std::array<int, 3>{0, 255, 0}));
  EXPECT_EQ(f3.at(124, 93), (std::array<int, 3>{0, 0, 255}));
  EXPECT_EQ(f3.at(2, 60), (std::array<int, 3>{0, 0, 0}));
}

TEST(VideoFrames, GridClockHasGridFaceAndFrameNumber) {
  const Frame f = paint(VideoSynth::kGridClock, 3);
  EXPECT_EQ(f.at(5, 100), (std::array<int, 3>{32, 32, 32})) << "dark gray background";
  EXPECT_EQ(f.at(32, 100), (std::array<int, 3>{64, 64, 64})) << "grid line every 32 px";
  EXPECT_EQ(f.at(80, 60), (std::array<int, 3>{255, 0, 0})) << "red centre dot";
  int white = 0;  // "FRAME 3" in the top-left corner
  for (int y = 10; y < 20; ++y)
    for (int x = 10; x < 70; ++x) white += f.at(x, y) == std::array<int, 3>{255, 255, 255};
  EXPECT_GT(white, 40);
}

TEST(VideoFrames, NoiseIsFreshEveryFrameAndSeeded) {
  const Frame a = paint(VideoSynth::kNoise, 0);
  const Frame b = paint(VideoSynth::kNoise, 1);
  const Frame again = paint(VideoSynth::kNoise, 0);
  const Frame other = paint(VideoSynth::kNoise, 0, 160, 120, 20, 2);
  EXPECT_NE(a.rgb, b.rgb);
  EXPECT_EQ(a.rgb, again.rgb);
  EXPECT_NE(a.rgb, other.rgb);
  long sum = 0;
  for (uint8_t v : a.rgb) sum += v;
  EXPECT_NEAR(static_cast<double>(sum) / a.rgb.size(), 127.5, 3.0);
}

}  // namespace
}  // namespace servebench::media
