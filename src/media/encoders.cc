#include "media/encoders.h"

#include <jpeglib.h>
#include <lame/lame.h>
#include <png.h>

#include <algorithm>
#include <csetjmp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include <fmt/format.h>

namespace servebench::media {

namespace {

void png_append(png_structp png, png_bytep data, size_t length) {
  static_cast<std::string*>(png_get_io_ptr(png))->append(reinterpret_cast<const char*>(data), length);
}

}  // namespace

// Fast settings: zlib level 1 and no row filter. Synthetic noise does not compress, so the
// default level 6 with adaptive filters only costs time (about 10× for a 1024×1024 image).
Result<std::string> encode_png(const std::vector<uint8_t>& rgb, int width, int height) {
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png != nullptr ? png_create_info_struct(png) : nullptr;
  if (info == nullptr) {
    png_destroy_write_struct(&png, nullptr);
    return make_error(ErrorCode::kInternal, "PNG encoder: out of memory");
  }
  std::string out;
  out.reserve(rgb.size() + rgb.size() / 64 + 1024);
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    return make_error(ErrorCode::kInternal, "PNG encoder failed");
  }
  png_set_write_fn(png, &out, &png_append, nullptr);
  png_set_IHDR(png, info, static_cast<png_uint_32>(width), static_cast<png_uint_32>(height), 8,
               PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  png_set_compression_level(png, 1);
  png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
  png_write_info(png, info);
  for (int y = 0; y < height; ++y)
    png_write_row(png, const_cast<png_bytep>(rgb.data() + static_cast<size_t>(y) * width * 3));
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return out;
}

Result<std::string> encode_jpeg(const std::vector<uint8_t>& rgb, int width, int height,
                                int quality) {
  jpeg_compress_struct c;
  jpeg_error_mgr err;
  c.err = jpeg_std_error(&err);
  jpeg_create_compress(&c);
  unsigned char* buf = nullptr;
  unsigned long size = 0;
  jpeg_mem_dest(&c, &buf, &size);
  c.image_width = static_cast<JDIMENSION>(width);
  c.image_height = static_cast<JDIMENSION>(height);
  c.input_components = 3;
  c.in_color_space = JCS_RGB;
  jpeg_set_defaults(&c);
  jpeg_set_quality(&c, quality, TRUE);
  jpeg_start_compress(&c, TRUE);
  while (c.next_scanline < c.image_height) {
    auto* row = const_cast<JSAMPROW>(rgb.data() + static_cast<size_t>(c.next_scanline) * width * 3);
    jpeg_write_scanlines(&c, &row, 1);
  }
  jpeg_finish_compress(&c);
  jpeg_destroy_compress(&c);
  std::string out(reinterpret_cast<char*>(buf), size);
  std::free(buf);
  return out;
}

namespace {

void put_le(std::string* out, uint32_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

}  // namespace

Result<std::string> encode_wav(const std::vector<float>& samples, int sample_rate, int channels,
                               int bits) {
  if (bits != 8 && bits != 16 && bits != 24 && bits != 32)
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("WAV bit depth {} (expected 8, 16, 24 or 32)", bits));
  const uint32_t bytes_per_sample = static_cast<uint32_t>(bits / 8);
  const auto data_size = static_cast<uint32_t>(samples.size() * bytes_per_sample);
  std::string out;
  out.reserve(44 + data_size);
  out.append("RIFF");
  put_le(&out, 36 + data_size, 4);
  out.append("WAVEfmt ");
  put_le(&out, 16, 4);
  put_le(&out, 1, 2);  // PCM
  put_le(&out, static_cast<uint32_t>(channels), 2);
  put_le(&out, static_cast<uint32_t>(sample_rate), 4);
  put_le(&out, static_cast<uint32_t>(sample_rate * channels) * bytes_per_sample, 4);
  put_le(&out, static_cast<uint32_t>(channels) * bytes_per_sample, 2);
  put_le(&out, static_cast<uint32_t>(bits), 2);
  out.append("data");
  put_le(&out, data_size, 4);
  for (float f : samples) {
    const double s = std::clamp(static_cast<double>(f), -1.0, 1.0);
    if (bits == 8) {
      out.push_back(static_cast<char>(static_cast<uint8_t>(std::lround(s * 127.0) + 128)));
    } else {
      const double scale = std::ldexp(1.0, bits - 1) - 1;
      put_le(&out, static_cast<uint32_t>(static_cast<int32_t>(std::lround(s * scale))),
             static_cast<int>(bytes_per_sample));
    }
  }
  return out;
}

Result<std::string> encode_mp3(const std::vector<float>& samples, int sample_rate, int channels) {
  std::unique_ptr<lame_global_flags, int (*)(lame_global_flags*)> lame(lame_init(), &lame_close);
  if (!lame) return make_error(ErrorCode::kInternal, "MP3 encoder: lame_init failed");
  lame_set_in_samplerate(lame.get(), sample_rate);
  lame_set_out_samplerate(lame.get(), sample_rate);
  lame_set_num_channels(lame.get(), channels);
  lame_set_mode(lame.get(), channels == 1 ? MONO : JOINT_STEREO);
  lame_set_brate(lame.get(), 128);
  lame_set_write_id3tag_automatic(lame.get(), 0);
  if (lame_init_params(lame.get()) < 0)
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("MP3 encoder: sample rate {} Hz is not an MP3 rate", sample_rate));
  const int frames = static_cast<int>(samples.size() / static_cast<size_t>(channels));
  std::string out(static_cast<size_t>(1.25 * frames + 7200), '\0');
  auto* buf = reinterpret_cast<unsigned char*>(out.data());
  int n = channels == 1
              ? lame_encode_buffer_ieee_float(lame.get(), samples.data(), samples.data(), frames,
                                              buf, static_cast<int>(out.size()))
              : lame_encode_buffer_interleaved_ieee_float(lame.get(), samples.data(), frames, buf,
                                                          static_cast<int>(out.size()));
  if (n < 0) return make_error(ErrorCode::kInternal, fmt::format("MP3 encoder: error {}", n));
  const int tail = lame_encode_flush(lame.get(), buf + n, static_cast<int>(out.size()) - n);
  if (tail < 0) return make_error(ErrorCode::kInternal, fmt::format("MP3 encoder: error {}", tail));
  out.resize(static_cast<size_t>(n + tail));
  return out;
}

std::string base64(std::string_view bytes) {
  static const char* kAlphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const uint32_t v = (static_cast<uint8_t>(bytes[i]) << 16) |
                       (static_cast<uint8_t>(bytes[i + 1]) << 8) | static_cast<uint8_t>(bytes[i + 2]);
    for (int k = 18; k >= 0; k -= 6) out.push_back(kAlphabet[(v >> k) & 63]);
  }
  if (i < bytes.size()) {
    uint32_t v = static_cast<uint8_t>(bytes[i]) << 16;
    if (i + 1 < bytes.size()) v |= static_cast<uint8_t>(bytes[i + 1]) << 8;
    out.push_back(kAlphabet[(v >> 18) & 63]);
    out.push_back(kAlphabet[(v >> 12) & 63]);
    out.push_back(i + 1 < bytes.size() ? kAlphabet[(v >> 6) & 63] : '=');
    out.push_back('=');
  }
  return out;
}

}  // namespace servebench::media
