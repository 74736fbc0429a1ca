#include "media/video_frames.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

namespace servebench::media {

namespace {

struct Rgb {
  uint8_t r, g, b;
};

// Drawing on one RGB frame; everything is clipped to the frame.
class Canvas {
 public:
  Canvas(uint8_t* rgb, int width, int height) : rgb_(rgb), w_(width), h_(height) {}

  void fill(Rgb c) {
    for (size_t i = 0, n = static_cast<size_t>(w_) * h_; i < n; ++i) put(i, c);
  }
  void pixel(int x, int y, Rgb c) {
    if (x >= 0 && y >= 0 && x < w_ && y < h_) put(static_cast<size_t>(y) * w_ + x, c);
  }
  void rect(double cx, double cy, double half, Rgb c) {
    for (int y = lo(cy - half); y <= hi(cy + half, h_); ++y)
      for (int x = lo(cx - half); x <= hi(cx + half, w_); ++x) pixel(x, y, c);
  }
  // A disc of radius `r`, or a ring `thickness` wide inside radius `r` when thickness > 0.
  void disc(double cx, double cy, double r, Rgb c, double thickness = 0) {
    for (int y = lo(cy - r); y <= hi(cy + r, h_); ++y) {
      for (int x = lo(cx - r); x <= hi(cx + r, w_); ++x) {
        const double d = std::hypot(x - cx, y - cy);
        if (d <= r && (thickness <= 0 || d > r - thickness)) pixel(x, y, c);
      }
    }
  }
  // A segment `width` pixels thick: every pixel whose centre is within width/2 of it.
  void line(double x0, double y0, double x1, double y1, double width, Rgb c) {
    const double half = width / 2, dx = x1 - x0, dy = y1 - y0;
    const double len2 = std::max(1e-9, dx * dx + dy * dy);
    for (int y = lo(std::min(y0, y1) - half); y <= hi(std::max(y0, y1) + half, h_); ++y) {
      for (int x = lo(std::min(x0, x1) - half); x <= hi(std::max(x0, x1) + half, w_); ++x) {
        const double t = std::clamp(((x - x0) * dx + (y - y0) * dy) / len2, 0.0, 1.0);
        if (std::hypot(x - (x0 + t * dx), y - (y0 + t * dy)) <= half) pixel(x, y, c);
      }
    }
  }
  // Text in a 3×5 pixel font scaled by `scale` (digits and the letters of "FRAME").
  void text(int x, int y, const std::string& s, int scale, Rgb c);

 private:
  void put(size_t i, Rgb c) {
    rgb_[3 * i] = c.r;
    rgb_[3 * i + 1] = c.g;
    rgb_[3 * i + 2] = c.b;
  }
  static int lo(double v) { return std::max(0, static_cast<int>(std::floor(v))); }
  static int hi(double v, int n) { return std::min(n - 1, static_cast<int>(std::ceil(v))); }

