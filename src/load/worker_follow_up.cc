// Multi-step requests (endpoints::FollowUp): a job submitted, then polled, then maybe
// downloaded, all on one record and one in-flight slot. Each step waits on a loop timer, so the
// worker keeps serving its other requests while a job runs.
#include <fmt/format.h>

#include "load/worker.h"
#include "load/worker_internal.h"

namespace servebench::load {

void Worker::follow_up(Request* req, endpoints::FollowUp next) {
  const int64_t now = clock_.now_ns();
  const int64_t timeout = settings_.request_timeout_ns;
  if (timeout > 0 && now + next.delay_ns - req->rec.request_start_ns > timeout) {
    // on_complete already ran for this step: finish the record here.
    req->rec.error = record::ErrorKind::kTimeout;
    req->rec.error_message = fmt::format(
        "the job was not finished {:.3f} s after it was submitted (--request-timeout-seconds)",
        static_cast<double>(timeout) / 1e9);
    return finish(req);
  }
  ++req->step;
  req->step_kind = next.kind;
  req->step_url = std::move(next.url);
  req->follow_up_armed = true;
  req->follow_up_timer = loop_->add_timer(now + next.delay_ns, [this, req] {
    req->follow_up_armed = false;
    send_follow_up(req, req->step_url);
  });
}

void Worker::send_follow_up(Request* req, const std::string& url) {
  req->completed = false;
  req->body.clear();
  req->last_recv_ns = 0;
  req->rec.http_status = 0;
  transport::HttpRequest http;
  http.url = url;
  http.method = "GET";
  http.headers = settings_.headers;
  http.headers.push_back("X-Request-ID: " + req->rec.x_request_id);
  http.headers.push_back(settings_.session_header + ": " + req->rec.x_correlation_id);
  http.timeout_ns = settings_.request_timeout_ns;
  http.fresh_connection = settings_.reuse == ConnectionReuse::kNever;
  auto started = client_->start(http, req);
  if (started) {
    req->transfer = *started;
  } else if (!req->completed) {
    const auto kind = started.error().code == ErrorCode::kNetwork ? record::ErrorKind::kConnect
                                                                   : record::ErrorKind::kOther;
    req->on_complete(kind, started.error().message, clock_.now_ns(), false);
  }
}

void Worker::cancel_waiting_step(Request* req, record::CancelReason reason) {
  loop_->cancel_timer(req->follow_up_timer);
  req->follow_up_armed = false;
  req->cancel_reason = reason;
  req->rec.cancel_ns = clock_.now_ns();
  req->completed = false;
  req->on_complete(record::ErrorKind::kCancelled, "cancelled", req->rec.cancel_ns, false);
}

}  // namespace servebench::load
