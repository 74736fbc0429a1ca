#include "media/image_source.h"

#include <jpeglib.h>
#include <png.h>

#include <algorithm>
#include <cctype>
#include <csetjmp>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "media/embedded_pictures.h"

namespace servebench::media {
namespace {

Result<RgbImage> decode_png(std::string_view bytes) {
  png_image img;
  std::memset(&img, 0, sizeof img);
  img.version = PNG_IMAGE_VERSION;
  if (png_image_begin_read_from_memory(&img, bytes.data(), bytes.size()) == 0)
    return make_error(ErrorCode::kInvalidArgument, std::string("not a readable PNG: ") + img.message);
  img.format = PNG_FORMAT_RGB;
  RgbImage out;
  out.width = static_cast<int>(img.width);
  out.height = static_cast<int>(img.height);
  out.rgb.resize(PNG_IMAGE_SIZE(img));
  if (png_image_finish_read(&img, nullptr, out.rgb.data(), 0, nullptr) == 0) {
    png_image_free(&img);
    return make_error(ErrorCode::kInvalidArgument, std::string("not a readable PNG: ") + img.message);
  }
  return out;
}

// libjpeg reports errors through error_exit, which must not return: jump back instead of
// letting the default handler exit the process.
struct JpegError {
  jpeg_error_mgr mgr;
  std::jmp_buf jump;
};

void jpeg_fail(j_common_ptr c) { std::longjmp(reinterpret_cast<JpegError*>(c->err)->jump, 1); }

Result<RgbImage> decode_jpeg(std::string_view bytes) {
  jpeg_decompress_struct c;
  JpegError err;
  c.err = jpeg_std_error(&err.mgr);
  err.mgr.error_exit = &jpeg_fail;
  RgbImage out;
  if (setjmp(err.jump)) {
    jpeg_destroy_decompress(&c);
    return make_error(ErrorCode::kInvalidArgument, "not a readable JPEG");
  }
  jpeg_create_decompress(&c);
  jpeg_mem_src(&c, reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<unsigned long>(bytes.size()));
  jpeg_read_header(&c, TRUE);
  c.out_color_space = JCS_RGB;
  jpeg_start_decompress(&c);
  out.width = static_cast<int>(c.output_width);
  out.height = static_cast<int>(c.output_height);
  out.rgb.resize(static_cast<size_t>(out.width) * out.height * 3);
  while (c.output_scanline < c.output_height) {
    JSAMPROW row = out.rgb.data() + static_cast<size_t>(c.output_scanline) * out.width * 3;
    jpeg_read_scanlines(&c, &row, 1);
  }
  jpeg_finish_decompress(&c);
  jpeg_destroy_decompress(&c);
  return out;
}

Result<std::string> read_bytes(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return make_error(ErrorCode::kInvalidArgument, "cannot be read");
  std::ostringstream ss;
  ss << in.rdbuf();
  return std::move(ss).str();
}

}  // namespace

Result<RgbImage> decode_image(std::string_view bytes) {
  if (bytes.substr(0, 8) == "\x89PNG\r\n\x1a\n") return decode_png(bytes);
  if (bytes.substr(0, 3) == "\xff\xd8\xff") return decode_jpeg(bytes);
  return make_error(ErrorCode::kInvalidArgument, "neither a PNG nor a JPEG file");
}

RgbImage resize_image(const RgbImage& in, int width, int height) {
  return resize_window(in, Window{0, 0, in.width, in.height}, width, height);
}

RgbImage resize_window(const RgbImage& in, Window w, int width, int height) {
  RgbImage out;
  out.width = width;
  out.height = height;
  out.rgb.resize(static_cast<size_t>(width) * height * 3);
  const double sx = static_cast<double>(w.width) / width, sy = static_cast<double>(w.height) / height;
  const int x_last = w.x + w.width - 1, y_last = w.y + w.height - 1;
  for (int y = 0; y < height; ++y) {
    const double fy = std::clamp(w.y + (y + 0.5) * sy - 0.5, static_cast<double>(w.y), static_cast<double>(y_last));
    const int y0 = static_cast<int>(fy), y1 = std::min(y0 + 1, y_last);
    const double wy = fy - y0;
    const uint8_t* row0 = in.rgb.data() + static_cast<size_t>(y0) * in.width * 3;
    const uint8_t* row1 = in.rgb.data() + static_cast<size_t>(y1) * in.width * 3;
    uint8_t* dst = out.rgb.data() + static_cast<size_t>(y) * width * 3;
    for (int x = 0; x < width; ++x) {
      const double fx = std::clamp(w.x + (x + 0.5) * sx - 0.5, static_cast<double>(w.x), static_cast<double>(x_last));
      const int x0 = static_cast<int>(fx), x1 = std::min(x0 + 1, x_last);
      const double wx = fx - x0;
      for (int k = 0; k < 3; ++k) {
        const double v = (row0[x0 * 3 + k] * (1 - wx) + row0[x1 * 3 + k] * wx) * (1 - wy) +
                         (row1[x0 * 3 + k] * (1 - wx) + row1[x1 * 3 + k] * wx) * wy;
        dst[x * 3 + k] = static_cast<uint8_t>(v + 0.5);
      }
    }
  }
  return out;
}

Result<SourceSampling> parse_source_sampling(std::string_view name) {
  if (name == "random-with-replacement" || name == "random_with_replacement") return SourceSampling::kRandomWithReplacement;
  if (name == "shuffle-cycle" || name == "shuffle_cycle") return SourceSampling::kShuffleCycle;
  if (name == "sequential-cycle" || name == "sequential_cycle") return SourceSampling::kSequentialCycle;
  return make_error(ErrorCode::kInvalidArgument,
                    fmt::format("--image-source-sampling '{}': expected random-with-replacement, shuffle-cycle "
                                "or sequential-cycle", name));
}

Result<ImageSourceSet> ImageSourceSet::open(const std::string& dir, SourceSampling sampling) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("--image-source '{}': {}; give noise or a directory of PNG/JPEG pictures", dir,
                                  fs::exists(dir, ec) ? "is not a directory" : "not found"));
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    std::string ext = e.path().extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    if (e.is_regular_file(ec) && (ext == ".png" || ext == ".jpg" || ext == ".jpeg")) files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  ImageSourceSet set;
  set.sampling_ = sampling;
  for (const auto& f : files) {
    auto bytes = read_bytes(f);
    if (!bytes) continue;
    auto img = decode_image(*bytes);
    if (!img || img->width < 1 || img->height < 1) continue;  // unreadable: skipped, as AIPerf does
    set.pictures_.push_back(std::make_shared<const RgbImage>(std::move(*img)));
    set.names_.push_back(f.filename().string());
  }
  if (set.pictures_.empty())
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("--image-source '{}': no readable PNG or JPEG picture in the directory", dir));
  return set;
}

