// Test helper: what libavformat/libavcodec read back from an encoded video file.
#pragma once

#include <cstdint>
#include <string>

namespace servebench::media::testing {

struct ProbedVideo {
  bool ok = false;
  std::string error;
  std::string container;        // libavformat's demuxer name ("matroska,webm", "mov,mp4,...")
  double duration_s = 0;        // the container's duration
  std::string video_codec;      // "vp9", "h264"
  int width = 0, height = 0;
  double fps = 0;               // the stream's average frame rate
  int video_frames = 0;         // frames decoded
  std::string audio_codec;      // "" = no audio stream
  int sample_rate = 0, channels = 0;
  uint8_t first_frame_y_center = 0;  // luma at the first decoded frame's centre
};

// Decodes `bytes` (a complete file) through a temporary file.
ProbedVideo probe_video(const std::string& bytes);

// Standard base64 back to bytes (stops at '=' padding): a data URL's payload.
inline std::string unbase64(const std::string& b64) {
  static const std::string kAlphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  uint32_t acc = 0;
  int bits = 0;
  for (char c : b64) {
    const size_t v = kAlphabet.find(c);
    if (v == std::string::npos) break;  // '=' padding
    acc = (acc << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((acc >> bits) & 0xff));
    }
  }
  return out;
}

}  // namespace servebench::media::testing
