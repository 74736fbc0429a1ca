// Maps a finished libcurl transfer's CURLcode to record::ErrorKind (transport-internal).
//
//   connect  COULDNT_CONNECT, COULDNT_RESOLVE_*, and OPERATION_TIMEDOUT before the request
//            timeout elapsed (the connect timeout)
//   tls      SSL_* / PEER_FAILED_VERIFICATION / USE_SSL_FAILED, and a timeout on an https://
//            transfer that connected over TCP but never finished the TLS handshake
//   timeout  OPERATION_TIMEDOUT once the whole-request timeout elapsed
//   reset    RECV_ERROR, SEND_ERROR, PARTIAL_FILE, GOT_NOTHING, HTTP2, HTTP2_STREAM
//   other    everything else
#pragma once

#include <curl/curl.h>

#include <cstdint>

#include "record/request_record.h"

namespace servebench::transport {

// libcurl's process-wide initialization, once, from whichever transport piece needs it first.
void curl_global_init_once();

record::ErrorKind curl_error_kind(CURLcode code, CURL* easy, bool https, int64_t request_timeout_ns,
                                  int64_t elapsed_ns);

}  // namespace servebench::transport