ImageSourceSet ImageSourceSet::open_assets(SourceSampling sampling) {
  ImageSourceSet set;
  set.sampling_ = sampling;
  set.random_window_ = true;
  for (const EmbeddedPicture& p : embedded_pictures()) {
    auto img = decode_image(p.bytes);
    if (!img) continue;  // cannot happen: the build embeds files known to decode (unit-tested)
    set.pictures_.push_back(std::make_shared<const RgbImage>(std::move(*img)));
    set.names_.emplace_back(p.name);
  }
  return set;
}

size_t ImageSourceSet::next_index(std::mt19937_64& rng) {
  size_t index = 0;
  switch (sampling_) {
    case SourceSampling::kRandomWithReplacement:
      index = static_cast<size_t>(rng() % pictures_.size());
      break;
    case SourceSampling::kShuffleCycle:
      if (cycle_.empty()) {
        for (size_t i = pictures_.size(); i-- > 0;) cycle_.push_back(i);
        std::shuffle(cycle_.begin(), cycle_.end(), rng);
      }
      index = cycle_.back();
      cycle_.pop_back();
      break;
    case SourceSampling::kSequentialCycle:
      index = next_;
      next_ = (next_ + 1) % pictures_.size();
      break;
  }
  return index;
}

SourcePick ImageSourceSet::pick(int width, int height, std::mt19937_64& rng) {
  SourcePick out;
  out.picture = pictures_[next_index(rng)];
  const RgbImage& p = *out.picture;
  out.window = Window{0, 0, p.width, p.height};
  if (!random_window_) return out;
  // The largest window of the image's aspect ratio that fits, scaled by 512..1024 / 1024, at a
  // uniform place (integer draws, so the window is the same on every machine).
  int64_t ww = p.width, wh = p.height;
  if (static_cast<int64_t>(p.width) * height > static_cast<int64_t>(p.height) * width) {
    ww = static_cast<int64_t>(p.height) * width / height;
  } else {
    wh = static_cast<int64_t>(p.width) * height / width;
  }
  const int64_t scale = 512 + static_cast<int64_t>(rng() % 513);
  ww = std::clamp<int64_t>(ww * scale / 1024, 1, p.width);
  wh = std::clamp<int64_t>(wh * scale / 1024, 1, p.height);
  out.window.width = static_cast<int>(ww);
  out.window.height = static_cast<int>(wh);
  out.window.x = static_cast<int>(rng() % static_cast<uint64_t>(p.width - ww + 1));
  out.window.y = static_cast<int>(rng() % static_cast<uint64_t>(p.height - wh + 1));
  return out;
}

RgbImage ImageSourceSet::next(int width, int height, std::mt19937_64& rng) {
  SourcePick s = pick(width, height, rng);
  return resize_window(*s.picture, s.window, width, height);
}

}  // namespace servebench::media
