// Encoders for synthetic media: PNG (libpng), JPEG (libjpeg-turbo), WAV (written here), MP3
// (LAME), and base64. Inputs are raw samples; outputs are complete files in memory.
//
// Thread safety: pure functions (each call owns its encoder state).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace servebench::media {

// 8-bit RGB pixels, row-major, width × height × 3 bytes.
Result<std::string> encode_png(const std::vector<uint8_t>& rgb, int width, int height);
Result<std::string> encode_jpeg(const std::vector<uint8_t>& rgb, int width, int height,
                                int quality = 90);

// Signed PCM samples in [-1, 1], interleaved by channel; `bits` 8, 16, 24 or 32.
Result<std::string> encode_wav(const std::vector<float>& samples, int sample_rate, int channels,
                               int bits);
// MP3 through LAME (libmp3lame), 128 kbit/s CBR.
Result<std::string> encode_mp3(const std::vector<float>& samples, int sample_rate, int channels);

std::string base64(std::string_view bytes);

}  // namespace servebench::media
