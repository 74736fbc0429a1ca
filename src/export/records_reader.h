// Records reader: turns profile_export.jsonl lines (records_jsonl.h) back into RequestRecords
// that carry every field the summary reads, so `servebench report` (and the merge of shards) can
// recompute profile_export_aiperf.json from the file alone.
//
// What comes back:
//   * timestamps are the line's wall ns, used as the record's steady ns: summarize these records
//     with kReaderAnchor (wall = steady), and every interval, min/max timestamp and wall time is
//     what the run computed;
//   * identity (request_index, ids, session/turn, worker, url_index, phase), http_status,
//     streaming, error kind/code/message (the message as exported, i.e. secret-scrubbed),
//     cancel reason, token counts, requested_output_tokens, output_items, usage (from the
//     usage_* metrics), request/response bytes and connection reuse (from the http_req_* metrics);
//   * the content chunks of successful requests with their exact times, kinds and token counts
//     (chunk_kinds, chunk_tokens, time_to_first_token, inter_chunk_latency). Empty and usage-only
//     events, output text, reasoning text and request bodies are not in the file and stay empty.
//
// Lines written before these keys existed (or by AIPerf) still parse; fields they lack keep the
// record's defaults (-1 / 0 / false), so their summary may differ.
//
// Thread safety: pure functions; for_each_record reads its file on the calling thread.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "record/request_record.h"

namespace servebench::exporter {

// Steady = wall for records from the reader.
inline constexpr record::RunAnchor kReaderAnchor{0, 0};

// Parses one line. Fails (kParse) on invalid JSON or a line without "metadata".
Result<record::RequestRecord> parse_record_line(std::string_view line);

// Calls `fn` for every non-blank line of `path`, in file order, one record alive at a time.
// Fails on an unreadable file or the first bad line (its 1-based number is in the message).
Status for_each_record(const std::string& path,
                       const std::function<void(record::RequestRecord&&)>& fn);

// Every record of `path` (tests and small files; for_each_record keeps memory flat).
Result<std::vector<record::RequestRecord>> read_records(const std::string& path);

}  // namespace servebench::exporter