  uint8_t* rgb_;
  int w_, h_;
};

// 3×5 glyphs, one bit per pixel, row-major from the top-left (bit 14 first).
uint16_t glyph(char ch) {
  switch (ch) {
    case '0': return 0b111101101101111;
    case '1': return 0b010110010010111;
    case '2': return 0b111001111100111;
    case '3': return 0b111001111001111;
    case '4': return 0b101101111001001;
    case '5': return 0b111100111001111;
    case '6': return 0b111100111101111;
    case '7': return 0b111001001001001;
    case '8': return 0b111101111101111;
    case '9': return 0b111101111001111;
    case 'F': return 0b111100110100100;
    case 'R': return 0b110101110101101;
    case 'A': return 0b010101111101101;
    case 'M': return 0b101111111101101;
    case 'E': return 0b111100110100111;
    default: return 0;
  }
}

void Canvas::text(int x, int y, const std::string& s, int scale, Rgb c) {
  for (size_t k = 0; k < s.size(); ++k) {
    const uint16_t bits = glyph(s[k]);
    const int left = x + static_cast<int>(k) * 4 * scale;
    for (int gy = 0; gy < 5; ++gy)
      for (int gx = 0; gx < 3; ++gx)
        if ((bits >> (14 - (gy * 3 + gx))) & 1)
          for (int sy = 0; sy < scale; ++sy)
            for (int sx = 0; sx < scale; ++sx)
              pixel(left + gx * scale + sx, y + gy * scale + sy, c);
  }
}

double wrap(double v, int n) {
  const double m = std::fmod(v, static_cast<double>(n));
  return m < 0 ? m + n : m;
}

constexpr double kPi = 3.14159265358979323846;

}  // namespace

std::optional<VideoSynth> parse_video_synth(std::string_view name) {
  if (name == "moving_shapes") return VideoSynth::kMovingShapes;
  if (name == "grid_clock") return VideoSynth::kGridClock;
  if (name == "noise") return VideoSynth::kNoise;
  return std::nullopt;
}

FramePainter::FramePainter(VideoSynth synth, int width, int height, int total_frames,
                           uint64_t seed)
    : synth_(synth), width_(width), height_(height), total_frames_(total_frames), rng_(seed) {}

void FramePainter::paint(int index, uint8_t* rgb) {
  switch (synth_) {
    case VideoSynth::kMovingShapes: moving_shapes(index, rgb); break;
    case VideoSynth::kGridClock: grid_clock(index, rgb); break;
    case VideoSynth::kNoise: noise(rgb); break;
  }
}

// Three shapes with fixed sizes and speeds relative to the frame and the clip: the red circle
// crosses left to right twice per clip, the green square top to bottom twice, the blue circle
// the diagonal one and a half times backwards.
void FramePainter::moving_shapes(int index, uint8_t* rgb) const {
  Canvas c(rgb, width_, height_);
  c.fill({0, 0, 0});
  const double w = width_, h = height_, n = total_frames_, i = index;
  c.disc(wrap(2 * w / n * i, width_), wrap(std::floor(h / 2), height_), 15, {255, 0, 0});
  c.rect(wrap(std::floor(w / 2), width_), wrap(2 * h / n * i, height_), 12, {0, 255, 0});
  c.disc(wrap(w - 1.5 * w / n * i, width_), wrap(h - 1.5 * h / n * i, height_), 10, {0, 0, 255});
}

void FramePainter::grid_clock(int index, uint8_t* rgb) const {
  Canvas c(rgb, width_, height_);
  c.fill({32, 32, 32});
  constexpr int kGrid = 32;
  for (int x = 0; x < width_; x += kGrid) c.line(x, 0, x, height_ - 1, 1, {64, 64, 64});
  for (int y = 0; y < height_; y += kGrid) c.line(0, y, width_ - 1, y, 1, {64, 64, 64});
  const double cx = width_ / 2, cy = height_ / 2;
  const double r = std::min(width_, height_) / 4;
  const double turn = 2 * kPi * index / total_frames_;  // the long hand: one turn per clip
  const double hour = turn / 12;
  c.line(cx, cy, cx + 0.6 * r * std::sin(hour), cy - 0.6 * r * std::cos(hour), 3, {255, 255, 0});
  c.line(cx, cy, cx + 0.9 * r * std::sin(turn), cy - 0.9 * r * std::cos(turn), 2, {255, 255, 255});
  c.disc(cx, cy, r, {128, 128, 128}, 2);
  c.disc(cx, cy, 3, {255, 0, 0});
  c.text(10, 10, "FRAME " + std::to_string(index), 2, {255, 255, 255});
}

void FramePainter::noise(uint8_t* rgb) {
  const size_t n = static_cast<size_t>(width_) * height_ * 3;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const uint64_t v = rng_();
    std::memcpy(rgb + i, &v, 8);
  }
  for (uint64_t v = rng_(); i < n; ++i, v >>= 8) rgb[i] = static_cast<uint8_t>(v);
}

}  // namespace servebench::media
