#include "image_route.h"

#include <simdjson.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "json_line.h"
#include "prompt_request.h"
#include "media_check.h"
#include "png_writer.h"
#include "session.h"

namespace servebench::mock {

namespace {

using simdjson::dom::element;
namespace asio = boost::asio;
namespace http = boost::beast::http;

Error bad(std::string message) { return Error{ErrorCode::kInvalidArgument, std::move(message)}; }

constexpr int kMaxSide = 1024;

bool parse_size(std::string_view s, int* w, int* h) {
  if (s == "auto") return true;
  const size_t x = s.find('x');
  if (x == std::string_view::npos) return false;
  auto side = [](std::string_view t, int* out) {
    if (t.empty() || t.size() > 4) return false;
    int v = 0;
    for (char c : t) {
      if (c < '0' || c > '9') return false;
      v = v * 10 + (c - '0');
    }
    if (v < 1 || v > kMaxSide) return false;
    *out = v;
    return true;
  };
  return side(s.substr(0, x), w) && side(s.substr(x + 1), h);
}

Result<int64_t> int_field(element doc, const char* key, int64_t lo, int64_t hi, int64_t dflt) {
  element v;
  if (doc[key].get(v) != simdjson::SUCCESS || v.is_null()) return dflt;
  if (!v.is_int64() || v.get_int64().value_unsafe() < lo || v.get_int64().value_unsafe() > hi)
    return tl::unexpected(bad("'" + std::string(key) + "' must be an integer from " +
                              std::to_string(lo) + " to " + std::to_string(hi)));
  return v.get_int64().value_unsafe();
}

std::string image_name(uint64_t key, int w, int h) {
  char name[64];
  std::snprintf(name, sizeof(name), "%016llx-%dx%d.png", static_cast<unsigned long long>(key), w,
                h);
  return name;
}

// {"total_tokens":..,"input_tokens":..,"output_tokens":..,"input_tokens_details":{..}}
std::string usage_json(const ImageRequest& r) {
  const int64_t out = r.n * ((r.width + 15) / 16) * ((r.height + 15) / 16);
  std::string u = "{\"total_tokens\":";
  append_json_int(r.prompt_tokens + out, &u);
  u.append(",\"input_tokens\":");
  append_json_int(r.prompt_tokens, &u);
  u.append(",\"output_tokens\":");
  append_json_int(out, &u);
  u.append(",\"input_tokens_details\":{\"text_tokens\":");
  append_json_int(r.prompt_tokens, &u);
  u.append(",\"image_tokens\":0}}");
  return u;
}

// The image member: "b64_json":"<base64 PNG>" or "url":"http://host/v1/images/mock/<name>".
void append_image(const ImageRequest& r, uint64_t key, std::string_view host, std::string* out) {
  if (r.url) {
    out->append("\"url\":");
    append_json_string("http://" + std::string(host) + "/v1/images/mock/" +
                           image_name(key, r.width, r.height),
                       out);
    return;
  }
  out->append("\"b64_json\":\"");
  out->append(base64_encode(synthetic_png(r.width, r.height, key)));
  out->push_back('"');
}

void append_tail(const ImageRequest& r, int64_t created_s, std::string* out) {
  out->append(",\"created_at\":");
  append_json_int(created_s, out);
  out->append(",\"size\":\"");
  out->append(std::to_string(r.width) + "x" + std::to_string(r.height));
  out->append("\",\"quality\":\"medium\",\"background\":\"opaque\",\"output_format\":\"png\"");
}

std::string sse_event(std::string_view type, const std::string& data) {
  std::string e = "event: ";
  e.append(type).append("\ndata: ").append(data).append("\n\n");
  return e;
}

}  // namespace

Result<ImageRequest> parse_image_request(std::string_view body, const TokenCounter& counter) {
  simdjson::dom::parser parser;
  SB_TRY_ASSIGN(PromptRequest base, parse_prompt_request(parser, body, counter));
  const element doc = base.doc;
  ImageRequest out;
  out.model = std::move(base.model);
  out.prompt_tokens = base.prompt_tokens;
  element v;
  auto n = int_field(doc, "n", 1, 10, 1);
  if (!n) return tl::unexpected(n.error());
  out.n = *n;
  auto partial = int_field(doc, "partial_images", 0, 3, 0);
  if (!partial) return tl::unexpected(partial.error());
  out.partial_images = *partial;
  if (doc["response_format"].get(v) == simdjson::SUCCESS && !v.is_null()) {
    const std::string_view f = v.is_string() ? v.get_string().value_unsafe() : "";
    if (f != "b64_json" && f != "url")
      return tl::unexpected(bad("'response_format' must be \"b64_json\" or \"url\""));
    out.url = f == "url";
  }
  if (doc["size"].get(v) == simdjson::SUCCESS && !v.is_null()) {
    if (!v.is_string() || !parse_size(v.get_string().value_unsafe(), &out.width, &out.height))
      return tl::unexpected(bad("'size' must be \"WxH\" (1 to 1024 each) or \"auto\""));
  }
  if (doc["stream"].get(v) == simdjson::SUCCESS && v.is_bool())
    out.stream = v.get_bool().value_unsafe();
  return out;
}

std::string image_for_name(std::string_view name) {
  unsigned long long key = 0;
  int w = 0, h = 0;
  char tail[8] = {};
  const std::string s(name);
  if (std::sscanf(s.c_str(), "%16llx-%dx%d.%3s", &key, &w, &h, tail) != 4) return {};
  if (std::string_view(tail) != "png" || w < 1 || h < 1 || w > kMaxSide || h > kMaxSide) return {};
  if (image_name(key, w, h) != name) return {};
  return synthetic_png(w, h, key);
}

void Session::handle_image_generation(const std::string& form_json) {
  const auto& req = parser_->get();
  Generation g;
  if (!begin_generation(&g)) return;
  const bool edit = !form_json.empty();
  auto parsed = parse_image_request(edit ? std::string_view(form_json) : req.body(), *state_.counter);
  if (!parsed) return answer_bad_request(parsed.error().message);
  const ImageRequest& r = *parsed;
  uint64_t index = 0;
  core::Rng rng = draw_request(&g, &index);
  g.prompt_tokens = r.prompt_tokens;
  g.finish_reason = "stop";
  g.stream = r.stream;
  char id[64];
  std::snprintf(id, sizeof(id), "img-%016llx%08llx",
                static_cast<unsigned long long>(state_.config.seed),
                static_cast<unsigned long long>(index));
  g.head.id = id;
  g.head.created_s = state_.anchor.to_wall_ns(g.received_ns) / 1'000'000'000;
  g.head.model_json = r.model.empty() ? state_.model_json : json_quote(r.model);
  const int64_t ttft =
      plan_events(g.knobs, g.prompt_tokens, 0, 0, rng).back().offset_ns;  // one event at TTFT
  const int64_t steps = r.stream ? r.partial_images : 0;
  const int64_t due = g.received_ns + ttft + steps * g.knobs.itl_ns;
  const std::string_view host(req[http::field::host].data(), req[http::field::host].size());
  auto key_of = [&](int64_t image, int64_t step) {
    return core::fnv1a64(std::string(id) + "/" + std::to_string(image) + "/" +
                         std::to_string(step));
  };
  if (r.stream) {
    for (int64_t i = 0; i < r.n; ++i) {
      for (int64_t k = 0; k <= r.partial_images; ++k) {
        const bool done = k == r.partial_images;
        std::string data = done ? "{\"type\":\"image_generation.completed\","
                                : "{\"type\":\"image_generation.partial_image\",";
        append_image(r, key_of(i, k), host, &data);
        append_tail(r, g.head.created_s, &data);
        if (done) {
          data.append(",\"usage\":").append(usage_json(r));
        } else {
          data.append(",\"partial_image_index\":");
          append_json_int(k, &data);
        }
        data.push_back('}');
        g.timed_events.emplace_back(
            g.received_ns + ttft + k * g.knobs.itl_ns,
            sse_event(done ? "image_generation.completed" : "image_generation.partial_image",
                      data));
      }
    }
    std::stable_sort(g.timed_events.begin(), g.timed_events.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
  } else {
    std::string body = "{\"created\":";
    append_json_int(g.head.created_s, &body);
    body.append(",\"data\":[");
    for (int64_t i = 0; i < r.n; ++i) {
      if (i) body.push_back(',');
      body.push_back('{');
      append_image(r, key_of(i, 0), host, &body);
      body.append(",\"revised_prompt\":null}");
    }
    body.append("],\"size\":\"");
    body.append(std::to_string(r.width) + "x" + std::to_string(r.height));
    body.append("\",\"quality\":\"medium\",\"output_format\":\"png\",\"usage\":");
    body.append(usage_json(r)).push_back('}');
    g.prepared_body = std::move(body);
  }
  if (state_.record) {
    JsonLine line;
    record_line_head(g, r.model, &line);
    line.num("prompt_tokens", r.prompt_tokens)
        .num("n", r.n)
        .num("width", r.width)
        .num("height", r.height)
        .str("response_format", r.url ? "url" : "b64_json")
        .boolean("stream", r.stream)
        .num("partial_images", r.partial_images)
        .num("due_ms", (due - g.received_ns) / 1'000'000);
    if (edit) line.raw("input_image", media_json({edit_image_}));
    line
        .str("x_request_id", g.x_request_id)
        .str("fault", fault_kind_name(g.fault))
        .str("id", g.head.id);
    state_.record->write_line(line.finish());
  }
  state_.metrics.prompt_tokens.fetch_add(g.prompt_tokens, std::memory_order_relaxed);
  gen_ = std::move(g);
  if (answer_http_fault()) return;
  if (!gen_->stream) return wait_then(due, &Session::write_embeddings_response);
  out_.assign(
      "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream; charset=utf-8\r\n"
      "cache-control: no-cache\r\ntransfer-encoding: chunked\r\n");
  out_.append(keep_alive_ ? "\r\n" : "connection: close\r\n\r\n");
  gen_->headers_ns = now_ns();
  asio::async_write(socket_, asio::buffer(out_),
                    [self = shared_from_this()](boost::beast::error_code ec, size_t) {
                      if (ec) return self->abort_generation("client-closed");
                      self->next_timed_event();
                    });
}

namespace {

struct FormPart {
  std::string name, filename, content_type, value;
};

// multipart/form-data (RFC 7578) → its parts; false when the body is not one.
bool parse_form(std::string_view content_type, std::string_view body, std::vector<FormPart>* out) {
  const size_t b = content_type.find("boundary=");
  if (content_type.find("multipart/form-data") == std::string_view::npos || b == std::string_view::npos)
    return false;
  std::string_view boundary = content_type.substr(b + 9);
  if (const size_t semi = boundary.find(';'); semi != std::string_view::npos)
    boundary = boundary.substr(0, semi);
  if (boundary.size() > 1 && boundary.front() == '"') boundary = boundary.substr(1, boundary.size() - 2);
  const std::string delim = "--" + std::string(boundary);
  size_t at = body.find(delim);
  if (at == std::string_view::npos) return false;
  while (true) {
    at += delim.size();
    if (body.substr(at, 2) == "--") return !out->empty();
    if (body.substr(at, 2) != "\r\n") return false;
    at += 2;
    const size_t head_end = body.find("\r\n\r\n", at);
    const size_t next = body.find("\r\n" + delim, at);
    if (head_end == std::string_view::npos || next == std::string_view::npos || head_end > next)
      return false;
    FormPart part;
    const std::string_view head = body.substr(at, head_end - at);
    auto quoted = [&](std::string_view key) {
      const size_t k = head.find(key);
      if (k == std::string_view::npos) return std::string();
      const size_t end = head.find('"', k + key.size());
      return std::string(head.substr(k + key.size(), end - k - key.size()));
    };
    part.name = quoted(" name=\"");
    part.filename = quoted("filename=\"");
    if (const size_t ct = head.find("Content-Type: "); ct != std::string_view::npos)
      part.content_type = std::string(head.substr(ct + 14, head.find("\r\n", ct) - ct - 14));
    part.value = std::string(body.substr(head_end + 4, next - head_end - 4));
    out->push_back(std::move(part));
    at = next + 2;
  }
}

}  // namespace

// POST /v1/images/edits: the form's prompt/model/n/response_format/size fields and its image
// (decoded: a PNG or JPEG, or a `url` field) → the generations answer, at the input's size when
// no size is given.
void Session::handle_image_edit() {
  const auto& req = parser_->get();
  std::vector<FormPart> parts;
  if (!parse_form(std::string_view(req[http::field::content_type].data(),
                                   req[http::field::content_type].size()),
                  req.body(), &parts))
    return answer_bad_request("request body must be multipart/form-data with a boundary");
  nlohmann::json fields = nlohmann::json::object();
  std::optional<MediaSeen> image;
  for (const FormPart& p : parts) {
    if (p.name == "image") {
      auto m = inspect_media("image", "data:" + p.content_type + ";base64," + base64_encode(p.value));
      if (!m) return answer_bad_request(m.error().message);
      image = *m;
    } else if (p.name == "url") {
      image = MediaSeen{"image", "url"};
    } else if (p.name == "n" || p.name == "partial_images") {
      fields[p.name] = std::atoll(p.value.c_str());
    } else {
      fields[p.name] = p.value;
    }
  }
  if (!image) return answer_bad_request("'image' (a file) or 'url' is required");
  if (!fields.contains("size") && image->width > 0)
    fields["size"] = std::to_string(image->width) + "x" + std::to_string(image->height);
  edit_image_ = *image;
  handle_image_generation(fields.dump());
}

void Session::next_timed_event() {
  Generation& g = *gen_;
  if (g.next_event >= g.timed_events.size()) {
    out_.assign("0\r\n\r\n");
    g.status = 200;
    return asio::async_write(socket_, asio::buffer(out_),
                             [self = shared_from_this()](boost::beast::error_code ec, size_t) {
                               if (ec) return self->abort_generation("client-closed");
                               self->finish_generation();
                               if (!self->keep_alive_) return self->drain_and_close(true);
                               self->read_request();
                             });
  }
  const int64_t due = g.timed_events[g.next_event].first;
  if (g.fault == FaultKind::kReset && g.next_event + 1 == g.timed_events.size())
    return wait_then(due, &Session::apply_fault_reset);
  if (g.fault == FaultKind::kStall) return wait_then(due, &Session::apply_fault_stall);
  wait_then(due, &Session::write_timed_event);
}

void Session::write_timed_event() {
  Generation& g = *gen_;
  std::string& payload = g.timed_events[g.next_event].second;
  if (g.fault == FaultKind::kMalformed && g.next_event + 1 == g.timed_events.size()) {
    payload = "data: {\"type\":\"image_generation.completed\",\"b64_json\":\"trunc\n\n";
    g.outcome = "malformed";
  } else if (g.fault == FaultKind::kErrorEvent && g.next_event + 1 == g.timed_events.size()) {
    payload = "event: error\ndata: " +
              error_body("mock injected error event", "InternalServerError", 500) + "\n\n";
    g.outcome = "error-event";
  }
  out_.clear();
  char size[24];
  out_.append(size, static_cast<size_t>(std::snprintf(size, sizeof(size), "%zx\r\n",
                                                      payload.size())));
  out_.append(payload).append("\r\n");
  if (g.first_token_ns == 0) g.first_token_ns = now_ns();
  ++g.next_event;
  asio::async_write(socket_, asio::buffer(out_),
                    [self = shared_from_this()](boost::beast::error_code ec, size_t) {
                      if (ec) return self->abort_generation("client-closed");
                      self->next_timed_event();
                    });
}

}  // namespace servebench::mock
