// Internal to the mock server (.cc files only): one HTTP connection and the server-wide state it
// shares with the others. Not part of the library's public interface (includes Asio/Beast).
//
// A Session lives on one event loop; all its handlers run on that loop's single thread, so it
// needs no locking. ServerState is shared by all loops: counters are atomics, the admission
// queue (--max-concurrency) is guarded by admit_mu, the record files lock internally.
#pragma once

#include <atomic>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>  // first: Boost 1.74's awaitable.hpp needs std::exchange under C++20
#include <vector>

// clang-format off
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
// clang-format on

#include "core/clock.h"
#include "core/rng.h"
#include "chatlike_stream.h"
#include "jsonl_writer.h"
#include "media_check.h"
#include "knobs.h"
#include "latency_model.h"
#include "metrics.h"
#include "options.h"
#include "rankings_route.h"
#include "request_parse.h"
#include "responses.h"
#include "text_source.h"
#include "video_route.h"

namespace servebench::mock {

class JsonLine;  // json_line.h

// Steady-clock ns: the clock the client stamps with, so ground-truth files compare directly.
inline int64_t now_ns() { return core::SteadyClock::instance().now_ns(); }

class Session;

struct ServerState {
  ServerConfig config;
  std::unique_ptr<TokenCounter> counter;
  OutputText text;
  MockMetrics metrics;
  std::unique_ptr<JsonlWriter> record;
  std::unique_ptr<JsonlWriter> truth;
  core::WallAnchor anchor;
  std::atomic<uint64_t> next_index{0};
  std::string model_json;
  std::string models_body;
  VideoJobs videos;  // video_route.h

  // Admission (--max-concurrency): `active` generations run; the rest wait in FIFO order.
  std::mutex admit_mu;
  int64_t active = 0;
  std::deque<std::shared_ptr<Session>> waiting;

  // Calls session->admitted() on its own loop now or when a slot frees.
  void request_admission(const std::shared_ptr<Session>& session);
  void release_admission();
};

class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(boost::asio::ip::tcp::socket socket, ServerState& state);
  void start();
  // Called (on this session's loop) when the generation may begin. The latency model's clock
  // starts at receipt, or at this call when the request had to wait in the queue.
  void admitted();
  // Called (on this session's loop) when the request joins the --max-concurrency queue.
  void mark_queued() { gen_->was_queued = true; }
  boost::asio::any_io_executor executor() { return socket_.get_executor(); }

 private:
  struct TruthEntry {
    int64_t steady_ns;
    int64_t due_ns;
    const char* kind;
    int32_t tokens;
  };
  // One generation request in progress.
  struct Generation {
    ApiKind kind = ApiKind::kChat;
    std::string path;
    bool stream = false;
    bool include_usage = false;
    bool continuous_usage = false;  // chat: cumulative usage on every token event
    int64_t prompt_tokens = 0;
    int64_t reasoning_tokens = 0;
    int64_t content_tokens = 0;
    const char* finish_reason = "length";
    RequestKnobs knobs;
    FaultKind fault = FaultKind::kNone;
    size_t fault_at = 0;  // index of the token event where a mid-stream fault strikes
    ResponseHead head;
    uint64_t text_start = 0;
    std::vector<TokenEvent> events;
    size_t next_event = 0;
    int64_t tokens_written = 0;
    int64_t token_cursor = 0;  // tokens in the events already prepared
    int64_t received_ns = 0;
    int64_t admitted_ns = 0;
    int64_t headers_ns = 0;
    int64_t first_token_ns = 0;
    bool is_admitted = false;
    bool was_queued = false;
    bool finished = false;
    int status = 200;
    std::string x_request_id;
    std::string outcome = "ok";
    std::vector<TruthEntry> truth;
    std::string prepared_body;  // routes answered in one piece (embeddings): built at receipt
    std::unique_ptr<ChatlikeStream> vendor;  // responses/messages grammar; null for OpenAI chat
    // Routes whose SSE events are built at receipt (images): due steady ns, event bytes.
    std::vector<std::pair<int64_t, std::string>> timed_events;
  };

  void read_request();
  void on_header(boost::beast::error_code ec);
  void read_body();
  void on_read(boost::beast::error_code ec);
  void route();
  // The steps every route shares. begin_generation reads the request's identity and its
  // scenario knobs into *g; false when it already answered 400 (a bad X-Mock-Scenario).
  bool begin_generation(Generation* g);
  // The usage a generation reports (prompt, completion, and the --cached-tokens hits).
  static UsageCounts usage_counts(const Generation& g);
  void answer_bad_request(const std::string& message);
  void answer_control(std::string_view target);  // control_route.cc: /start_profile, /stop_profile
  // The seeded generator of the index-th generation request (same seed, same answers).
  core::Rng request_rng(uint64_t index) const;
  // The next request's index (*index) and RNG stream, with the --error-rate fault drawn into
  // g->fault: the whole-answer routes (chat draws its fault after the lengths).
  core::Rng draw_request(Generation* g, uint64_t* index);
  // The fields every route's --record line starts with.
  void record_line_head(const Generation& g, std::string_view model, JsonLine* r) const;
  // Answers 500/429 at once when gen_'s fault is an HTTP one; false when it is not.
  bool answer_http_fault();
  // The answer of a non-streamed route: `body` as built for success (counting `tokens` as
  // generated), or gen_'s body fault in its place (a truncated document, or an error object).
  void write_whole_answer(std::string body, int64_t tokens);
  void handle_generation(ApiKind kind);
  void handle_embeddings();           // embeddings_route.cc
  void write_embeddings_response();   // embeddings_route.cc
  void handle_rankings(RankingsApi api);  // rankings_route.cc
  // image_route.cc; `form_json`: an edit's form fields as JSON ("" = the request body).
  void handle_image_generation(const std::string& form_json = {});
  void handle_image_edit();               // image_route.cc: multipart/form-data
  void handle_image_retrieval();          // retrieval_route.cc: NIM /v1/infer
  void handle_video_submit();             // video_route.cc: POST /v1/videos
  void handle_video_get(std::string_view rest);  // GET /v1/videos/{id}[/content]
  void next_timed_event();                // image_route.cc: gen_->timed_events in turn
  void write_timed_event();
  void write_simple(int status, const char* content_type, const std::string& body,
                    bool close = false);
  void after_write(boost::beast::error_code ec);
  void write_stream_headers();
  void prepare_event();
  void wait_then(int64_t due_ns, void (Session::*step)());
  void write_event();
  void on_event_written(boost::beast::error_code ec);
  void write_full_response();
  void apply_fault_reset();
  void apply_fault_stall();
  void drain_and_close(bool shutdown_send, int64_t timeout_ns = 2'000'000'000);
  void do_drain();
  void finish_generation();
  void abort_generation(const char* why);
  void close_now();
  void append_token_text(size_t event_index, std::string* out) const;
  void write_truth_line();

  boost::asio::ip::tcp::socket socket_;
  boost::asio::steady_timer timer_;
  ServerState& state_;
  boost::beast::flat_buffer buffer_;
  std::optional<boost::beast::http::request_parser<boost::beast::http::string_body>> parser_;
  bool keep_alive_ = true;
  bool closed_ = false;
  std::string out_;   // bytes being written
  std::string next_;  // bytes of the next event, built before its due time
  std::string scratch_;
  bool next_final_ = false;
  int sync_depth_ = 0;  // nesting of steps run synchronously by wait_then
  std::vector<TruthEntry> next_truth_;
  char drain_buf_[4096];
  std::optional<Generation> gen_;
  MediaSeen edit_image_;  // the image of the image edit being answered
};

}  // namespace servebench::mock
