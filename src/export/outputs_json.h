// outputs.json (--export-outputs-json): each request's generated text, written as records
// complete (one entry per record, completion order) and never kept in memory:
//   {"data": [{"x_request_id", "x_correlation_id", "conversation_id", "turn_index",
//              "benchmark_phase", "output_text", "reasoning_text" (only when there is some),
//              "error" (null, or the one-line error with secrets scrubbed)}, ...]}
// The file is a valid JSON document only after close(); a run that dies mid-way leaves the
// entries written so far.
//
// Thread safety: add() from one thread at a time (the record-processing thread); close() after
// the last add().
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "core/result.h"
#include "record/request_record.h"

namespace servebench::exporter {

class OutputsJsonWriter {
 public:
  // Creates `path` and writes the document's head.
  static Result<std::unique_ptr<OutputsJsonWriter>> open(const std::string& path);
  ~OutputsJsonWriter();
  OutputsJsonWriter(const OutputsJsonWriter&) = delete;
  OutputsJsonWriter& operator=(const OutputsJsonWriter&) = delete;

  void add(const std::vector<record::RequestRecord>& batch);
  // Writes the tail and closes; the first write error, if any.
  Status close();
  const std::string& path() const { return path_; }

 private:
  OutputsJsonWriter(std::FILE* f, std::string path) : f_(f), path_(std::move(path)) {}
  std::FILE* f_;
  std::string path_;
  std::string buf_;
  bool first_ = true;
  bool failed_ = false;
};

}  // namespace servebench::exporter
