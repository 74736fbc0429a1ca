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

}  // namespace servebench::media::testing
