#include "export/outputs_json.h"

#include <cerrno>
#include <cstring>

#include "core/json_text.h"
#include "core/secrets.h"

namespace servebench::exporter {
namespace {

void field(std::string* out, const char* k, std::string_view v) {
  out->push_back('"');
  out->append(k);
  out->append("\":");
  core::append_json_string(v, out);
  out->push_back(',');
}

}  // namespace

Result<std::unique_ptr<OutputsJsonWriter>> OutputsJsonWriter::open(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr)
    return make_error(ErrorCode::kIo, "cannot write " + path + ": " + std::strerror(errno) +
                                          "; choose a writable --artifact-dir");
  std::fputs("{\"data\":[", f);
  return std::unique_ptr<OutputsJsonWriter>(new OutputsJsonWriter(f, path));
}

OutputsJsonWriter::~OutputsJsonWriter() {
  if (f_ != nullptr) (void)close();
}

void OutputsJsonWriter::add(const std::vector<record::RequestRecord>& batch) {
  if (f_ == nullptr) return;
  buf_.clear();
  for (const record::RequestRecord& r : batch) {
    buf_.append(first_ ? "\n" : ",\n");
    first_ = false;
    buf_.push_back('{');
    field(&buf_, "x_request_id", r.x_request_id);
    field(&buf_, "x_correlation_id", r.x_correlation_id);
    field(&buf_, "conversation_id", r.conversation_id);
    buf_.append("\"turn_index\":").append(std::to_string(r.turn_index)).push_back(',');
    field(&buf_, "benchmark_phase", record::phase_name(r.phase));
    if (!r.reasoning_text.empty()) field(&buf_, "reasoning_text", r.reasoning_text);
    field(&buf_, "output_text", r.output_text);
    buf_.append("\"error\":");
    if (r.ok()) {
      buf_.append("null");
    } else {
      core::append_json_string(core::secrets::scrub(r.error_message), &buf_);
    }
    buf_.push_back('}');
  }
  if (std::fwrite(buf_.data(), 1, buf_.size(), f_) != buf_.size()) failed_ = true;
  if (buf_.capacity() > (4u << 20)) std::string().swap(buf_);
}

Status OutputsJsonWriter::close() {
  if (f_ == nullptr) return {};
  std::fputs("\n]}\n", f_);
  const bool bad = std::fclose(f_) != 0 || failed_;
  f_ = nullptr;
  if (bad) return make_error(ErrorCode::kIo, "writing " + path_ + " failed");
  return {};
}

}  // namespace servebench::exporter
