#include "video_route.h"

#include <simdjson.h>

#include <algorithm>
#include <cstdio>

#include "json_line.h"
#include "prompt_request.h"
#include "session.h"

namespace servebench::mock {

namespace {

using simdjson::dom::element;

// The string or number at `key`, as text ("" when absent).
std::string text_of(element doc, const char* key) {
  element v;
  if (doc[key].get(v) != simdjson::SUCCESS) return {};
  if (v.is_string()) return std::string(v.get_string().value_unsafe());
  if (v.is_int64()) return std::to_string(v.get_int64().value_unsafe());
  if (v.is_double()) return std::to_string(v.get_double().value_unsafe());
  return {};
}

double peak_memory_mb(const VideoJob& job) { return 2048.0 + 8.0 * static_cast<double>(job.steps); }

}  // namespace

Result<VideoRequest> parse_video_request(std::string_view body, const TokenCounter& counter) {
  simdjson::dom::parser parser;
  SB_TRY_ASSIGN(PromptRequest base, parse_prompt_request(parser, body, counter));
  const element doc = base.doc;
  VideoRequest out;
  out.model = std::move(base.model);
  out.prompt_tokens = base.prompt_tokens;
  out.size = text_of(doc, "size");
  out.seconds = text_of(doc, "seconds");
  return out;
}

void VideoJobs::add(const std::string& id, VideoJob job) {
  std::lock_guard<std::mutex> lock(mu_);
  jobs_[id] = std::move(job);
}

std::optional<VideoJob> VideoJobs::get(const std::string& id, bool poll) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = jobs_.find(id);
  if (it == jobs_.end()) return std::nullopt;
  if (poll) ++it->second.polls;
  return it->second;
}

const char* video_status(const VideoJob& job, int64_t now_ns) {
  if (now_ns >= job.due_ns) return job.fails ? "failed" : "completed";
  return now_ns < job.start_ns ? "queued" : "in_progress";
}

std::string video_job_json(const std::string& id, const VideoJob& job, int64_t now_ns,
                           int64_t created_wall_s) {
  const std::string_view status = video_status(job, now_ns);
  int64_t progress = 0;
  if (status == "completed") {
    progress = 100;
  } else if (status == "in_progress" && job.steps > 0) {
    const int64_t step_ns = (job.due_ns - job.start_ns) / job.steps;
    const int64_t done = step_ns > 0 ? (now_ns - job.start_ns) / step_ns : 0;
    progress = 100 * std::min(done, job.steps) / job.steps;
  }
  std::string out = "{\"id\":";
  append_json_string(id, &out);
  out.append(",\"object\":\"video\",\"status\":\"").append(status).append("\",\"progress\":");
  append_json_int(progress, &out);
  out.append(",\"model\":").append(job.model_json).append(",\"created_at\":");
  append_json_int(created_wall_s, &out);
  if (!job.size.empty()) out.append(",\"size\":").append(json_quote(job.size));
  if (!job.seconds.empty()) out.append(",\"seconds\":").append(json_quote(job.seconds));
  if (status == "completed") {
    char facts[128];
    std::snprintf(facts, sizeof(facts), ",\"inference_time_s\":%.6f,\"peak_memory_mb\":%.1f",
                  static_cast<double>(job.due_ns - job.start_ns) / 1e9, peak_memory_mb(job));
    out.append(",\"url\":").append(json_quote("/v1/videos/" + id + "/content")).append(facts);
  }
  if (status == "failed") {
    out.append(",\"error\":{\"code\":\"generation_failed\","
               "\"message\":\"mock injected job failure\"}");
  }
  out.push_back('}');
  return out;
}

