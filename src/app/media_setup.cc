#include "app/media_setup.h"

#include "config/video_options.h"

namespace servebench::app {

media::MediaOptions media_options(const config::BenchmarkConfig& cfg) {
  media::MediaOptions o;
  o.image.width_mean = cfg.image_width_mean;
  o.image.width_stddev = cfg.image_width_stddev;
  o.image.height_mean = cfg.image_height_mean;
  o.image.height_stddev = cfg.image_height_stddev;
  o.image.batch_size = static_cast<int>(cfg.image_batch_size);
  o.image.format = cfg.image_format;
  o.image.source = cfg.image_source;
  o.image.source_sampling = cfg.image_source_sampling;
  o.audio.length_mean_s = cfg.audio_length_mean_s;
  o.audio.length_stddev_s = cfg.audio_length_stddev_s;
  o.audio.sample_rates_khz = cfg.audio_sample_rates_khz;
  o.audio.depths.assign(cfg.audio_depths.begin(), cfg.audio_depths.end());
  o.audio.channels = static_cast<int>(cfg.audio_num_channels);
  o.audio.batch_size = static_cast<int>(cfg.audio_batch_size);
  o.audio.format = cfg.audio_format;
  o.video = config::video_options(cfg);
  return o;
}

}  // namespace servebench::app
