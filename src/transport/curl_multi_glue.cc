// The libcurl client's multi_socket glue: curl says which fds to watch and when its one timer
// is due, the EventLoop calls back into curl_multi_socket_action, and finished transfers are
// reported from outside curl's callbacks (see curl_client.cc for the whole mapping).
#include <unistd.h>

#include <string>
#include <vector>

#include "transport/curl_client_internal.h"
#include "transport/curl_error_kind.h"

namespace servebench::transport::curl_internal {

int CurlClient::close_socket_cb(void* clientp, curl_socket_t fd) {
  auto* self = static_cast<CurlClient*>(clientp);
  self->forget_socket(fd);
  return close(fd);
}

int CurlClient::socket_cb(CURL*, curl_socket_t fd, int what, void* userp, void*) {
  auto* self = static_cast<CurlClient*>(userp);
  self->on_curl_socket(fd, what);
  return 0;
}

int CurlClient::timer_cb(CURLM*, long timeout_ms, void* userp) {
  static_cast<CurlClient*>(userp)->on_curl_timer(timeout_ms);
  return 0;
}

void CurlClient::on_curl_socket(int fd, int what) {
  if (static_cast<size_t>(fd) >= sock_state_.size()) sock_state_.resize(fd + 64, kUnwatched);
  if (what == CURL_POLL_REMOVE) {
    if (sock_state_[fd] == kActive) sock_state_[fd] = kParked;  // keep the registration
    return;
  }
  uint32_t interest = 0;
  if (what & CURL_POLL_IN) interest |= EventLoop::kReadable;
  if (what & CURL_POLL_OUT) interest |= EventLoop::kWritable;
  // Re-watching with an unchanged interest (a parked keep-alive fd reused) costs no syscall.
  Status s = loop_.watch(fd, interest, [this](int wfd, uint32_t ev) { on_fd_event(wfd, ev); });
  sock_state_[fd] = s ? kActive : kUnwatched;
}

void CurlClient::forget_socket(int fd) {
  if (fd >= 0 && static_cast<size_t>(fd) < sock_state_.size() && sock_state_[fd] != kUnwatched) {
    loop_.unwatch(fd);
    sock_state_[fd] = kUnwatched;
  }
}

void CurlClient::on_fd_event(int fd, uint32_t events) {
  if (static_cast<size_t>(fd) < sock_state_.size() && sock_state_[fd] == kParked) {
    // An idle pooled connection became readable (closed by the server, usually): stop
    // watching it; curl notices when it next checks the connection.
    loop_.unwatch(fd);
    sock_state_[fd] = kUnwatched;
    return;
  }
  int mask = 0;
  if (events & EventLoop::kReadable) mask |= CURL_CSELECT_IN;
  if (events & EventLoop::kWritable) mask |= CURL_CSELECT_OUT;
  if (events & EventLoop::kError) mask |= CURL_CSELECT_ERR;
  drive(fd, mask);
}

void CurlClient::on_curl_timer(long timeout_ms) {
  if (timeout_ms < 0) {
    curl_due_ns_ = 0;
    return;  // a pending loop timer fires harmlessly
  }
  const int64_t due = loop_.clock().now_ns() + static_cast<int64_t>(timeout_ms) * 1'000'000;
  curl_due_ns_ = due;
  if (timer_pending_ && timer_due_ns_ <= due) return;  // it fires first and re-arms
  if (timer_pending_) loop_.cancel_timer(timer_id_);
  timer_pending_ = true;
  timer_due_ns_ = due;
  timer_id_ = loop_.add_timer(due, [this] { on_loop_timer(); });
}

void CurlClient::on_loop_timer() {
  timer_pending_ = false;
  if (curl_due_ns_ == 0) return;
  const int64_t now = loop_.clock().now_ns();
  if (curl_due_ns_ > now) {
    timer_pending_ = true;
    timer_due_ns_ = curl_due_ns_;
    timer_id_ = loop_.add_timer(curl_due_ns_, [this] { on_loop_timer(); });
    return;
  }
  curl_due_ns_ = 0;
  drive(CURL_SOCKET_TIMEOUT, 0);
}

void CurlClient::drive(curl_socket_t fd, int mask) {
  int running = 0;
  ++callback_depth_;
  curl_multi_socket_action(multi_, fd, mask, &running);
  --callback_depth_;
  if (callback_depth_ > 0) return;
  while (!pending_adds_.empty() || !deferred_cancels_.empty()) {
    std::vector<TransferId> cancels;
    cancels.swap(deferred_cancels_);
    for (TransferId id : cancels) cancel(id);
    std::vector<TransferId> adds;
    adds.swap(pending_adds_);
    bool added = false;
    for (TransferId id : adds) added |= add_pending(id);
    if (added) {
      ++callback_depth_;
      curl_multi_socket_action(multi_, CURL_SOCKET_TIMEOUT, 0, &running);
      --callback_depth_;
    }
  }
  complete_finished();
}

bool CurlClient::add_pending(TransferId id) {
  auto it = transfers_.find(id);
  if (it == transfers_.end()) return false;  // cancelled meanwhile
  Transfer* t = it->second.get();
  t->start_ns = loop_.clock().now_ns();
  CURLMcode mc = curl_multi_add_handle(multi_, t->easy);
  if (mc == CURLM_OK) return true;
  std::unique_ptr<Transfer> owned = std::move(it->second);
  transfers_.erase(it);
  ResponseHandler* h = owned->handler;
  finish_and_recycle(std::move(owned));
  h->on_complete(ErrorKind::kOther, curl_multi_strerror(mc), loop_.clock().now_ns(), false);
  return false;
}

void CurlClient::harvest() {
  int left = 0;
  while (CURLMsg* msg = curl_multi_info_read(multi_, &left)) {
    if (msg->msg != CURLMSG_DONE) continue;
    Transfer* raw = nullptr;
    curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, &raw);
    done_.push_back(Done{raw->id, msg->data.result, loop_.clock().now_ns()});
  }
}

void CurlClient::complete_finished() {
  harvest();
  if (in_completions_) return;  // the outer loop below picks them up
  in_completions_ = true;
  for (size_t i = 0; i < done_.size(); ++i) {
    const Done d = done_[i];
    auto it = transfers_.find(d.id);
    if (it == transfers_.end()) continue;
    std::unique_ptr<Transfer> t = std::move(it->second);
    transfers_.erase(it);
    if (d.code == CURLE_OK && !t->headers_reported) report_headers(t.get());
    curl_multi_remove_handle(multi_, t->easy);
    const bool reused = connection_reused(t->easy);
    ErrorKind kind = curl_error_kind(d.code, t->easy, t->request.url.compare(0, 8, "https://") == 0,
                                     t->request.timeout_ns, d.end_ns - t->start_ns);
    std::string message;
    if (kind != ErrorKind::kNone) {
      message = t->error_buf[0] ? t->error_buf : curl_easy_strerror(d.code);
    }
    ResponseHandler* h = t->handler;
    if (t->aborted) kind = ErrorKind::kCancelled;
    finish_and_recycle(std::move(t));
    h->on_complete(kind, message, d.end_ns, reused);  // may start/cancel: done_ may grow
  }
  done_.clear();
  in_completions_ = false;
}

}  // namespace servebench::transport::curl_internal
