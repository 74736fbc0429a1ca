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

}  // namespace

uint32_t OutageTracker::message_id(const std::string& message) {
  if (auto it = message_ids_.find(message); it != message_ids_.end()) return it->second;
  if (messages_.size() + 1 >= kMaxMessages) {
    // The last slot holds every further distinct message.
    if (messages_.size() + 1 == kMaxMessages) messages_.push_back("(other messages)");
    return static_cast<uint32_t>(kMaxMessages - 1);
  }
  message_ids_.emplace(message, static_cast<uint32_t>(messages_.size()));
  messages_.push_back(message);
  return static_cast<uint32_t>(messages_.size() - 1);
}

void OutageTracker::add(const RequestRecord& r) {
  if (r.phase != record::Phase::kProfiling || r.dropped() || is_client_resource_failure(r)) return;
  const uint32_t msg = is_connection_failure(r) ? message_id(r.error_message) : kOk;
  sends_.push_back({r.request_start_ns, r.end_ns, r.intended_ns, r.url_index, msg});
}

UnreachableReport OutageTracker::report() const {
  UnreachableReport report;
  std::map<int32_t, std::vector<const Send*>> by_url;
  int64_t origin = INT64_MAX, first_send = INT64_MAX, window_end = 0;
  for (const Send& s : sends_) {
    by_url[s.url_index].push_back(&s);
    origin = std::min(origin, s.intended_ns);
    first_send = std::min(first_send, s.start_ns);
    window_end = std::max(window_end, s.end_ns);
  }
  if (by_url.empty()) return report;
  for (auto& [url, sends] : by_url) {
    std::stable_sort(sends.begin(), sends.end(),
                     [](const Send* a, const Send* b) { return a->start_ns < b->start_ns; });
    // Outages of this URL's sends, in send order.
    Outage cur;
    for (const Send* s : sends) {
      if (s->message != kOk) {
        if (cur.errors == 0) {
          cur.from_ns = s->start_ns;
          cur.example = messages_[s->message];
          cur.url_index = s->url_index;
        }
        cur.to_ns = std::max(cur.to_ns, s->end_ns);
        ++cur.errors;
        continue;
      }
      if (cur.errors >= kWarnMinErrors) report.outages.push_back(cur);
      cur = Outage();
    }
    if (cur.errors > 0) {
      cur.trailing = true;
      cur.to_ns = std::max(cur.to_ns, window_end);
      report.outages.push_back(cur);
    }
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

UnreachableReport find_outages(const std::vector<RequestRecord>& records) {
  OutageTracker tracker;
  for (const RequestRecord& r : records) tracker.add(r);
  return tracker.report();
}

}  // namespace servebench::load
