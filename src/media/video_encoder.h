// Video files through FFmpeg's libraries (libavcodec, libavformat, libswscale): frames painted
// by the caller, converted to the encoder's pixel format (yuv420p where it takes it), encoded
// with any FFmpeg video encoder by name (libvpx-vp9, libx264, ...) and muxed in memory into an
// MP4 (moov atom first, as `-movflags faststart`) or WebM container, optionally with a noise
// audio track (aac, libvorbis or libopus).
//
// Encoders run single-threaded and the muxer in bit-exact mode (no random track ids, no
// library version strings), so the same frames give the same bytes on every run; that is what
// makes the same seed give identical inputs.json files.
//
// Thread safety: pure functions (each call owns its codec and muxer state).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/result.h"

namespace servebench::media {

struct VideoAudioTrack {
  int channels = 0;  // 0 = no audio track
  int sample_rate_hz = 44100;
  std::string codec;  // "" = the container's default: aac (mp4), libvorbis (webm)
  int depth_bits = 16;  // the noise is quantized to this many bits before encoding
};

struct VideoEncodeSpec {
  int width = 0, height = 0;
  int fps = 4;
  int frames = 0;
  std::string format = "webm";  // webm | mp4
  std::string codec = "libvpx-vp9";
  VideoAudioTrack audio;
};

// The audio codec `spec` uses (its own, or the container's default).
std::string video_audio_codec(const VideoEncodeSpec& spec);

// The sample rate the audio track is encoded at: the requested one when the codec takes it,
// else the codec's nearest supported rate; always 48 kHz for Opus (libopus), whose streams
// decode at 48 kHz whatever the input rate was.
int video_audio_rate(const VideoEncodeSpec& spec);

// Checks, without encoding, that the encoders exist, the container carries their streams and
// they open with these sizes and rates. The error is one line naming the flag and the fix
// (kInvalidArgument).
Status check_video_encoding(const VideoEncodeSpec& spec);

// Paints frame i into an RGB buffer (width × height × 3 bytes).
using PaintFrame = std::function<void(int index, uint8_t* rgb)>;

// The encoded file. `audio` holds the track's samples in [-1, 1], interleaved by channel, at
// video_audio_rate(spec); empty when spec.audio.channels is 0.
Result<std::string> encode_video(const VideoEncodeSpec& spec, const PaintFrame& paint,
                                 const std::vector<float>& audio);

}  // namespace servebench::media
