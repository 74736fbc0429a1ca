#include "transport/curl_error_kind.h"

#include <gtest/gtest.h>

namespace servebench::transport {
namespace {

using record::ErrorKind;

TEST(CurlErrorKind, MapsCodes) {
  EXPECT_EQ(curl_error_kind(CURLE_OK, nullptr, false, 0, 0), ErrorKind::kNone);
  EXPECT_EQ(curl_error_kind(CURLE_COULDNT_CONNECT, nullptr, false, 0, 0), ErrorKind::kConnect);
  EXPECT_EQ(curl_error_kind(CURLE_COULDNT_RESOLVE_HOST, nullptr, false, 0, 0), ErrorKind::kConnect);
  EXPECT_EQ(curl_error_kind(CURLE_PEER_FAILED_VERIFICATION, nullptr, true, 0, 0), ErrorKind::kTls);
  EXPECT_EQ(curl_error_kind(CURLE_SSL_CONNECT_ERROR, nullptr, true, 0, 0), ErrorKind::kTls);
  EXPECT_EQ(curl_error_kind(CURLE_PARTIAL_FILE, nullptr, false, 0, 0), ErrorKind::kStreamReset);
  EXPECT_EQ(curl_error_kind(CURLE_RECV_ERROR, nullptr, false, 0, 0), ErrorKind::kStreamReset);
  EXPECT_EQ(curl_error_kind(CURLE_GOT_NOTHING, nullptr, false, 0, 0), ErrorKind::kStreamReset);
  EXPECT_EQ(curl_error_kind(CURLE_HTTP2_STREAM, nullptr, false, 0, 0), ErrorKind::kStreamReset);
  EXPECT_EQ(curl_error_kind(CURLE_WRITE_ERROR, nullptr, false, 0, 0), ErrorKind::kOther);
}

TEST(CurlErrorKind, TimeoutsSplitByWhatElapsed) {
  // The whole-request timeout elapsed (within libcurl's 1 ms rounding).
  EXPECT_EQ(curl_error_kind(CURLE_OPERATION_TIMEDOUT, nullptr, false, 2'000'000'000, 1'999'500'000),
            ErrorKind::kTimeout);
  // Earlier than the request timeout: the connect timeout.
  EXPECT_EQ(curl_error_kind(CURLE_OPERATION_TIMEDOUT, nullptr, false, 2'000'000'000, 500'000'000),
            ErrorKind::kConnect);
  EXPECT_EQ(curl_error_kind(CURLE_OPERATION_TIMEDOUT, nullptr, false, 0, 500'000'000), ErrorKind::kConnect);
  // A handle that never connected: connect, even for https.
  CURL* easy = curl_easy_init();
  EXPECT_EQ(curl_error_kind(CURLE_OPERATION_TIMEDOUT, easy, true, 0, 500'000'000), ErrorKind::kConnect);
  curl_easy_cleanup(easy);
}

}  // namespace
}  // namespace servebench::transport
