#include "endpoints/video_parser.h"

#include "endpoints/json_walk.h"
#include "endpoints/whole_answer.h"

namespace servebench::endpoints {

namespace {

enum StepKind : int32_t { kSubmit = 0, kPoll = 1, kDownload = 2 };

// What one job object carried; views point into the walker's buffers.
struct Job {
  std::string_view id;
  std::string_view status;
  std::string_view url;
  double inference_s = -1;
  double peak_memory_mb = -1;
  json::ErrorFields error;
};

json::error_code opt_number(json::value v, double* out) {
  json::json_type t;
  if (auto e = v.type().get(t)) return e;
  if (t != json::json_type::number) return simdjson::SUCCESS;
  return v.get_double().get(*out);
}

bool is_http_url(std::string_view u) {
  return u.starts_with("http://") || u.starts_with("https://");
}

void add_chunk(int64_t recv_ns, record::RequestRecord* rec) {
  mark_answer_arrival(rec, recv_ns);
}

class VideoParser final : public EventParser {
 public:
  VideoParser(int64_t poll_interval_ns, bool download)
      : poll_interval_ns_(poll_interval_ns), download_(download) {}

  ParseStatus parse_event(const SseEventView& event, int64_t recv_ns,
                          record::RequestRecord* rec) override {
    FollowUp ignored;
    return parse_step(event.data, recv_ns, StepContext{}, rec, &ignored);
  }

  ParseStatus parse_body(std::string_view body, int64_t recv_ns,
                         record::RequestRecord* rec) override {
    FollowUp ignored;
    return parse_step(body, recv_ns, StepContext{}, rec, &ignored);
  }

  ParseStatus parse_step(std::string_view body, int64_t recv_ns, const StepContext& ctx,
                         record::RequestRecord* rec, FollowUp* next) override {
    next->url.clear();
    if (ctx.kind == kDownload) {
      if (body.empty()) return set_malformed(body, rec, "the video download returned no bytes");
      return ParseStatus::kOk;
    }
    const std::string_view json = trim_json_space(body);
    if (json.empty()) return set_malformed(body, rec, "empty video job response");
    Job job;
    const json::error_code e =
        walker_.walk_object(json, [&](json::raw_json_string key, json::value v) {
          if (key == "id") return json::opt_string(v, &job.id);
          if (key == "status") return json::opt_string(v, &job.status);
          if (key == "url") return json::opt_string(v, &job.url);
          if (key == "inference_time_s") return opt_number(v, &job.inference_s);
          if (key == "peak_memory_mb") return opt_number(v, &job.peak_memory_mb);
          return json::read_error_field(key, v, &job.error);
        });
    if (e) return set_malformed(json, rec, simdjson::error_message(e));
    if (job.status == "failed") {
      return set_server_error(job.error.message(), json, rec, "video generation failed: ");
    }
    if (job.error.is_error) return set_server_error(job.error.message(), json, rec);
    if (ctx.kind == kSubmit) {
      if (job.id.empty()) return set_malformed(json, rec, "video job response without an id");
      add_chunk(recv_ns, rec);
      next->url.assign(ctx.base_url).append("/").append(job.id);
      next->kind = kPoll;
      return ParseStatus::kOk;
    }
    if (job.status != "completed") {
      next->url.assign(ctx.step_url);
      next->delay_ns = poll_interval_ns_;
      next->kind = kPoll;
      return ParseStatus::kOk;
    }
    rec->video_inference_s = job.inference_s;
    rec->video_peak_memory_mb = job.peak_memory_mb;
    rec->output_items = 1;
    add_chunk(recv_ns, rec);
    if (download_) {
      if (is_http_url(job.url)) {
        next->url.assign(job.url);
      } else {
        next->url.assign(ctx.step_url).append("/content");
      }
      next->kind = kDownload;
    }
    return ParseStatus::kOk;
  }

 private:
  int64_t poll_interval_ns_;
  bool download_;
  json::JsonWalker walker_;
};

}  // namespace

std::unique_ptr<EventParser> make_video_parser(int64_t poll_interval_ns, bool download) {
  return std::make_unique<VideoParser>(poll_interval_ns, download);
}

}  // namespace servebench::endpoints
