#include "app/fd_budget.h"

#include <fmt/format.h>

#include <algorithm>

namespace servebench::app {
namespace {

// The slots that bound requests in flight: the closed-loop concurrency or the ceiling under a
// rate; a fixed schedule and user-centric sessions have only the ceiling the user gave.
std::optional<int64_t> bounding_slots(const load::LoadSpec& spec) {
  if (spec.fixed_offsets_ns || spec.user_centric) return spec.concurrency_ceiling;
  return spec.concurrency;
}

int64_t connections_for(int64_t slots, int64_t urls, int workers, int http_version) {
  // HTTP/1.1: a pooled connection per request in flight, and round robin over URLs can leave
  // an idle one per URL behind each slot.
  if (http_version != 2) return slots * urls;
  const int64_t per_url =
      std::max<int64_t>(workers, (slots + kStreamsPerConnection - 1) / kStreamsPerConnection);
  return per_url * urls;
}

int64_t fixed_part(int workers) { return kFdBase + kFdPerWorker * workers; }

}  // namespace

FdNeed estimate_fd_need(const load::LoadSpec& spec, int64_t urls, int workers, int http_version) {
  FdNeed need;
  urls = std::max<int64_t>(1, urls);
  need.slots = bounding_slots(spec);
  need.descriptors = fixed_part(workers);
  if (!need.slots) return need;
  need.descriptors += connections_for(*need.slots, urls, workers, http_version);
  need.cause = urls > 1 ? fmt::format("--concurrency {} over {} URLs", *need.slots, urls)
                        : fmt::format("--concurrency {}", *need.slots);
  return need;
}

Status check_fd_budget(const FdNeed& need, uint64_t limit, int64_t urls, int workers) {
  if (!need.slots || need.descriptors <= static_cast<int64_t>(std::min<uint64_t>(limit, INT64_MAX)))
    return {};
  // The fix: the need rounded up to a multiple of 1024, and the most slots the limit allows.
  const int64_t suggest = (need.descriptors + 1023) / 1024 * 1024;
  const int64_t room = static_cast<int64_t>(limit) - fixed_part(workers);
  const int64_t fits = std::max<int64_t>(1, room / std::max<int64_t>(1, urls));
  return make_error(
      ErrorCode::kInvalidArgument,
      fmt::format(
          "{} needs about {} open files (connections plus {} for the process and its "
          "workers) but the limit is {}; raise it first, e.g. `ulimit -n {}` (past the hard "
          "limit that needs root or /etc/security/limits.conf), or lower --concurrency to {}",
          need.cause, need.descriptors, fixed_part(workers), limit, suggest, fits));
}

std::string open_loop_fd_warning(const load::LoadSpec& spec, int64_t urls, int workers,
                                 uint64_t limit) {
  if (estimate_fd_need(spec, urls, workers, 1).slots || !spec.request_rate) return "";
  const auto floor = static_cast<int64_t>(*spec.request_rate + 0.999) + fixed_part(workers);
  if (floor <= static_cast<int64_t>(std::min<uint64_t>(limit, INT64_MAX))) return "";
  return fmt::format(
      "--request-rate {} without --concurrency keeps about {} connections open per second of "
      "latency but the open-file limit is {}; add --concurrency as a ceiling or raise `ulimit -n`",
      *spec.request_rate, floor, limit);
}

}  // namespace servebench::app
