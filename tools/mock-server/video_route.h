// The video generation routes of servebench-mock: asynchronous jobs, as OpenAI's video API and
// SGLang's diffusion server answer them.
//   POST /v1/videos {"prompt":"..","model":..,"size":"WxH","seconds":S,...}
//        → {"id":"video_<hex>","object":"video","status":"queued","progress":0,"model":..,
//           "created_at":s,"size":..,"seconds":..}
//   GET  /v1/videos/{id} → the job object at that moment: "queued" until the latency model's
//        TTFT for the prompt, then "in_progress" with progress 100 × k / --video-steps after k
//        steps of --itl-ms each, then "completed" with "completed_at", "url" (its content path),
//        "inference_time_s" (the steps' time: steps × --itl-ms) and "peak_memory_mb"
//        (2048 + 8 × steps); a failed job has "status":"failed","error":{"code","message"}.
//   GET  /v1/videos/{id}/content → --video-content-bytes bytes of video/mp4 (an ftyp box then
//        zeros) once completed; 404 for an unknown job, 409 before it completes.
// Faults: a request drawn by --error-rate gets --error-kind; http500/http429 answer the submit
// with that status, any other kind makes the job end "failed" at its due time.
// --record lines: one per submit (kind "submit": prompt_tokens, id, due_ms, inference_time_s,
// peak_memory_mb, fault), one per poll (kind "poll": id, status) and per download (kind
// "content": id, bytes).
//
// Thread safety: VideoJobs is shared by every event loop and locks internally; the parser is a
// pure function.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "core/result.h"
#include "text_source.h"

namespace servebench::mock {

struct VideoRequest {
  std::string model;  // "" when absent
  int64_t prompt_tokens = 0;
  std::string size;     // as given ("" when absent)
  std::string seconds;  // as given, number or string ("" when absent)
};

// Errors (→ HTTP 400, one line naming the field): invalid JSON, a non-object body, a missing or
// empty prompt.
Result<VideoRequest> parse_video_request(std::string_view body, const TokenCounter& counter);

struct VideoJob {
  std::string model_json;
  std::string size, seconds;
  int64_t created_s = 0;
  int64_t start_ns = 0;  // steady: generation starts (after the TTFT)
  int64_t due_ns = 0;    // steady: the job is finished
  int64_t steps = 0;
  bool fails = false;
  int64_t polls = 0;
};

class VideoJobs {
 public:
  void add(const std::string& id, VideoJob job);
  // A copy of the job with its poll counter advanced when `poll`; nullopt when unknown.
  std::optional<VideoJob> get(const std::string& id, bool poll);

 private:
  std::mutex mu_;
  std::unordered_map<std::string, VideoJob> jobs_;
};

// The job object at steady time `now_ns` (see the file comment).
std::string video_job_json(const std::string& id, const VideoJob& job, int64_t now_ns,
                           int64_t created_wall_s);
// "queued", "in_progress", "completed" or "failed" at `now_ns`.
const char* video_status(const VideoJob& job, int64_t now_ns);

}  // namespace servebench::mock
