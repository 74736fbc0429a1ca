// The response half of Session: timed token events, full (non-streaming) responses, injected
// faults, connection teardown and the ground-truth line.
#include <algorithm>
#include <cstdio>
#include <string_view>

#include "generic_routes.h"
#include "json_line.h"
#include "session.h"

namespace servebench::mock {

namespace asio = boost::asio;
namespace beast = boost::beast;
using tcp = asio::ip::tcp;

namespace {

void append_chunk(const std::string& payload, std::string* out) {
  char buf[24];
  out->append(buf, static_cast<size_t>(std::snprintf(buf, sizeof(buf), "%zx\r\n", payload.size())));
  out->append(payload);
  out->append("\r\n");
}

}  // namespace

UsageCounts Session::usage_counts(const Generation& g) {
  UsageCounts u{g.prompt_tokens, g.reasoning_tokens + g.content_tokens};
  if (g.knobs.cached_tokens >= 0) u.cached_tokens = std::min(g.knobs.cached_tokens, g.prompt_tokens);
  if (g.knobs.spec_decode_draft > 0 && u.completion_tokens > 0) {
    // Each step yields its accepted drafts plus one token of its own.
    const int64_t per_step = g.knobs.spec_decode_draft / 2 + 1;
    u.spec_steps = (u.completion_tokens + per_step - 1) / per_step;
    u.spec_accepted = u.completion_tokens - u.spec_steps;
    u.spec_draft = g.knobs.spec_decode_draft * u.spec_steps;
  }
  return u;
}

void Session::append_token_text(size_t event_index, std::string* out) const {
  const Generation& g = *gen_;
  const bool starts_text = g.token_cursor == 0 || g.token_cursor == g.reasoning_tokens;
  state_.text.append(g.text_start + static_cast<uint64_t>(g.token_cursor),
                     g.events[event_index].tokens, out, starts_text);
}

void Session::wait_then(int64_t due_ns, void (Session::*step)()) {
  if (due_ns <= now_ns()) {
    // Already due: run now, but bound the synchronous chain (a zero-latency stream of many
    // tokens would otherwise recurse once per event).
    if (sync_depth_ < 8) {
      ++sync_depth_;
      (this->*step)();
      --sync_depth_;
    } else {
      asio::post(socket_.get_executor(), [self = shared_from_this(), step] {
        if (!self->closed_) ((*self).*step)();
      });
    }
    return;
  }
  timer_.expires_at(std::chrono::steady_clock::time_point(std::chrono::nanoseconds(due_ns)));
  timer_.async_wait([self = shared_from_this(), step](beast::error_code ec) {
    if (ec || self->closed_) return;
    ((*self).*step)();
  });
}

void Session::prepare_event() {
  Generation& g = *gen_;
  const size_t i = g.next_event;
  const TokenEvent& ev = g.events[i];
  const int64_t due = g.admitted_ns + ev.offset_ns;
  if (i == g.fault_at && g.fault == FaultKind::kReset)
    return wait_then(due, &Session::apply_fault_reset);
  if (i == g.fault_at && g.fault == FaultKind::kStall)
    return wait_then(due, &Session::apply_fault_stall);
  const bool chat = g.kind == ApiKind::kChat;
  scratch_.clear();
  next_truth_.clear();
  next_final_ = false;
  if (i == 0 && chat && !g.knobs.early_role) {
    // vLLM emits the role chunk when the first output arrives, together with the first token.
    append_chat_role_event(g.head, &scratch_);
    next_truth_.push_back(TruthEntry{0, due, "role", 0});
  }
  if (i == 0 && g.vendor) g.vendor->open(g.prompt_tokens, &scratch_);
  if (i == g.fault_at && g.fault == FaultKind::kMalformed) {
    append_malformed_event(g.head, &scratch_);
    next_truth_.push_back(TruthEntry{0, due, "malformed", 0});
  }
  if (i == g.fault_at && g.fault == FaultKind::kErrorEvent) {
    if (g.vendor) {
      g.vendor->error("mock injected error event", &scratch_);
    } else if (is_openai_kind(g.kind)) {
      append_error_event("mock injected error event", 500, &scratch_);
      append_done_event(&scratch_);
    } else {
      append_generic_error_event(g.kind, "mock injected error event", &scratch_);
    }
    next_truth_.push_back(TruthEntry{0, due, "error", 0});
    next_truth_.push_back(TruthEntry{0, due, "done", 0});
    next_final_ = true;
  } else {
    std::string& text = next_;  // reuse as scratch for the token text
    text.clear();
    append_token_text(i, &text);
    const bool first_content = g.token_cursor == g.reasoning_tokens;
    g.token_cursor += ev.tokens;
    const bool last = i + 1 == g.events.size();
    const char* finish = last ? g.finish_reason : nullptr;
    if (g.vendor) {
      g.vendor->token(text, ev.reasoning, &scratch_);
    } else if (chat && g.knobs.tool_calls && !ev.reasoning) {
      append_chat_tool_event(g.head, text, first_content, finish, &scratch_);
    } else if (chat) {
      append_chat_token_event(g.head, text, ev.reasoning, finish, &scratch_);
    } else if (g.kind == ApiKind::kCompletions) {
      append_completion_token_event(g.head, text, finish, &scratch_);
    } else {
      std::string full;
      GenerationEnd end{g.finish_reason, g.content_tokens, g.prompt_tokens, {}};
      if (last) {
        state_.text.append(g.text_start, g.content_tokens, &full, true);
        end.full_text = full;
      }
      append_generic_token_event(g.kind, static_cast<int64_t>(i), text, last ? &end : nullptr,
                                 &scratch_);
    }
    if (chat && !g.vendor && g.continuous_usage) {  // vLLM's continuous_usage_stats
      append_event_usage(UsageCounts{g.prompt_tokens, g.token_cursor}, &scratch_);
    }
    next_truth_.push_back(TruthEntry{0, due, ev.reasoning ? "reasoning" : "content", ev.tokens});
    if (last && g.vendor) {
      g.vendor->close(g.finish_reason,
                      ChatlikeUsage{g.prompt_tokens, g.reasoning_tokens + g.content_tokens,
                                    g.reasoning_tokens},
                      &scratch_);
      next_truth_.push_back(TruthEntry{0, due, "usage", 0});
      next_truth_.push_back(TruthEntry{0, due, "done", 0});
      next_final_ = true;
    } else if (last) {
      if (g.include_usage && is_openai_kind(g.kind)) {
        append_usage_event(g.head, chat, usage_counts(g), &scratch_);
        next_truth_.push_back(TruthEntry{0, due, "usage", 0});
      }
      if (is_openai_kind(g.kind)) {
        append_done_event(&scratch_);
        next_truth_.push_back(TruthEntry{0, due, "done", 0});
      }
      next_final_ = true;
    }
  }
  next_.clear();
  append_chunk(scratch_, &next_);
  if (next_final_) next_.append("0\r\n\r\n");
  wait_then(due, &Session::write_event);
}

void Session::write_event() {
  Generation& g = *gen_;
  const int64_t t = now_ns();
  int64_t tokens = 0;
  for (TruthEntry& e : next_truth_) {
    e.steady_ns = t;
    tokens += e.tokens;
    // The injected fault went out: the outcome says so even if the stream then ends normally.
    if (e.kind == std::string_view("malformed")) g.outcome = "malformed";
    if (state_.truth) g.truth.push_back(e);
  }
  if (tokens > 0 && g.first_token_ns == 0) {
    g.first_token_ns = t;
    state_.metrics.observe_ttft_ns(t - g.received_ns);
  }
  g.tokens_written += tokens;
  state_.metrics.generation_tokens.fetch_add(tokens, std::memory_order_relaxed);
  out_.swap(next_);
  asio::async_write(
      socket_, asio::buffer(out_),
      [self = shared_from_this()](beast::error_code ec, size_t) { self->on_event_written(ec); });
}

void Session::on_event_written(beast::error_code ec) {
  if (ec) return abort_generation("client-closed");
  Generation& g = *gen_;
  ++g.next_event;
  if (!next_final_) return prepare_event();
  if (g.fault == FaultKind::kErrorEvent) g.outcome = "error-event";
  finish_generation();
  if (!keep_alive_) return drain_and_close(true);
  read_request();
}

void Session::write_full_response() {
  Generation& g = *gen_;
  if (g.fault == FaultKind::kReset) return apply_fault_reset();
  if (g.fault == FaultKind::kStall) return apply_fault_stall();
  std::string reasoning, content;
  state_.text.append(g.text_start, g.reasoning_tokens, &reasoning, true);
  state_.text.append(g.text_start + static_cast<uint64_t>(g.reasoning_tokens), g.content_tokens,
                     &content, true);
  const UsageCounts usage = usage_counts(g);
  std::string body =
      g.vendor ? g.vendor->body(content, reasoning, g.finish_reason,
                                ChatlikeUsage{usage.prompt_tokens, usage.completion_tokens,
                                              g.reasoning_tokens})
      : g.kind == ApiKind::kChat
          ? chat_completion_body(g.head, content, reasoning, g.finish_reason, usage,
                                 g.knobs.tool_calls)
      : g.kind == ApiKind::kCompletions
          ? completion_body(g.head, content, g.finish_reason, usage)
          : generic_body(g.kind,
                         GenerationEnd{g.finish_reason, g.content_tokens, g.prompt_tokens, content},
                         g.include_usage);
  write_whole_answer(std::move(body), usage.completion_tokens);
}

void Session::write_whole_answer(std::string body, int64_t tokens) {
  Generation& g = *gen_;
  int status = 200;
  const int64_t t = now_ns();
  if (g.fault == FaultKind::kMalformed) {
    body.resize(body.size() / 2);  // a truncated JSON document
    g.outcome = "malformed";
  } else if (g.fault == FaultKind::kErrorEvent) {
    status = 500;
    body = error_body("mock injected error event", "InternalServerError", 500);
    g.outcome = "error-event";
  } else {
    g.tokens_written = tokens;
    g.first_token_ns = t;
    state_.metrics.observe_ttft_ns(t - g.received_ns);
    state_.metrics.generation_tokens.fetch_add(tokens, std::memory_order_relaxed);
  }
  g.status = status;
  g.headers_ns = t;
  if (state_.truth)
    g.truth.push_back(TruthEntry{t, t, "body", static_cast<int32_t>(g.tokens_written)});
  write_simple(status, "application/json", body);
}

void Session::apply_fault_reset() {
  Generation& g = *gen_;
  g.outcome = "reset";
  const int64_t t = now_ns();
  if (state_.truth) g.truth.push_back(TruthEntry{t, t, "reset", 0});
  beast::error_code ec;
  socket_.set_option(asio::socket_base::linger(true, 0), ec);  // RST, not FIN
  finish_generation();
  close_now();
}

void Session::apply_fault_stall() {
  Generation& g = *gen_;
  g.outcome = "stall";
  const int64_t t = now_ns();
  if (state_.truth) g.truth.push_back(TruthEntry{t, t, "stall", 0});
  finish_generation();
  // Keep the connection open and silent; close when the client gives up or after the timeout.
  drain_and_close(false, state_.config.stall_timeout_ns);
}

void Session::drain_and_close(bool shutdown_send, int64_t timeout_ns) {
  beast::error_code ec;
  if (shutdown_send) socket_.shutdown(tcp::socket::shutdown_send, ec);
  timer_.expires_after(std::chrono::nanoseconds(timeout_ns));
  timer_.async_wait([self = shared_from_this()](beast::error_code wec) {
    if (!wec) self->close_now();
  });
  do_drain();
}

void Session::do_drain() {
  // Reading until EOF lets the client see our last response instead of a reset caused by
  // unread bytes (e.g. the rest of a 413 body).
  socket_.async_read_some(asio::buffer(drain_buf_),
                          [self = shared_from_this()](beast::error_code ec, size_t) {
                            if (ec || self->closed_) return self->close_now();
                            self->do_drain();
                          });
}

void Session::close_now() {
  if (closed_) return;
  closed_ = true;
  beast::error_code ec;
  timer_.cancel();
  socket_.shutdown(tcp::socket::shutdown_both, ec);
  socket_.close(ec);
}

void Session::abort_generation(const char* why) {
  if (gen_ && !gen_->finished) {
    // A fault already delivered stays the outcome; a client closing afterwards is its effect.
    if (gen_->outcome == "ok") gen_->outcome = why;
    finish_generation();
  }
  close_now();
}

void Session::finish_generation() {
  Generation& g = *gen_;
  if (g.finished) return;
  g.finished = true;
  if (g.is_admitted) {
    state_.metrics.running.fetch_sub(1, std::memory_order_relaxed);
    state_.release_admission();
  }
  if (g.outcome == "ok") {
    state_.metrics.success.fetch_add(1, std::memory_order_relaxed);
    state_.metrics.observe_e2e_ns(now_ns() - g.received_ns);
  }
  if (state_.truth) write_truth_line();
}

void Session::write_truth_line() {
  const Generation& g = *gen_;
  const core::WallAnchor& a = state_.anchor;
  std::string chunks;
  chunks.reserve(g.truth.size() * 110 + 2);
  chunks.push_back('[');
  for (size_t i = 0; i < g.truth.size(); ++i) {
    const TruthEntry& e = g.truth[i];
    JsonLine c;
    c.str("kind", e.kind)
        .num("tokens", e.tokens)
        .num("steady_ns", e.steady_ns)
        .num("wall_ns", a.to_wall_ns(e.steady_ns))
        .num("due_steady_ns", e.due_ns);
    if (i > 0) chunks.push_back(',');
    chunks.append(c.finish());
  }
  chunks.push_back(']');
  JsonLine line;
  line.str("id", g.head.id)
      .str("path", g.path)
      .str("x_request_id", g.x_request_id)
      .boolean("stream", g.stream)
      .num("status", g.status)
      .str("outcome", g.outcome)
      .num("prompt_tokens", g.prompt_tokens)
      .num("completion_tokens", g.reasoning_tokens + g.content_tokens)
      .num("reasoning_tokens", g.reasoning_tokens)
      .num("tokens_written", g.tokens_written)
      .num("received_steady_ns", g.received_ns)
      .num("received_wall_ns", a.to_wall_ns(g.received_ns))
      .num("admitted_steady_ns", g.admitted_ns)
      .num("headers_steady_ns", g.headers_ns)
      .num("headers_wall_ns", g.headers_ns ? a.to_wall_ns(g.headers_ns) : 0)
      .num("first_token_steady_ns", g.first_token_ns)
      .raw("chunks", chunks);
  state_.truth->write_line(line.finish());
}

}  // namespace servebench::mock
