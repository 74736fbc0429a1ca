#include "control/control_client.h"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <mutex>

#include "core/clock.h"
#include "core/interrupt.h"
#include "core/units.h"

namespace servebench::control {
namespace {

struct SlistDeleter {
  void operator()(curl_slist* l) const { curl_slist_free_all(l); }
};

// What the callbacks fill in during one transfer.
struct Transfer {
  const ControlRequest* request = nullptr;
  ControlResponse response;
  int answers = -1;  // index of the answer whose headers arrive
  bool too_large = false;
  int64_t streamed = 0;  // body bytes delivered (max_streamed_bytes)
};

size_t on_body(char* data, size_t size, size_t n, void* user) {
  auto* t = static_cast<Transfer*>(user);
  const size_t bytes = size * n;
  const int64_t cap = t->request->max_streamed_bytes;
  if (!t->request->keep_body && cap > 0 && t->streamed + static_cast<int64_t>(bytes) > cap) {
    t->too_large = true;
    return 0;
  }
  t->streamed += static_cast<int64_t>(bytes);
  if (t->request->on_body) t->request->on_body(std::string_view(data, bytes));
  if (!t->request->keep_body) return bytes;
  if (static_cast<int64_t>(t->response.body.size() + bytes) > t->request->max_body_bytes) {
    t->too_large = true;
    return 0;  // makes libcurl fail the transfer with CURLE_WRITE_ERROR
  }
  t->response.body.append(data, bytes);
  return bytes;
}

size_t on_header(char* data, size_t size, size_t n, void* user) {
  auto* t = static_cast<Transfer*>(user);
  const std::string_view line(data, size * n);
  if (line.starts_with("HTTP/")) {
    ++t->answers;  // a new answer (after a redirect or a 100 Continue)
    t->response.body.clear();
    t->streamed = 0;
    return size * n;
  }
  const size_t colon = line.find(':');
  if (colon == std::string_view::npos) return size * n;
  ControlHeader h;
  h.response = std::max(0, t->answers);
  for (char c : core::trim(line.substr(0, colon)))
    h.name.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  h.value = std::string(core::trim(line.substr(colon + 1)));
  t->response.headers.push_back(std::move(h));
  return size * n;
}

// Aborts the transfer once the process is interrupted (libcurl calls this about every second
// while idle and on every chunk; CURLOPT_XFERINFOFUNCTION returning non-zero aborts).
int on_progress(void*, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  return core::interrupt_requested() ? 1 : 0;
}

long to_ms(int64_t ns) {
  return static_cast<long>(std::max<int64_t>(1, (ns + core::kNsPerMs - 1) / core::kNsPerMs));
}

void set_options(CURL* e, const ControlRequest& r, curl_slist* headers, Transfer* t,
                 char* error_buf) {
  curl_easy_setopt(e, CURLOPT_URL, r.url.c_str());
  if (r.method == Method::kPost || r.method == Method::kPut) {
    curl_easy_setopt(e, CURLOPT_POST, 1L);
    curl_easy_setopt(e, CURLOPT_POSTFIELDS, r.body.c_str());
    curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(r.body.size()));
  } else {
    curl_easy_setopt(e, CURLOPT_HTTPGET, 1L);
  }
  // A PUT is a POST with the method renamed (the handle is reused: reset it otherwise).
  curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, r.method == Method::kPut ? "PUT" : nullptr);
  curl_easy_setopt(e, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, to_ms(r.timeout_ns));
  curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS,
                   to_ms(r.connect_timeout_ns > 0 ? std::min(r.connect_timeout_ns, r.timeout_ns)
                                                  : r.timeout_ns));
  curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
  // "" disables proxies, including those libcurl would take from the environment.
  if (!r.use_env_proxy) curl_easy_setopt(e, CURLOPT_PROXY, "");
  curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, r.max_redirects > 0 ? 1L : 0L);
  curl_easy_setopt(e, CURLOPT_MAXREDIRS, static_cast<long>(r.max_redirects));
  curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, r.verify_tls ? 1L : 0L);
  curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, r.verify_tls ? 2L : 0L);
  curl_easy_setopt(e, CURLOPT_USERAGENT, r.user_agent.c_str());
  curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, &on_body);
  curl_easy_setopt(e, CURLOPT_WRITEDATA, t);
  curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, &on_header);
  curl_easy_setopt(e, CURLOPT_HEADERDATA, t);
  curl_easy_setopt(e, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(e, CURLOPT_XFERINFOFUNCTION, &on_progress);
  curl_easy_setopt(e, CURLOPT_ERRORBUFFER, error_buf);
}