void Session::handle_video_submit() {
  const auto& req = parser_->get();
  Generation g;
  if (!begin_generation(&g)) return;
  auto parsed = parse_video_request(req.body(), *state_.counter);
  if (!parsed) return answer_bad_request(parsed.error().message);
  uint64_t index = 0;
  core::Rng rng = draw_request(&g, &index);
  g.prompt_tokens = parsed->prompt_tokens;
  char id[64];
  std::snprintf(id, sizeof(id), "video_%016llx%08llx",
                static_cast<unsigned long long>(state_.config.seed),
                static_cast<unsigned long long>(index));
  g.head.id = id;
  g.head.created_s = state_.anchor.to_wall_ns(g.received_ns) / 1'000'000'000;
  g.head.model_json = parsed->model.empty() ? state_.model_json : json_quote(parsed->model);
  VideoJob job;
  job.model_json = g.head.model_json;
  job.size = parsed->size;
  job.seconds = parsed->seconds;
  job.created_s = g.head.created_s;
  job.steps = state_.config.video_steps;
  job.start_ns = g.received_ns + plan_events(g.knobs, g.prompt_tokens, 0, 0, rng).back().offset_ns;
  job.due_ns = job.start_ns + job.steps * g.knobs.itl_ns;
  job.fails = g.fault != FaultKind::kNone && g.fault != FaultKind::kHttp500 &&
              g.fault != FaultKind::kHttp429;
  if (state_.record) {
    JsonLine r;
    record_line_head(g, parsed->model, &r);
    char facts[64];
    std::snprintf(facts, sizeof(facts), "%.6f", static_cast<double>(job.due_ns - job.start_ns) / 1e9);
    r.str("kind", "submit")
        .num("prompt_tokens", g.prompt_tokens)
        .num("due_ms", (job.due_ns - g.received_ns) / 1'000'000)
        .raw("inference_time_s", facts)
        .raw("peak_memory_mb", std::to_string(peak_memory_mb(job)))
        .boolean("fails", job.fails)
        .str("x_request_id", g.x_request_id)
        .str("fault", fault_kind_name(g.fault))
        .str("id", g.head.id);
    state_.record->write_line(r.finish());
  }
  state_.metrics.prompt_tokens.fetch_add(g.prompt_tokens, std::memory_order_relaxed);
  const std::string body = video_job_json(id, job, g.received_ns, job.created_s);
  const bool http_fault = g.fault == FaultKind::kHttp500 || g.fault == FaultKind::kHttp429;
  if (!http_fault) state_.videos.add(id, std::move(job));
  gen_ = std::move(g);
  if (answer_http_fault()) return;
  gen_->status = 200;
  write_simple(200, "application/json", body);
}

void Session::handle_video_get(std::string_view rest) {
  const bool content = rest.ends_with("/content");
  const std::string id(content ? rest.substr(0, rest.size() - 8) : rest);
  auto job = state_.videos.get(id, !content);
  const int64_t now = now_ns();
  if (state_.record) {
    JsonLine r;
    r.str("kind", content ? "content" : "poll")
        .str("path", std::string(parser_->get().target()))
        .num("received_steady_ns", now)
        .str("id", id)
        .str("status", job ? video_status(*job, now) : "unknown")
        .num("bytes", content && job ? state_.config.video_content_bytes : 0);
    state_.record->write_line(r.finish());
  }
  if (!job) {
    return write_simple(404, "application/json",
                        error_body("no video job " + id, "NotFoundError", 404));
  }
  if (!content) {
    return write_simple(200, "application/json", video_job_json(id, *job, now, job->created_s));
  }
  if (std::string_view(video_status(*job, now)) != "completed") {
    return write_simple(409, "application/json",
                        error_body("video " + id + " is not completed", "ConflictError", 409));
  }
  std::string bytes(static_cast<size_t>(state_.config.video_content_bytes), '\0');
  static constexpr char kFtyp[] = "\0\0\0\x18" "ftypmp42\0\0\0\0mp42isom";
  bytes.replace(0, std::min(bytes.size(), sizeof(kFtyp) - 1), kFtyp,
                std::min(bytes.size(), sizeof(kFtyp) - 1));
  write_simple(200, "video/mp4", bytes);
}

}  // namespace servebench::mock
