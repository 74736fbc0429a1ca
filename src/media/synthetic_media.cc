#include "media/synthetic_media.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <filesystem>
#include <thread>

#include <fmt/format.h>

#include "media/encoders.h"
#include "media/image_source.h"

namespace servebench::media {

Status check_media_options(const MediaOptions& o) {
  auto bad = [](std::string msg) { return make_error(ErrorCode::kInvalidArgument, std::move(msg)); };
  const auto& im = o.image;
  if (im.format != "png" && im.format != "jpeg" && im.format != "random")
    return bad(fmt::format("--image-format '{}': expected png, jpeg or random", im.format));
  if ((im.width_mean > 0) != (im.height_mean > 0))
    return bad("--image-width-mean and --image-height-mean go together: give both (pixels)");
  if (im.width_mean > 16384 || im.height_mean > 16384)
    return bad("--image-width-mean/--image-height-mean: at most 16384 pixels");
  if (im.source != "noise") {
    if (auto st = parse_source_sampling(im.source_sampling); !st) return tl::unexpected(st.error());
    std::error_code ec;
    if (im.source != "assets" && im.width_mean > 0 && !std::filesystem::is_directory(im.source, ec))
      return bad(fmt::format("--image-source '{}': not a directory; give noise, assets or a directory of PNG/JPEG "
                             "pictures",
                             im.source));
  } else if (auto st = parse_source_sampling(im.source_sampling); !st) {
    return tl::unexpected(st.error());
  }
  const auto& au = o.audio;
  if (au.format != "wav" && au.format != "mp3")
    return bad(fmt::format("--audio-format '{}': expected wav or mp3", au.format));
  for (int d : au.depths)
    if (d != 8 && d != 16 && d != 24 && d != 32)
      return bad(fmt::format("--audio-depths {}: expected 8, 16, 24 or 32 bits", d));
  for (double r : au.sample_rates_khz)
    if (!(r >= 1 && r <= 384))
      return bad(fmt::format("--audio-sample-rates {}: expected kHz between 1 and 384", r));
  if (au.format == "mp3")
    for (double r : au.sample_rates_khz)
      if (r != 8 && r != 11.025 && r != 12 && r != 16 && r != 22.05 && r != 24 && r != 32 &&
          r != 44.1 && r != 48)
        return bad(fmt::format(
            "--audio-sample-rates {} with --audio-format mp3: MP3 takes 8, 11.025, 12, 16, 22.05, "
            "24, 32, 44.1 or 48 kHz",
            r));
  if (au.channels != 1 && au.channels != 2)
    return bad(fmt::format("--audio-num-channels {}: expected 1 or 2", au.channels));
  if (au.length_mean_s > 600) return bad("--audio-length-mean: at most 600 seconds");
  return check_video_options(o.video);
}

MediaGenerator::MediaGenerator(MediaOptions options, uint64_t seed)
    : options_(std::move(options)), rng_(seed ^ 0x6d656469615f7631ULL) {}

int MediaGenerator::draw_positive(double mean, double stddev, int min) {
  double v = mean;
  if (stddev > 0) v = std::normal_distribution<double>(mean, stddev)(rng_);
  return std::max(min, static_cast<int>(std::lround(v)));
}

Result<ImageJob> MediaGenerator::draw_image() {
  const auto& o = options_.image;
  ImageJob job;
  job.width = draw_positive(o.width_mean, o.width_stddev, 1);
  job.height = draw_positive(o.height_mean, o.height_stddev, 1);
  if (o.source != "noise") {
    if (!sources_) {
      auto sampling = parse_source_sampling(o.source_sampling);
      if (!sampling) return tl::unexpected(sampling.error());
      if (o.source == "assets") {
        sources_ = std::make_shared<ImageSourceSet>(ImageSourceSet::open_assets(*sampling));
      } else {
        auto set = ImageSourceSet::open(o.source, *sampling);
        if (!set) return tl::unexpected(set.error());
        sources_ = std::make_shared<ImageSourceSet>(std::move(*set));
      }
    }
    job.source = sources_->pick(job.width, job.height, rng_);
  } else {
    job.noise_seed = rng_();  // the pixels are drawn from it where the image is encoded
  }
  job.format = o.format;
  if (job.format == "random") job.format = (rng_() & 1) ? "jpeg" : "png";
  return job;
}

Result<core::MediaPart> encode_image(ImageJob job) {
  std::vector<uint8_t> rgb;
  if (job.source.picture) {
    rgb = resize_window(*job.source.picture, job.source.window, job.width, job.height).rgb;
  } else {
    rgb.resize(static_cast<size_t>(job.width) * job.height * 3);
    std::mt19937_64 noise(job.noise_seed);
    for (size_t i = 0; i < rgb.size(); i += 8) {
      const uint64_t r = noise();
      for (size_t k = 0; k < 8 && i + k < rgb.size(); ++k) rgb[i + k] = static_cast<uint8_t>(r >> (8 * k));
    }
  }
  auto bytes = job.format == "png" ? encode_png(rgb, job.width, job.height) : encode_jpeg(rgb, job.width, job.height);
  if (!bytes) return tl::unexpected(bytes.error());
  core::MediaPart p;
  p.kind = core::MediaKind::kImage;
  p.format = job.format;
  p.mime = "image/" + job.format;
  p.base64 = base64(*bytes);
  return p;
}

// A turn's images: drawn in order from the generator's stream (sizes, formats, pictures, noise
// seeds), then encoded on up to `threads` threads; the bytes do not depend on the thread count.
Result<std::vector<core::MediaPart>> MediaGenerator::images() {
  std::vector<ImageJob> jobs;
  for (int i = 0; i < options_.image.batch_size; ++i) {
    auto job = draw_image();
    if (!job) return tl::unexpected(job.error());
    jobs.push_back(std::move(*job));
  }
  std::vector<Result<core::MediaPart>> parts(jobs.size(), make_error(ErrorCode::kInternal, "not encoded"));
  const size_t threads = std::min<size_t>(jobs.size(), std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::thread> pool;
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t k; (k = next.fetch_add(1)) < jobs.size();) parts[k] = encode_image(std::move(jobs[k]));
  };
  for (size_t t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  std::vector<core::MediaPart> out;
  for (auto& p : parts) {
    if (!p) return tl::unexpected(p.error());
    out.push_back(std::move(*p));
  }
  return out;
}

Result<core::MediaPart> MediaGenerator::audio() {
  const auto& o = options_.audio;
  double seconds = o.length_mean_s;
  if (o.length_stddev_s > 0)
    seconds = std::normal_distribution<double>(o.length_mean_s, o.length_stddev_s)(rng_);
  seconds = std::max(0.01, seconds);
  const double khz = o.sample_rates_khz[rng_() % o.sample_rates_khz.size()];
  const int depth = o.depths[rng_() % o.depths.size()];
  const int rate = static_cast<int>(std::lround(khz * 1000));
  const auto frames = static_cast<size_t>(std::lround(seconds * rate));
  std::vector<float> samples(frames * static_cast<size_t>(o.channels));
  std::normal_distribution<float> noise(0.0f, 0.3f);
  for (float& s : samples) s = std::clamp(noise(rng_), -1.0f, 1.0f);
  auto bytes = o.format == "mp3" ? encode_mp3(samples, rate, o.channels)
                                 : encode_wav(samples, rate, o.channels, depth);
  if (!bytes) return tl::unexpected(bytes.error());
  core::MediaPart p;
  p.kind = core::MediaKind::kAudio;
  p.format = o.format;
  p.mime = o.format == "mp3" ? "audio/mpeg" : "audio/wav";
  p.base64 = base64(*bytes);
  p.duration_s = static_cast<double>(frames) / rate;
  return p;
}

Result<std::vector<core::MediaPart>> MediaGenerator::next_turn() {
  std::vector<core::MediaPart> out;
  if (options_.image.enabled()) {
    auto images_of_turn = images();
    if (!images_of_turn) return tl::unexpected(images_of_turn.error());
    out = std::move(*images_of_turn);
  }
  if (options_.audio.enabled()) {
    for (int i = 0; i < options_.audio.batch_size; ++i) {
      auto p = audio();
      if (!p) return tl::unexpected(p.error());
      out.push_back(std::move(*p));
    }
  }
  if (options_.video.enabled()) {
    for (int i = 0; i < options_.video.batch_size; ++i) {
      auto p = video();
      if (!p) return tl::unexpected(p.error());
      out.push_back(std::move(*p));
    }
  }
  return out;
}

}  // namespace servebench::media