// The request's header list: the caller's lines, and for a POST no "Expect: 100-continue" and,
// for an empty body, no Content-Type unless the caller set one (libcurl would claim a form).
curl_slist* header_list(const ControlRequest& r) {
  curl_slist* list = nullptr;
  bool has_content_type = false;
  for (const auto& h : r.headers) {
    list = curl_slist_append(list, h.c_str());
    const std::string_view name = std::string_view(h).substr(0, h.find(':'));
    has_content_type |= name.size() == 12 &&
                        std::equal(name.begin(), name.end(), "content-type", [](char a, char b) {
                          return std::tolower(static_cast<unsigned char>(a)) == b;
                        });
  }
  if (r.method == Method::kPost || r.method == Method::kPut) {
    if (r.body.empty() && !has_content_type) list = curl_slist_append(list, "Content-Type:");
    list = curl_slist_append(list, "Expect:");
  }
  return list;
}

Error transfer_error(CURLcode rc, const Transfer& t, const char* error_buf) {
  const std::string detail = error_buf[0] ? error_buf : curl_easy_strerror(rc);
  if (t.too_large)
    return Error{ErrorCode::kNetwork,
                 "the answer is larger than " +
                     std::to_string(t.request->keep_body ? t.request->max_body_bytes : t.request->max_streamed_bytes) +
                     " bytes"};
  switch (rc) {
    case CURLE_OPERATION_TIMEDOUT:
      return Error{ErrorCode::kTimeout, detail};
    case CURLE_ABORTED_BY_CALLBACK:
      return Error{ErrorCode::kInterrupted, "interrupted"};
    case CURLE_URL_MALFORMAT:
    case CURLE_UNSUPPORTED_PROTOCOL:
      return Error{ErrorCode::kInvalidArgument, detail};
    default:
      return Error{ErrorCode::kNetwork, detail};
  }
}

}  // namespace

void curl_global_init_once() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

std::string ControlResponse::header(std::string_view lower_name) const {
  const int last = headers.empty() ? 0 : headers.back().response;
  for (const auto& h : headers)
    if (h.response == last && h.name == lower_name) return h.value;
  return "";
}

struct ControlClient::Impl {
  CURL* easy = nullptr;
};

ControlClient::ControlClient() : impl_(std::make_unique<Impl>()) {}

ControlClient::~ControlClient() {
  if (impl_->easy) curl_easy_cleanup(impl_->easy);
}

Result<ControlResponse> ControlClient::fetch(const ControlRequest& request) {
  if (core::interrupt_requested()) return make_error(ErrorCode::kInterrupted, "interrupted");
  curl_global_init_once();
  if (!impl_->easy) impl_->easy = curl_easy_init();
  if (!impl_->easy) return make_error(ErrorCode::kInternal, "curl_easy_init failed");
  CURL* e = impl_->easy;
  // Options of the previous request must not leak into this one; the connection cache stays.
  curl_easy_reset(e);
  Transfer t;
  t.request = &request;
  std::unique_ptr<curl_slist, SlistDeleter> headers(header_list(request));
  char error_buf[CURL_ERROR_SIZE] = {0};
  set_options(e, request, headers.get(), &t, error_buf);
  const core::Clock& clock = core::SteadyClock::instance();
  const int64_t t0 = clock.now_ns();
  const CURLcode rc = curl_easy_perform(e);
  t.response.elapsed_ns = clock.now_ns() - t0;
  // error_buf lives on this frame: libcurl must not keep the pointer past it.
  curl_easy_setopt(e, CURLOPT_ERRORBUFFER, nullptr);
  if (rc != CURLE_OK) return tl::unexpected(transfer_error(rc, t, error_buf));
  long status = 0;
  curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &status);
  t.response.http_status = static_cast<int>(status);
  return std::move(t.response);
}

Result<ControlResponse> fetch_once(const ControlRequest& request) {
  ControlClient client;
  return client.fetch(request);
}

}  // namespace servebench::control
