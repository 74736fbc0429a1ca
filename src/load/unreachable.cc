#include "load/unreachable.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace servebench::load {

using record::ErrorKind;
using record::RequestRecord;

bool is_connection_failure(const RequestRecord& rec) {
  switch (rec.error) {
    case ErrorKind::kConnect:
    case ErrorKind::kTls:
      return true;
    case ErrorKind::kStreamReset:
      return rec.first_byte_ns == 0 && rec.response_bytes == 0;
    default:
      return false;
  }
}

bool is_client_resource_failure(const RequestRecord& rec) {
  if (rec.error != ErrorKind::kConnect) return false;
  const std::string& m = rec.error_message;
  return m.find("Too many open files") != std::string::npos ||
         m.find("Cannot assign requested address") != std::string::npos;
}

namespace {

double seconds(int64_t ns) { return static_cast<double>(ns) / 1e9; }

std::string describe(const Outage& o, int64_t origin_ns, bool several_urls) {
  const std::string who =
      several_urls ? fmt::format("server (--url #{})", o.url_index + 1) : "server";
  const std::string until =
      o.trailing ? fmt::format("to the end of the run ({:.2f} s)", seconds(o.to_ns - origin_ns))
                 : fmt::format("to {:.2f} s", seconds(o.to_ns - origin_ns));
  return fmt::format("{} unreachable from {:.2f} s {}: {} connection error(s), first: {}", who,
                     seconds(o.from_ns - origin_ns), until, o.errors, o.example);
}

// Outages of one URL's sends, in send order.
void scan(const std::vector<const RequestRecord*>& sends, int64_t window_end_ns,
          std::vector<Outage>* out) {
  Outage cur;
  for (const RequestRecord* r : sends) {
    if (is_connection_failure(*r)) {
      if (cur.errors == 0) {
        cur.from_ns = r->request_start_ns;
        cur.example = r->error_message;
        cur.url_index = r->url_index;
      }
      cur.to_ns = std::max(cur.to_ns, r->end_ns);
      ++cur.errors;
      continue;
    }
    if (cur.errors >= kWarnMinErrors) out->push_back(cur);
    cur = Outage();
  }
  if (cur.errors > 0) {
    cur.trailing = true;
    cur.to_ns = std::max(cur.to_ns, window_end_ns);
    out->push_back(cur);
  }
}

}  // namespace

UnreachableReport find_outages(const std::vector<RequestRecord>& records) {
  UnreachableReport report;
  std::map<int32_t, std::vector<const RequestRecord*>> by_url;
  int64_t origin = INT64_MAX, first_send = INT64_MAX, window_end = 0;
  for (const RequestRecord& r : records) {
    if (r.phase != record::Phase::kProfiling || r.dropped() || is_client_resource_failure(r))
      continue;
    by_url[r.url_index].push_back(&r);
    origin = std::min(origin, r.intended_ns);
    first_send = std::min(first_send, r.request_start_ns);
    window_end = std::max(window_end, r.end_ns);
  }
  if (by_url.empty()) return report;
  for (auto& [url, sends] : by_url) {
    std::stable_sort(sends.begin(), sends.end(),
                     [](const RequestRecord* a, const RequestRecord* b) {
                       return a->request_start_ns < b->request_start_ns;
                     });
    scan(sends, window_end, &report.outages);
  }
  const int64_t window = std::max<int64_t>(1, window_end - first_send);
  for (const Outage& o : report.outages) {
    report.warnings.push_back(describe(o, origin, by_url.size() > 1));
    const int64_t lasted = o.to_ns - o.from_ns;
    if (o.trailing && o.errors >= kFailMinErrors &&
        (lasted >= kFailMinNs ||
         static_cast<double>(lasted) >= kFailMinShare * static_cast<double>(window)))
      report.fail_run = true;
  }
  return report;
}

}  // namespace servebench::load
