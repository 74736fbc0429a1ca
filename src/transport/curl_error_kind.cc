#include "transport/curl_error_kind.h"

#include "control/control_client.h"

namespace servebench::transport {

using record::ErrorKind;

// One global init for the whole process: the control client's (sb_control) is the one.
void curl_global_init_once() { control::curl_global_init_once(); }

ErrorKind curl_error_kind(CURLcode code, CURL* easy, bool https, int64_t request_timeout_ns,
                          int64_t elapsed_ns) {
  switch (code) {
    case CURLE_OK:
      return ErrorKind::kNone;
    case CURLE_COULDNT_CONNECT:
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
      return ErrorKind::kConnect;
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
    case CURLE_SSL_INVALIDCERTSTATUS:
    case CURLE_SSL_CRL_BADFILE:
    case CURLE_SSL_ENGINE_NOTFOUND:
    case CURLE_SSL_ENGINE_SETFAILED:
    case CURLE_SSL_ENGINE_INITFAILED:
    case CURLE_SSL_SHUTDOWN_FAILED:
    case CURLE_USE_SSL_FAILED:
      return ErrorKind::kTls;
    case CURLE_OPERATION_TIMEDOUT: {
      // libcurl rounds its timeout to ms: allow 1 ms.
      if (request_timeout_ns > 0 && elapsed_ns >= request_timeout_ns - 1'000'000) return ErrorKind::kTimeout;
      curl_off_t connect_us = 0, appconnect_us = 0;
      if (easy) {
        curl_easy_getinfo(easy, CURLINFO_CONNECT_TIME_T, &connect_us);
        curl_easy_getinfo(easy, CURLINFO_APPCONNECT_TIME_T, &appconnect_us);
      }
      if (https && connect_us > 0 && appconnect_us == 0) return ErrorKind::kTls;
      return ErrorKind::kConnect;
    }
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_PARTIAL_FILE:
    case CURLE_GOT_NOTHING:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
      return ErrorKind::kStreamReset;
    default:
      return ErrorKind::kOther;
  }
}

}  // namespace servebench::transport
