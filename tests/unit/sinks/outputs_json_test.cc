// outputs.json (export/outputs_json.h): a valid document after close, one entry per record in
// the order added, reasoning only when present, failed requests with their (scrubbed) error; and
// the --export-http-trace object (export/http_trace_json.h) with redacted headers.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/secrets.h"
#include "export/http_trace_json.h"
#include "export/outputs_json.h"

namespace servebench::exporter {
namespace {

using Json = nlohmann::json;

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("sb-sinks-" + std::to_string(getpid()) + name))
      .string();
}

record::RequestRecord rec(int i, std::string text) {
  record::RequestRecord r;
  r.x_request_id = "id-" + std::to_string(i);
  r.output_text = std::move(text);
  return r;
}

TEST(OutputsJson, StreamedEntries) {
  core::secrets::clear_for_testing();
  core::secrets::add("hunter2-secret");
  const std::string path = temp_path("outputs.json");
  auto w = OutputsJsonWriter::open(path);
  ASSERT_TRUE(w) << w.error().message;
  auto a = rec(0, "hello \"world\"\n");
  auto b = rec(1, "");
  b.reasoning_text = "thinking";
  auto c = rec(2, "");
  c.error = record::ErrorKind::kHttpStatus;
  c.error_message = "HTTP 401: bad key hunter2-secret";
  (*w)->add({a, b});
  (*w)->add({});
  (*w)->add({c});
  ASSERT_TRUE((*w)->close());
  std::ifstream in(path);
  const Json j = Json::parse(in);
  ASSERT_EQ(j["data"].size(), 3u);
  EXPECT_EQ(j["data"][0]["output_text"], "hello \"world\"\n");
  EXPECT_FALSE(j["data"][0].contains("reasoning_text"));
  EXPECT_EQ(j["data"][1]["reasoning_text"], "thinking");
  EXPECT_TRUE(j["data"][1]["error"].is_null());
  EXPECT_EQ(j["data"][2]["x_request_id"], "id-2");
  EXPECT_EQ(j["data"][2]["error"], "HTTP 401: bad key <redacted>");
  std::filesystem::remove(path);
  core::secrets::clear_for_testing();
}

TEST(OutputsJson, EmptyRunIsAnEmptyList) {
  const std::string path = temp_path("empty.json");
  auto w = OutputsJsonWriter::open(path);
  ASSERT_TRUE(w);
  ASSERT_TRUE((*w)->close());
  std::ifstream in(path);
  EXPECT_EQ(Json::parse(in)["data"].size(), 0u);
  std::filesystem::remove(path);
}

TEST(OutputsJson, UnwritableFolderIsAnError) {
  auto w = OutputsJsonWriter::open("/nonexistent-dir/outputs.json");
  ASSERT_FALSE(w);
  EXPECT_NE(w.error().message.find("/nonexistent-dir/outputs.json"), std::string::npos);
}

TEST(HttpTraceJson, TimestampsAndRedactedHeaders) {
  record::RequestRecord r;
  r.x_request_id = "rid";
  r.x_correlation_id = "cid";
  r.request_start_ns = 10;
  r.request_sent_ns = 20;
  r.first_byte_ns = 30;
  r.end_ns = 40;
  r.connection_reused = true;
  HttpTraceContext ctx;
  ctx.headers = redacted_headers({"Content-Type: application/json", "Authorization: Bearer abc",
                                  "X-Custom-Key: 123456789"});
  std::string out = "{";
  record::RunAnchor anchor;
  anchor.steady_ns = 0;
  anchor.wall_ns = 1000;
  append_http_trace(r, anchor, ctx, &out);
  out += "}";
  const Json j = Json::parse(out)["trace_data"];
  EXPECT_EQ(j["request_start_ns"], 1010);
  EXPECT_TRUE(j["connect_start_ns"].is_null());
  EXPECT_EQ(j["response_end_ns"], 1040);
  EXPECT_TRUE(j["connection_reused"].get<bool>());
  EXPECT_EQ(j["request_headers"],
            Json::array({"Content-Type: application/json", "Authorization: <redacted>",
                         "X-Custom-Key: <redacted>", "X-Request-ID: rid", "X-Correlation-ID: cid"}));
}

}  // namespace
}  // namespace servebench::exporter
