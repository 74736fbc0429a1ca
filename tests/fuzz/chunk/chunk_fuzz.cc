// Fuzz target for the chat/completions EventParser: any bytes must give a status, never a
// crash, and the record must stay consistent (chunk text ranges inside their text buffers, one
// chunk per kOk non-blank event, nothing appended on kMalformed / kServerError). The parser's
// fast path (openai_fast_event.h) must give what the general path alone gives.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string_view>

#include "endpoints/endpoint.h"
#include "endpoints/openai_fast_event.h"

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

void check_record(const servebench::record::RequestRecord& rec) {
  for (const auto& c : rec.chunks) {
    const std::string& src = c.kind == servebench::record::ChunkKind::kReasoning ? rec.reasoning_text
                                                                                : rec.output_text;
    check(static_cast<size_t>(c.text_offset) + c.text_bytes <= src.size());
  }
  // Normalised usage: every count absent (-1) or a count (>= 0), whatever the server wrote.
  const auto& u = rec.usage;
  for (int64_t v : {u.prompt_tokens, u.completion_tokens, u.total_tokens, u.reasoning_tokens,
                    u.prompt_cache_read_tokens, u.prompt_cache_write_tokens,
                    u.prompt_cache_miss_tokens, u.prompt_audio_tokens, u.completion_audio_tokens,
                    u.accepted_prediction_tokens, u.rejected_prediction_tokens,
                    u.tool_use_prompt_tokens}) {
    check(v >= -1);
  }
  check(u.prompt_audio_seconds == -1 || u.prompt_audio_seconds >= 0);
}

void check_same(const servebench::record::RequestRecord& a,
                const servebench::record::RequestRecord& b) {
  check(a.chunks.size() == b.chunks.size());
  for (size_t i = 0; i < a.chunks.size(); ++i) {
    check(a.chunks[i].kind == b.chunks[i].kind);
    check(a.chunks[i].text_offset == b.chunks[i].text_offset);
    check(a.chunks[i].text_bytes == b.chunks[i].text_bytes);
  }
  check(a.output_text == b.output_text && a.reasoning_text == b.reasoning_text);
  check(a.finish_reason == b.finish_reason && a.error == b.error);
  check(a.error_message == b.error_message && a.usage == b.usage);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using servebench::endpoints::ParseStatus;
  static std::unique_ptr<servebench::endpoints::EventParser> parser =
      servebench::endpoints::make_event_parser("chat");
  static std::unique_ptr<servebench::endpoints::EventParser> general =
      servebench::endpoints::make_openai_event_parser(
          servebench::endpoints::OpenAiParsePath::kGeneralOnly);
  std::string_view in(reinterpret_cast<const char*>(data), size);
  servebench::record::RequestRecord rec;
  servebench::record::RequestRecord general_rec;
  // Twice into the same record: the second parse must append, not clobber.
  for (int round = 0; round < 2; ++round) {
    const size_t chunks = rec.chunks.size();
    const size_t out = rec.output_text.size();
    ParseStatus s = parser->parse_event(in, 7, &rec);
    check(general->parse_event(in, 7, &general_rec) == s);
    check_same(rec, general_rec);
    if (s == ParseStatus::kOk) {
      check(rec.chunks.size() == chunks || rec.chunks.size() == chunks + 1);
    } else {
      check(rec.chunks.size() == chunks && rec.output_text.size() == out);
    }
    if (s == ParseStatus::kMalformed || s == ParseStatus::kServerError) {
      check(rec.error != servebench::record::ErrorKind::kNone);
    }
    check_record(rec);
  }
  servebench::record::RequestRecord body_rec;
  parser->parse_body(in, 9, &body_rec);
  check_record(body_rec);
  check(body_rec.chunks.size() <= 1);
  return 0;
}
