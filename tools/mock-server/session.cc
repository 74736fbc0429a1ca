#include "session.h"

#include <cstdio>
#include <iterator>

#include "core/rng.h"
#include "generic_routes.h"
#include "image_route.h"
#include "json_line.h"
#include "length_rules.h"

namespace servebench::mock {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

namespace {

const char* status_line(int status) {
  switch (status) {
    case 200:
      return "HTTP/1.1 200 OK\r\n";
    case 400:
      return "HTTP/1.1 400 Bad Request\r\n";
    case 404:
      return "HTTP/1.1 404 Not Found\r\n";
    case 405:
      return "HTTP/1.1 405 Method Not Allowed\r\n";
    case 409:
      return "HTTP/1.1 409 Conflict\r\n";
    case 413:
      return "HTTP/1.1 413 Payload Too Large\r\n";
    case 429:
      return "HTTP/1.1 429 Too Many Requests\r\n";
    case 431:
      return "HTTP/1.1 431 Request Header Fields Too Large\r\n";
    default:
      return "HTTP/1.1 500 Internal Server Error\r\n";
  }
}

const char* error_type(int status) {
  switch (status) {
    case 400:
    case 413:
    case 431:
      return "BadRequestError";
    case 404:
      return "NotFoundError";
    case 405:
      return "MethodNotAllowed";
    case 429:
      return "RateLimitError";
    default:
      return "InternalServerError";
  }
}

void append_size(size_t n, std::string* out) {
  char buf[24];
  out->append(buf, static_cast<size_t>(std::snprintf(buf, sizeof(buf), "%zu", n)));
}

// Wraps `payload` as one HTTP/1.1 chunk.
void append_chunk(const std::string& payload, std::string* out) {
  char buf[24];
  out->append(buf, static_cast<size_t>(std::snprintf(buf, sizeof(buf), "%zx\r\n", payload.size())));
  out->append(payload);
  out->append("\r\n");
}

constexpr char k100Continue[] = "HTTP/1.1 100 Continue\r\n\r\n";

}  // namespace

void ServerState::request_admission(const std::shared_ptr<Session>& session) {
  if (config.max_concurrency > 0) {
    std::lock_guard<std::mutex> lock(admit_mu);
    if (active >= config.max_concurrency) {
      session->mark_queued();
      waiting.push_back(session);
      metrics.waiting.fetch_add(1, std::memory_order_relaxed);
      return;
    }
    ++active;
  }
  session->admitted();
}

void ServerState::release_admission() {
  if (config.max_concurrency <= 0) return;
  std::shared_ptr<Session> next;
  {
    std::lock_guard<std::mutex> lock(admit_mu);
    if (waiting.empty()) {
      --active;
      return;
    }
    next = std::move(waiting.front());  // the slot passes straight to the next in line
    waiting.pop_front();
    metrics.waiting.fetch_sub(1, std::memory_order_relaxed);
  }
  asio::post(next->executor(), [next] { next->admitted(); });
}

Session::Session(tcp::socket socket, ServerState& state)
    : socket_(std::move(socket)), timer_(socket_.get_executor()), state_(state) {}

void Session::start() {
  beast::error_code ec;
  socket_.set_option(tcp::no_delay(true), ec);
  read_request();
}

void Session::read_request() {
  parser_.emplace();
  parser_->body_limit(static_cast<uint64_t>(state_.config.max_body_bytes));
  parser_->header_limit(64 * 1024);
  http::async_read_header(
      socket_, buffer_, *parser_,
      [self = shared_from_this()](beast::error_code ec, size_t) { self->on_header(ec); });
}

void Session::on_header(beast::error_code ec) {
  if (ec || parser_->is_done()) return on_read(ec);
  // curl sends Expect: 100-continue for large bodies and waits a second without this answer.
  if (beast::iequals(parser_->get()[http::field::expect], "100-continue")) {
    asio::async_write(socket_, asio::buffer(k100Continue, sizeof(k100Continue) - 1),
                      [self = shared_from_this()](beast::error_code wec, size_t) {
                        if (wec) return self->close_now();
                        self->read_body();
                      });
    return;
  }
  read_body();
}

void Session::read_body() {
  http::async_read(
      socket_, buffer_, *parser_,
      [self = shared_from_this()](beast::error_code ec, size_t) { self->on_read(ec); });
}

void Session::on_read(beast::error_code ec) {
  if (ec) {
    keep_alive_ = false;
    if (ec == http::error::body_limit) {
      return write_simple(413, "application/json",
                          error_body("request body is larger than the limit of " +
                                         std::to_string(state_.config.max_body_bytes) + " bytes",
                                     error_type(413), 413));
    }
    if (ec == http::error::header_limit) {
      return write_simple(431, "application/json",
                          error_body("request headers too large", error_type(431), 431));
    }
    if (ec.category() == http::make_error_code(http::error::bad_target).category() &&
        ec != http::error::end_of_stream && ec != http::error::partial_message) {
      return write_simple(
          400, "application/json",
          error_body("malformed HTTP request: " + ec.message(), error_type(400), 400));
    }
    return close_now();
  }
  keep_alive_ = parser_->get().keep_alive();
  route();
}

void Session::route() {
  const auto& req = parser_->get();
  std::string_view target(req.target().data(), req.target().size());
  if (const size_t q = target.find('?'); q != std::string_view::npos) target = target.substr(0, q);
  const std::string_view full = target;
  // Behind --path-prefix (a proxy's mount point) every route lives under the prefix.
  if (const std::string& prefix = state_.config.path_prefix; !prefix.empty()) {
    const bool under = target.size() > prefix.size() &&
                       target.compare(0, prefix.size(), prefix) == 0 &&
                       target[prefix.size()] == '/';
    target = under ? target.substr(prefix.size()) : std::string_view("/ (outside --path-prefix)");
  }
  const http::verb method = req.method();
  auto need = [&](http::verb want) {
    if (method == want) return true;
    write_simple(405, "application/json", error_body("Method Not Allowed", error_type(405), 405));
    return false;
  };
  if (target == "/v1/chat/completions") {
    if (need(http::verb::post)) handle_generation(ApiKind::kChat);
  } else if (target == "/v1/completions") {
    if (need(http::verb::post)) handle_generation(ApiKind::kCompletions);
  } else if (target == "/v1/responses") {
    if (need(http::verb::post)) handle_generation(ApiKind::kResponses);
  } else if (target == "/v1/messages") {
    if (need(http::verb::post)) handle_generation(ApiKind::kMessages);
  } else if (target == "/generate" || target == "/generate_stream" || target == "/rag/api/prompt") {
    if (need(http::verb::post))
      handle_generation(target == "/generate"          ? ApiKind::kTgi
                        : target == "/generate_stream" ? ApiKind::kTgiStream
                                                       : ApiKind::kSolidoRag);
  } else if (target == "/v1/embeddings") {
    if (need(http::verb::post)) handle_embeddings();
  } else if (target == "/v1/ranking") {
    if (need(http::verb::post)) handle_rankings(RankingsApi::kNim);
  } else if (target == "/rerank") {
    if (need(http::verb::post)) handle_rankings(RankingsApi::kTei);
  } else if (target == "/v2/rerank" || target == "/v1/rerank") {
    if (need(http::verb::post)) handle_rankings(RankingsApi::kCohere);
  } else if (target == "/v1/images/edits") {
    if (need(http::verb::post)) handle_image_edit();
  } else if (target == "/v1/infer") {
    if (need(http::verb::post)) handle_image_retrieval();
  } else if (target == "/v1/videos") {
    if (need(http::verb::post)) handle_video_submit();
  } else if (target.starts_with("/v1/videos/")) {
    if (need(http::verb::get)) handle_video_get(target.substr(11));
  } else if (target == "/v1/images/generations") {
    if (need(http::verb::post)) handle_image_generation();
  } else if (target.starts_with("/v1/images/mock/")) {
    const std::string png = need(http::verb::get) ? image_for_name(target.substr(16)) : "-";
    if (png.empty()) {
      write_simple(404, "application/json",
                   error_body("no image " + std::string(full), error_type(404), 404));
    } else if (png != "-") {
      write_simple(200, "image/png", png);
    }
  } else if (target == "/v1/models") {
    if (need(http::verb::get)) write_simple(200, "application/json", state_.models_body);
  } else if (target == "/health") {
    if (need(http::verb::get)) write_simple(200, "application/json", "");
  } else if (target == "/metrics") {
    if (need(http::verb::get)) {
      write_simple(200, "text/plain; version=0.0.4; charset=utf-8",
                   state_.metrics.render(state_.config.model));
    }
  } else if (target == "/start_profile" || target == "/stop_profile") {
    if (need(http::verb::post)) answer_control(target);
  } else if (target == "/reset_prefix_cache") {
    if (need(http::verb::post)) write_simple(200, "application/json", "");
  } else {
    write_simple(404, "application/json",
                 error_body("route " + std::string(full) + " not found", error_type(404), 404));
  }
}

void Session::write_simple(int status, const char* content_type, const std::string& body,
                           bool close) {
  if (close) keep_alive_ = false;
  out_.clear();
  out_.append(status_line(status));
  out_.append("content-type: ");
  out_.append(content_type);
  out_.append("\r\ncontent-length: ");
  append_size(body.size(), &out_);
  out_.append(keep_alive_ ? "\r\n\r\n" : "\r\nconnection: close\r\n\r\n");
  out_.append(body);
  asio::async_write(
      socket_, asio::buffer(out_),
      [self = shared_from_this()](beast::error_code ec, size_t) { self->after_write(ec); });
}

void Session::after_write(beast::error_code ec) {
  if (ec) return abort_generation("client-closed");
  if (gen_ && !gen_->finished) finish_generation();
  if (!keep_alive_) return drain_and_close(true);
  read_request();
}

bool Session::begin_generation(Generation* g) {
  const auto& req = parser_->get();
  g->received_ns = now_ns();
  g->path = std::string(req.target());
  g->x_request_id = std::string(req["X-Request-ID"]);
  g->knobs = state_.config.knobs;
  if (auto it = req.find("X-Mock-Scenario"); it != req.end()) {
    auto k = apply_scenario(g->knobs, std::string_view(it->value().data(), it->value().size()));
    if (!k) {
      answer_bad_request(k.error().message);
      return false;
    }
    g->knobs = *k;
  }
  return true;
}

void Session::answer_bad_request(const std::string& message) {
  write_simple(400, "application/json", error_body(message, error_type(400), 400));
}

core::Rng Session::request_rng(uint64_t index) const {
  uint64_t mix = state_.config.seed ^ (0x9E3779B97F4A7C15ull * (index + 1));
  return core::Rng(core::splitmix64(&mix));
}

core::Rng Session::draw_request(Generation* g, uint64_t* index) {
  *index = state_.next_index.fetch_add(1, std::memory_order_relaxed);
  core::Rng rng = request_rng(*index);
  if (g->knobs.error_rate_pct > 0 && rng.uniform(0.0, 100.0) < g->knobs.error_rate_pct)
    g->fault = g->knobs.error_kind;
  return rng;
}

void Session::record_line_head(const Generation& g, std::string_view model, JsonLine* r) const {
  r->str("path", g.path)
      .num("received_steady_ns", g.received_ns)
      .num("received_wall_ns", state_.anchor.to_wall_ns(g.received_ns))
      .num("body_bytes", static_cast<int64_t>(parser_->get().body().size()))
      .str("model", model);
}

bool Session::answer_http_fault() {
  Generation& g = *gen_;
  if (g.fault != FaultKind::kHttp500 && g.fault != FaultKind::kHttp429) return false;
  const int status = g.fault == FaultKind::kHttp500 ? 500 : 429;
  g.status = status;
  g.outcome = fault_kind_name(g.fault);
  g.headers_ns = now_ns();
  write_simple(status, "application/json",
               error_body(status == 500 ? "mock injected server error" : "mock injected rate limit",
                          error_type(status), status));
  return true;
}

void Session::handle_generation(ApiKind kind) {
  const auto& req = parser_->get();
  Generation g;
  if (!begin_generation(&g)) return;
  g.kind = kind;
  auto parsed = parse_any_request(kind, req.body(), *state_.counter);
  if (!parsed) return answer_bad_request(parsed.error().message);
  if (kind == ApiKind::kSolidoRag)  // its body has no stream flag: the client's Accept says
    parsed->stream = req[http::field::accept].find("text/event-stream") != std::string_view::npos;
  const uint64_t index = state_.next_index.fetch_add(1, std::memory_order_relaxed);
  core::Rng rng = request_rng(index);

  LengthRequest length = parsed->length;
  length.forced_tokens = g.knobs.output_tokens;
  const int64_t total = choose_output_tokens(length, state_.config.default_max_tokens, rng);
  const int64_t max = length.forced_tokens
                          ? *length.forced_tokens
                          : length.max_tokens.value_or(state_.config.default_max_tokens);
  g.finish_reason = total >= max ? "length" : "stop";
  g.reasoning_tokens =
      kind != ApiKind::kCompletions ? std::min(g.knobs.reasoning_tokens, total) : 0;
  g.content_tokens = total - g.reasoning_tokens;
  if (g.knobs.error_rate_pct > 0 && rng.uniform(0.0, 100.0) < g.knobs.error_rate_pct) {
    g.fault = g.knobs.error_kind;
    if (g.fault == FaultKind::kMixed) {
      static constexpr FaultKind kMix[] = {FaultKind::kHttp500, FaultKind::kHttp429, FaultKind::kReset,
                                           FaultKind::kMalformed, FaultKind::kErrorEvent};
      g.fault = kMix[rng.next_below(std::size(kMix))];
    }
  }
  g.text_start = rng.next_below(state_.text.sequence_size());
  g.stream = parsed->stream;
  g.include_usage = parsed->include_usage;
  g.continuous_usage = parsed->continuous_usage && g.include_usage;
  g.prompt_tokens = parsed->prompt_tokens;
  g.events = plan_events(g.knobs, g.prompt_tokens, g.reasoning_tokens, g.content_tokens, rng);
  g.fault_at = g.events.size() / 2;
  char id[64];
  std::snprintf(id, sizeof(id), "%s%016llx%08llx", api_id_prefix(kind),
                static_cast<unsigned long long>(state_.config.seed),
                static_cast<unsigned long long>(index));
  g.head.id = id;
  g.head.created_s = state_.anchor.to_wall_ns(g.received_ns) / 1'000'000'000;
  g.head.model_json = parsed->model.empty() ? state_.model_json : json_quote(parsed->model);
  g.vendor = make_chatlike_stream(kind, g.head);

  if (state_.record) {
    JsonLine r;
    record_line_head(g, parsed->model, &r);
    r.boolean("stream", parsed->stream)
        .boolean("include_usage", parsed->include_usage);
    if (parsed->requested_max_tokens) {
      r.num("max_tokens", *parsed->requested_max_tokens);
    } else {
      r.null("max_tokens");
    }
    r.boolean("ignore_eos", parsed->length.ignore_eos)
        .num("min_tokens", parsed->length.min_tokens)
        .num("num_messages", static_cast<int64_t>(parsed->roles.size()))
        .strings("roles", parsed->roles)
        .nums("message_prompt_tokens", parsed->message_prompt_tokens)
        .num("prompt_tokens", parsed->prompt_tokens)
        .num("output_tokens", total)
        .str("x_request_id", g.x_request_id)
        .str("x_correlation_id",
             std::string_view(req["X-Correlation-ID"].data(), req["X-Correlation-ID"].size()))
        .str("scenario",
             std::string_view(req["X-Mock-Scenario"].data(), req["X-Mock-Scenario"].size()))
        .str("fault", fault_kind_name(g.fault))
        .str("id", g.head.id)
        .str("auth", req.find("x-api-key") != req.end()           ? "x-api-key"
                     : req.find(http::field::authorization) != req.end() ? "bearer"
                                                                         : "none")
        .str("anthropic_version",
             std::string_view(req["anthropic-version"].data(), req["anthropic-version"].size()));
    if (!parsed->media.empty()) r.raw("media", media_json(parsed->media));
    if (state_.config.record_bodies) r.str("body", std::string_view(req.body().data(), req.body().size()));
    state_.record->write_line(r.finish());
  }
  gen_ = std::move(g);
  if (answer_http_fault()) return;
  if (gen_->stream) return write_stream_headers();
  state_.request_admission(shared_from_this());
}

void Session::write_stream_headers() {
  Generation& g = *gen_;
  out_.assign(
      "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream; charset=utf-8\r\n"
      "cache-control: no-cache\r\ntransfer-encoding: chunked\r\n");
  if (!g.x_request_id.empty()) {
    out_.append("x-request-id: ").append(g.x_request_id).append("\r\n");
  }
  out_.append(keep_alive_ ? "\r\n" : "connection: close\r\n\r\n");
  g.headers_ns = now_ns();
  if (g.knobs.early_role && g.kind == ApiKind::kChat) {
    std::string role;
    append_chat_role_event(g.head, &role);
    append_chunk(role, &out_);
    g.truth.push_back(TruthEntry{g.headers_ns, g.headers_ns, "role", 0});
  }
  asio::async_write(socket_, asio::buffer(out_),
                    [self = shared_from_this()](beast::error_code ec, size_t) {
                      if (ec) return self->abort_generation("client-closed");
                      self->state_.request_admission(self);
                    });
}

void Session::admitted() {
  Generation& g = *gen_;
  g.admitted_ns = g.was_queued ? now_ns() : g.received_ns;
  g.is_admitted = true;
  state_.metrics.running.fetch_add(1, std::memory_order_relaxed);
  state_.metrics.prompt_tokens.fetch_add(g.prompt_tokens, std::memory_order_relaxed);
  if (closed_) return abort_generation("client-closed");
  if (g.stream) return prepare_event();
  wait_then(g.admitted_ns + g.events.back().offset_ns, &Session::write_full_response);
}

}  // namespace servebench::mock
