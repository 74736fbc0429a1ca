// Helpers of the responses/messages unit tests: captured payloads from tests/unit/endpoints/data
// and a stream runner that frames them with the transport's SseParser (event names included).
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "endpoints/endpoint.h"
#include "transport/sse_parser.h"

namespace servebench::endpoints::testutil {

inline std::string read_data(const std::string& name) {
  const char* src = std::getenv("SERVEBENCH_SOURCE_DIR");
  std::string dir = src ? std::string(src) : std::string(SERVEBENCH_TEST_SOURCE_DIR);
  std::ifstream in(dir + "/tests/unit/endpoints/data/" + name, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct StreamResult {
  record::RequestRecord rec;
  std::vector<ParseStatus> statuses;
};

// Runs `bytes` through SseParser and `type`'s EventParser, one feed per `piece` bytes, feed i
// stamped 1000 + i.
inline StreamResult run_bytes(const std::string& type, const std::string& bytes,
                              size_t piece = 1 << 20) {
  auto parser = make_event_parser(type);
  transport::SseParser sse;
  StreamResult r;
  auto sink = [&](const transport::SseEvent& ev) {
    r.statuses.push_back(parser->parse_event(SseEventView{ev.event, ev.data}, ev.recv_ns, &r.rec));
  };
  int64_t t = 1000;
  for (size_t i = 0; i < bytes.size(); i += piece)
    sse.feed(std::string_view(bytes).substr(i, piece), t++, sink);
  sse.finish(t, sink);
  return r;
}

inline StreamResult run_file(const std::string& type, const std::string& name,
                             size_t piece = 1 << 20) {
  const std::string bytes = read_data(name);
  EXPECT_FALSE(bytes.empty()) << name;
  return run_bytes(type, bytes, piece);
}

inline record::RequestRecord parse_whole(const std::string& type, const std::string& body,
                                         ParseStatus* status = nullptr) {
  auto parser = make_event_parser(type);
  record::RequestRecord rec;
  ParseStatus s = parser->parse_body(body, 5, &rec);
  if (status != nullptr) *status = s;
  return rec;
}

inline std::vector<record::ChunkKind> kinds(const record::RequestRecord& rec) {
  std::vector<record::ChunkKind> k;
  for (const auto& c : rec.chunks) k.push_back(c.kind);
  return k;
}

inline std::string chunk_text(const record::RequestRecord& rec, size_t i) {
  const auto& c = rec.chunks[i];
  const std::string& src =
      c.kind == record::ChunkKind::kReasoning ? rec.reasoning_text : rec.output_text;
  return src.substr(c.text_offset, c.text_bytes);
}

// "event: <name>\ndata: <data>\n\n"
inline std::string sse(const std::string& name, const std::string& data) {
  return "event: " + name + "\ndata: " + data + "\n\n";
}

}  // namespace servebench::endpoints::testutil
