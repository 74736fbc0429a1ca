// Test oracle: the Boost.Beast 1.74 basic_parser wrapper that Http1ResponseParser replaced, kept
// to check the hand-written parser against (http1_response_parser_diff_test.cc). Include it
// first in its own test executable: Beast asserts (BOOST_ASSERT) that a final chunk re-presented
// after need_more comes with at least 5 bytes, but a legal split ("0\r\n" then one byte) presents
// 4; the code path is correct without the assert, so asserts are off here.
#pragma once
#define BOOST_DISABLE_ASSERTS 1

#include <boost/beast/http/basic_parser.hpp>
#include <boost/beast/http/error.hpp>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include "transport/http1_response_parser.h"

namespace servebench::transport::testing {

namespace http = boost::beast::http;

class BeastParser final : public http::basic_parser<false> {
 public:
  explicit BeastParser(Http1ResponseParser::Sink* sink) : sink_(sink) {
    eager(true);
    // Streams may be arbitrarily long. (Not boost::none: Boost 1.74 compares the content length
    // against the optional itself, and anything > none, so none rejects every sized body.)
    body_limit(std::numeric_limits<std::uint64_t>::max());
    header_limit(64 * 1024);
  }
  int status = 0;

 private:
  void on_request_impl(http::verb, boost::beast::string_view, boost::beast::string_view, int,
                       boost::beast::error_code&) override {}
  void on_response_impl(int code, boost::beast::string_view, int, boost::beast::error_code&) override {
    status = code;
  }
  void on_field_impl(http::field, boost::beast::string_view, boost::beast::string_view,
                     boost::beast::error_code&) override {}
  void on_header_impl(boost::beast::error_code&) override {
    if (status >= 200 || status < 100) sink_->on_response_headers(status);
  }
  void on_body_init_impl(boost::optional<std::uint64_t> const&, boost::beast::error_code&) override {}
  std::size_t on_body_impl(boost::beast::string_view body, boost::beast::error_code&) override {
    sink_->on_response_body(std::string_view(body.data(), body.size()));
    return body.size();
  }
  void on_chunk_header_impl(std::uint64_t, boost::beast::string_view, boost::beast::error_code&) override {}
  std::size_t on_chunk_body_impl(std::uint64_t, boost::beast::string_view body,
                                 boost::beast::error_code&) override {
    sink_->on_response_body(std::string_view(body.data(), body.size()));
    return body.size();
  }
  void on_finish_impl(boost::beast::error_code&) override {}

  Http1ResponseParser::Sink* sink_;
};


// The same interface as Http1ResponseParser, on Beast.
class BeastResponseOracle {
 public:
  void start(Http1ResponseParser::Sink* sink) {
    sink_ = sink;
    parser_.emplace(sink);
    pending_.clear();
    done_ = false;
  }

  size_t feed(std::string_view bytes, std::string* error) {
    if (done_) return 0;
    const bool direct = pending_.empty();
    if (!direct) pending_.append(bytes);
    std::string_view buf = direct ? bytes : std::string_view(pending_);
    size_t used = 0;
    while (used < buf.size()) {
      boost::beast::error_code ec;
      size_t n = parser_->put(boost::asio::const_buffer(buf.data() + used, buf.size() - used), ec);
      used += n;
      if (ec == http::error::need_more) break;
      if (ec) {
        *error = ec.message();
        return 0;
      }
      if (parser_->is_done()) {
        if (parser_->status >= 100 && parser_->status < 200) {
          parser_.emplace(sink_);
          continue;
        }
        done_ = true;
        break;
      }
      if (n == 0) break;
    }
    if (direct) {
      if (!done_ && used < buf.size()) pending_.assign(buf.substr(used));
      return done_ ? used : bytes.size();
    }
    const size_t old_pending = pending_.size() - bytes.size();
    if (done_) {
      pending_.clear();
      return used > old_pending ? used - old_pending : 0;
    }
    pending_.erase(0, used);
    return bytes.size();
  }

  bool feed_eof() {
    if (done_) return true;
    if (!parser_->is_header_done() || !pending_.empty()) return false;
    boost::beast::error_code ec;
    parser_->put_eof(ec);
    if (ec || !parser_->is_done()) return false;
    done_ = true;
    return true;
  }

  bool done() const { return done_; }
  bool keep_alive() const { return done_ && parser_->keep_alive(); }

 private:
  std::optional<BeastParser> parser_;
  Http1ResponseParser::Sink* sink_ = nullptr;
  std::string pending_;
  bool done_ = false;
};

}  // namespace servebench::transport::testing
