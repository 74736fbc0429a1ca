#include "unit/media/video_probe.h"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
}

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>

namespace servebench::media::testing {

namespace {

int decode_frames(AVFormatContext* f, int index, ProbedVideo* out) {
  const AVCodecParameters* par = f->streams[index]->codecpar;
  const AVCodec* codec = avcodec_find_decoder(par->codec_id);
  if (codec == nullptr) return -1;
  AVCodecContext* ctx = avcodec_alloc_context3(codec);
  avcodec_parameters_to_context(ctx, par);
  if (avcodec_open2(ctx, codec, nullptr) < 0) return -1;
  AVPacket* pkt = av_packet_alloc();
  AVFrame* frame = av_frame_alloc();
  int frames = 0;
  auto drain = [&] {
    while (avcodec_receive_frame(ctx, frame) == 0) {
      if (frames++ == 0)
        out->first_frame_y_center =
            frame->data[0][(frame->height / 2) * frame->linesize[0] + frame->width / 2];
    }
  };
  while (av_read_frame(f, pkt) >= 0) {
    if (pkt->stream_index == index && avcodec_send_packet(ctx, pkt) == 0) drain();
    av_packet_unref(pkt);
  }
  avcodec_send_packet(ctx, nullptr);
  drain();
  av_frame_free(&frame);
  av_packet_free(&pkt);
  avcodec_free_context(&ctx);
  return frames;
}

}  // namespace

ProbedVideo probe_video(const std::string& bytes) {
  ProbedVideo out;
  char path[] = "/tmp/sb-video-probe-XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) return out;
  close(fd);
  std::ofstream(path, std::ios::binary) << bytes;
  AVFormatContext* f = nullptr;
  if (avformat_open_input(&f, path, nullptr, nullptr) < 0 ||
      avformat_find_stream_info(f, nullptr) < 0) {
    avformat_close_input(&f);
    out.error = "does not open";
    std::remove(path);
    return out;
  }
  out.container = f->iformat->name;
  out.duration_s = static_cast<double>(f->duration) / AV_TIME_BASE;
  int video = -1;
  for (unsigned i = 0; i < f->nb_streams; ++i) {
    const AVStream* st = f->streams[i];
    const AVCodecParameters* par = st->codecpar;
    if (par->codec_type == AVMEDIA_TYPE_VIDEO && video < 0) {
      video = static_cast<int>(i);
      out.video_codec = avcodec_get_name(par->codec_id);
      out.width = par->width;
      out.height = par->height;
      out.fps = av_q2d(st->avg_frame_rate);
    } else if (par->codec_type == AVMEDIA_TYPE_AUDIO) {
      out.audio_codec = avcodec_get_name(par->codec_id);
      out.sample_rate = par->sample_rate;
      out.channels = par->ch_layout.nb_channels;
    }
  }
  if (video >= 0) out.video_frames = decode_frames(f, video, &out);
  avformat_close_input(&f);
  std::remove(path);
  out.ok = video >= 0 && out.video_frames > 0;
  return out;
}

}  // namespace servebench::media::testing
