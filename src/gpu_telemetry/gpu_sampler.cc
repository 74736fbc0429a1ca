#include "gpu_telemetry/gpu_sampler.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>

#include "core/log.h"

namespace servebench::gpu_telemetry {

std::string telemetry_jsonl_line(const GpuReading& r, int64_t wall_ns) {
  nlohmann::ordered_json j;
  j["gpu_index"] = r.gpu.index;
  j["gpu_uuid"] = r.gpu.uuid;
  j["gpu_model_name"] = r.gpu.name;
  if (!r.gpu.pci_bus_id.empty()) j["pci_bus_id"] = r.gpu.pci_bus_id;
  if (!r.gpu.device.empty()) j["device"] = r.gpu.device;
  if (!r.gpu.hostname.empty()) j["hostname"] = r.gpu.hostname;
  j["timestamp_ns"] = wall_ns;
  j["dcgm_url"] = r.gpu.source;
  nlohmann::ordered_json data = nlohmann::ordered_json::object();
  for (const auto& [tag, value] : r.values) data[tag] = value;
  j["telemetry_data"] = std::move(data);
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

GpuSampler::GpuSampler(std::vector<std::unique_ptr<GpuCollector>> collectors,
                       int64_t interval_ns, const core::Clock& clock, core::WallAnchor anchor)
    : collectors_(std::move(collectors)),
      interval_ns_(interval_ns),
      clock_(clock),
      anchor_(anchor) {
  for (const auto& c : collectors_) configured_.push_back(c->source());
}

GpuSampler::~GpuSampler() { stop(); }

void GpuSampler::start(const std::string& jsonl_path) {
  if (thread_.joinable()) return;
  thread_ = std::thread([this, jsonl_path] { run(jsonl_path); });
}

void GpuSampler::stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_requested_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void GpuSampler::run(std::string jsonl_path) {
  open_.assign(collectors_.size(), false);
  failure_logged_.assign(collectors_.size(), false);
  for (size_t i = 0; i < collectors_.size(); ++i) {
    if (auto st = collectors_[i]->open(); !st) {
      notes_.push_back(fmt::format("GPU telemetry: {} skipped: {}", collectors_[i]->source(),
                                   st.error().message));
      if (std::find(quiet_.begin(), quiet_.end(), collectors_[i]->source()) != quiet_.end())
        SB_LOG_DEBUG("{}", notes_.back());
      else
        SB_LOG_INFO("{}", notes_.back());
      continue;
    }
    open_[i] = true;
    reachable_.push_back(collectors_[i]->source());
  }
  if (reachable_.empty()) return;
  std::FILE* out = nullptr;
  if (!jsonl_path.empty()) {
    out = std::fopen(jsonl_path.c_str(), "w");
    if (out == nullptr)
      write_error_ = fmt::format("cannot write {}: {}", jsonl_path, std::strerror(errno));
  }
  int64_t next = clock_.now_ns();
  std::unique_lock<std::mutex> lock(mu_);
  do {
    lock.unlock();
    collect_all(out);
    lock.lock();
    next += interval_ns_;
    const int64_t wait = next - clock_.now_ns();
    if (wait > 0) {
      cv_.wait_for(lock, std::chrono::nanoseconds(wait), [this] { return stop_requested_; });
    } else {
      next = clock_.now_ns();  // a slow collection: no burst to catch up
    }
  } while (!stop_requested_);
  lock.unlock();
  collect_all(out);  // the window's end always gets a sample
  if (out != nullptr && std::fclose(out) != 0 && write_error_.empty())
    write_error_ = fmt::format("cannot write {}: {}", jsonl_path, std::strerror(errno));
}

void GpuSampler::collect_all(std::FILE* out) {
  for (size_t i = 0; i < collectors_.size(); ++i) {
    if (!open_[i]) continue;
    auto readings = collectors_[i]->collect();
    const int64_t steady = clock_.now_ns();
    ++collections_;
    if (!readings) {
      ++failed_;
      if (!failure_logged_[i]) {
        failure_logged_[i] = true;
        SB_LOG_WARN("GPU telemetry: collection from {} failed: {}", collectors_[i]->source(),
                    readings.error().message);
      }
      continue;
    }
    const int64_t wall = anchor_.to_wall_ns(steady);
    for (const auto& r : *readings) {
      series_.add(r, steady);
      if (out != nullptr) {
        const std::string line = telemetry_jsonl_line(r, wall) + "\n";
        if (std::fwrite(line.data(), 1, line.size(), out) != line.size() && write_error_.empty())
          write_error_ = "gpu_telemetry_export.jsonl: write failed";
      }
    }
  }
}

}  // namespace servebench::gpu_telemetry
