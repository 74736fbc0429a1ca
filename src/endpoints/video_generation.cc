// `video_generation`: asynchronous text-to-video jobs (/v1/videos), as OpenAI's video API and
// SGLang's diffusion server (Wan, HunyuanVideo) serve them. One logical request is a job: POST
// the prompt, poll GET /v1/videos/{id} until it is completed or failed, and with
// --download-video-content GET the video itself (video_parser.h). The poll interval is AIPerf's
// AIPERF_HTTP_VIDEO_POLL_INTERVAL (seconds, 0.001 to 10, default 0.1); a job that is not done
// within --request-timeout-seconds fails as a timeout. Metrics: request latency (submit to the
// last answer), ISL of the prompt, request throughput, and the server-reported
// video_inference_time and video_peak_memory (AIPerf's "Video Generation Metrics").
//
// Body (keys in this order; extra members replace a standard key of the same name and the rest
// are appended, a turn's own extras after --extra-inputs):
//   {"prompt":"<first input text>","model":..,<extras such as size, seconds, fps, num_frames>}
#include <cstdlib>

#include "core/env.h"
#include "endpoints/chatlike_body.h"
#include "endpoints/json_text.h"
#include "endpoints/registry.h"
#include "endpoints/single_turn_checks.h"
#include "endpoints/video_parser.h"

namespace servebench::endpoints {
namespace {

constexpr int64_t kDefaultPollIntervalNs = 100'000'000;

class VideoGenerationEndpoint final : public Endpoint {
 public:
  VideoGenerationEndpoint(const EndpointOptions& options, BodyExtras extras,
                          int64_t poll_interval_ns)
      : extras_(std::move(extras)),
        poll_interval_ns_(poll_interval_ns),
        download_(options.download_video_content) {
    append_json_string(options.model, &default_model_json_);
  }

  std::string_view name() const override { return "video_generation"; }
  std::string_view default_path() const override { return "/v1/videos"; }

  std::string render_body(const TurnPayload& turn) const override {
    const std::string_view prompt =
        turn.messages.empty() ? std::string_view() : std::string_view(turn.messages[0].content);
    std::string out;
    out.reserve(prompt.size() + default_model_json_.size() + 32);
    BodyWriter w(extras_, turn_extras(turn), &out);
    if (w.begin("prompt")) append_json_string(prompt, &out);
    if (w.begin("model")) {
      if (turn.model.empty()) {
        out.append(default_model_json_);
      } else {
        append_json_string(turn.model, &out);
      }
    }
    w.finish();
    return out;
  }

  std::unique_ptr<EventParser> make_parser() const override {
    return make_video_parser(poll_interval_ns_, download_);
  }

 private:
  BodyExtras extras_;
  std::string default_model_json_;
  int64_t poll_interval_ns_;
  bool download_;
};

// AIPERF_HTTP_VIDEO_POLL_INTERVAL, in seconds as AIPerf reads it.
Result<int64_t> poll_interval_ns() {
  const auto& text = core::env().get(core::EnvVar::kAiperfHttpVideoPollInterval);
  if (!text) return kDefaultPollIntervalNs;
  char* end = nullptr;
  const double s = std::strtod(text->c_str(), &end);
  if (text->empty() || end != text->c_str() + text->size() || !(s >= 0.001 && s <= 10.0)) {
    return make_error(ErrorCode::kInvalidArgument,
                      "AIPERF_HTTP_VIDEO_POLL_INTERVAL='" + *text +
                          "': want seconds between video job polls, from 0.001 to 10 "
                          "(e.g. 0.1)");
  }
  return static_cast<int64_t>(s * 1e9 + 0.5);
}

const EndpointSpec kVideoGenerationSpec{
    .name = "video_generation",
    .default_path = "/v1/videos",
    .capabilities = core::kCapTokenizesInput | core::kCapPolls | core::kCapProducesVideo,
    .metrics_title = "Video Generation Metrics",
    .artifact_name = "openai-video_generation",
    .batches_texts = false,
    .make_endpoint = [](const EndpointOptions& o) -> Result<std::unique_ptr<Endpoint>> {
      auto extras = BodyExtras::parse(o.extra_inputs_json, "--extra-inputs");
      if (!extras) return tl::unexpected(extras.error());
      auto interval = poll_interval_ns();
      if (!interval) return tl::unexpected(interval.error());
      return std::unique_ptr<Endpoint>(
          std::make_unique<VideoGenerationEndpoint>(o, std::move(*extras), *interval));
    },
    .make_parser = [] { return make_video_parser(kDefaultPollIntervalNs, false); },
    .check = [](const OptionFacts& f) { return check_single_text_turn("video_generation", f); },
};

const EndpointRegistrar kRegistrar{kVideoGenerationSpec};

}  // namespace
}  // namespace servebench::endpoints
