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
    auto view = move_to_store(store, &t.body);
    if (!view) return tl::unexpected(view.error());
    t.stored = *view;
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

Result<load::BodyStore*> workload_store(PreparedWorkload* out) {
  if (!out->body_store) {
    auto store = load::BodyStore::open(load::BodyStore::default_dir());
    if (!store) return tl::unexpected(store.error());
    out->body_store = std::move(*store);
  }
  return out->body_store.get();
}

Result<std::string_view> move_to_store(load::BodyStore* store, std::string* bytes) {
  auto view = store->append(*bytes);
  if (view) std::string().swap(*bytes);  // its memory goes back now
  return view;
}

Result<std::string_view> KeptBytes::keep(std::string bytes, PreparedWorkload* out) {
  held_ += static_cast<int64_t>(bytes.size());
  if (!out->body_store && held_ <= threshold_) {
    if (bytes.capacity() > bytes.size() + bytes.size() / 8) bytes.shrink_to_fit();  // held for the run
    return std::string_view(memory_->emplace_back(std::move(bytes)));
  }
  auto store = workload_store(out);
  if (!store) return tl::unexpected(store.error());
  return (*store)->append(bytes);
}

Status BodySpill::after_entry(PreparedWorkload* out) {
  for (; counted_requests_ < out->requests.size(); ++counted_requests_)
    total_ += static_cast<int64_t>(out->requests[counted_requests_].body.size());
  for (; counted_warmup_ < out->warmup_requests.size(); ++counted_warmup_)
    total_ += static_cast<int64_t>(out->warmup_requests[counted_warmup_].body.size());
  if (!out->body_store && total_ <= threshold_) return {};
  auto store = workload_store(out);
  if (!store) return tl::unexpected(store.error());
  if (auto st = store_bodies(*store, &out->requests); !st) return st;
  return store_bodies(out->body_store.get(), &out->warmup_requests);
}

}  // namespace servebench::app
