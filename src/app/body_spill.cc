#include "app/body_spill.h"

#include <cerrno>
#include <cstdlib>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/env.h"

namespace servebench::app {
namespace {

Status store_bodies(load::BodyStore* store, std::vector<load::RequestTemplate>* list) {
  for (auto& t : *list) {
    if (t.stored.data()) continue;
    auto view = store->append(t.body);
    if (!view) return tl::unexpected(view.error());
    t.stored = *view;
    std::string().swap(t.body);  // its memory goes back now
  }
  return {};
}

}  // namespace

Result<int64_t> body_store_threshold_bytes() {
  const auto& value = core::env().get(core::EnvVar::kServebenchBodyStoreMib);
  if (!value || value->empty()) return kBodyStoreThresholdMiB << 20;
  const char* v = value->c_str();
  char* end = nullptr;
  errno = 0;
  const long long mib = std::strtoll(v, &end, 10);
  if (errno != 0 || *end != '\0' || mib < 0 || mib > (int64_t{1} << 40)) {
    return tl::unexpected(Error{ErrorCode::kInvalidArgument,
                                fmt::format("SERVEBENCH_BODY_STORE_MIB={} is not a size in MiB; "
                                            "set a whole number >= 0 or unset it",
                                            v)});
  }
  return static_cast<int64_t>(mib) << 20;
}

Status BodySpill::after_entry(PreparedWorkload* out) {
  for (; counted_requests_ < out->requests.size(); ++counted_requests_)
    total_ += static_cast<int64_t>(out->requests[counted_requests_].body.size());
  for (; counted_warmup_ < out->warmup_requests.size(); ++counted_warmup_)
    total_ += static_cast<int64_t>(out->warmup_requests[counted_warmup_].body.size());
  if (!out->body_store && total_ <= threshold_) return {};
  if (!out->body_store) {
    auto store = load::BodyStore::open(load::BodyStore::default_dir());
    if (!store) return tl::unexpected(store.error());
    out->body_store = std::move(*store);
  }
  if (auto st = store_bodies(out->body_store.get(), &out->requests); !st) return st;
  return store_bodies(out->body_store.get(), &out->warmup_requests);
}

}  // namespace servebench::app
