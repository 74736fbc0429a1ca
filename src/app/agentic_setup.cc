#include "app/agentic_setup.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string_view>

#include "dataset/loaders/trace_timing.h"
#include "load/agentic_lanes.h"

namespace servebench::app {
namespace {
constexpr double kContextOverflowRateLimit = 0.01;  // AIPerf's: strictly above 1% is invalid
constexpr int64_t kPressureDrainCapNs = 300'000'000'000;
}  // namespace

Status prepare_agentic_file(const config::BenchmarkConfig& cfg, dataset::DatasetFile* file) {
  const config::AgenticOptions& a = cfg.agentic;
  if (!a.scenario.empty() && file->format != dataset::FileFormat::kWekaTrace)
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("--scenario {} replays weka_trace files; '{}' is {} (give a weka_trace file or folder)",
                                  a.scenario, cfg.input_file.empty() ? cfg.public_dataset : cfg.input_file,
                                  dataset::file_format_name(file->format)));
  if (a.ignore_trace_delays) {
    dataset::strip_trace_delays(file);
    return {};
  }
  dataset::RetimeOptions o;
  o.idle_gap_cap_s = a.trace_idle_gap_cap_s.value_or(-1);
  o.end_to_start = a.replay;  // the scenario replays recorded end-to-start gaps
  dataset::retime_agent_traces(file, o);
  return {};
}

Status add_agentic_lanes(const config::BenchmarkConfig& cfg, uint64_t seed, PreparedWorkload* work) {
  const config::AgenticOptions& a = cfg.agentic;
  if (!a.replay) return {};
  if (!work->sessions)
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("--scenario {}: '{}' holds no agent session to replay", a.scenario, cfg.input_file));
  load::LaneOptions o;
  o.lanes = cfg.effective_concurrency().value_or(1);
  o.min_ratio = a.min_ratio();
  o.max_ratio = a.max_ratio();
  o.allow_wrap = a.allow_dataset_wrap.value_or(false);
  o.burst = a.burst_phase_starts;
  if (a.system_idle_gap_cap_s) o.system_idle_cap_ns = static_cast<int64_t>(std::llround(*a.system_idle_gap_cap_s * 1e9));
  o.seed = seed;
  SB_TRY_ASSIGN(const std::vector<load::Lane> lanes, load::plan_lanes(*work->sessions, o));
  load::apply_lanes(work->sessions.get(), lanes, a.cache_warmup_ns.has_value());
  work->agentic_lanes = static_cast<int64_t>(lanes.size());
  work->agentic_warmup_span_ns = 0;
  for (const auto& l : lanes) work->agentic_warmup_span_ns = std::max(work->agentic_warmup_span_ns, l.warmup_delay_ns);
  return {};
}

void apply_agentic_load(const config::BenchmarkConfig& cfg, int64_t lanes, int64_t warmup_span_ns,
                        load::LoadSpec* spec) {
  if (!cfg.agentic.replay || lanes <= 0) return;
  spec->sessions = true;
  spec->concurrency = lanes;
  spec->session_count.reset();  // lanes recycle traces until the duration ends
  spec->warmup_sessions = lanes;
  spec->warmup_load.concurrency = lanes;
  if (const auto& pressure = cfg.agentic.cache_warmup_ns) {
    // Cache pressure: lanes, then recycled traces, play on until the duration ends; the drain is
    // bounded by max(benchmark grace, min(duration, 300 s)), as AIPerf's.
    spec->warmup_sessions.reset();
    spec->warmup_duration_ns = warmup_span_ns + *pressure;
    spec->warmup_load.grace_ns = cfg.agentic.warmup_grace_ns.value_or(
        std::max(cfg.effective_grace_ns(), std::min<int64_t>(*pressure, kPressureDrainCapNs)));
  } else if (cfg.agentic.warmup_grace_ns) {
    // Sends stop after the last lane's spread start; the grace then bounds the barrier.
    spec->warmup_duration_ns = warmup_span_ns + 100'000'000;  // a margin for a late wake-up
    spec->warmup_load.grace_ns = *cfg.agentic.warmup_grace_ns;
  }
}

std::shared_ptr<load::IdleGapCap> agentic_idle_cap(const config::BenchmarkConfig& cfg) {
  if (!cfg.agentic.replay || !cfg.agentic.system_idle_gap_cap_s) return nullptr;
  return std::make_shared<load::IdleGapCap>(static_cast<int64_t>(std::llround(*cfg.agentic.system_idle_gap_cap_s * 1e9)));
}

int64_t context_overflow_count(const metrics::Summary& summary) {
  static constexpr std::string_view kNeedles[] = {"context length", "maximum context", "context_length_exceeded",
                                                  "prompt is too long"};
  int64_t n = 0;
  for (const auto& g : summary.error_summary) {
    std::string lower = g.message;
    for (char& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    for (std::string_view needle : kNeedles)
      if (lower.find(needle) != std::string::npos) {
        n += g.count;
        break;
      }
  }
  return n;
}

exporter::ExtraSectionsFn scenario_sections(const config::BenchmarkConfig& cfg, const bool* interrupted) {
  if (!cfg.agentic.outcome) return nullptr;
  const config::ScenarioOutcome outcome = *cfg.agentic.outcome;
  const std::string name = cfg.agentic.scenario;
  return [outcome, name, interrupted](const metrics::Summary& s) {
    bool valid = outcome.submission_valid;
    std::vector<std::string> reasons = outcome.invalid_reasons;
    const int64_t overflows = context_overflow_count(s);
    const int64_t responses = s.request_count + s.error_request_count;
    if (responses > 0 && static_cast<double>(overflows) / static_cast<double>(responses) > kContextOverflowRateLimit) {
      valid = false;
      reasons.emplace_back("context_overflow_rate_exceeded");
    }
    if (interrupted && *interrupted) {
      valid = false;
      reasons.emplace_back("run_cancelled");
    }
    exporter::ExtraSections e;
    nlohmann::json scenario = {{"name", name},
                               {"applied_locks", outcome.applied_locks},
                               {"violations", outcome.violations},
                               {"context_overflow_count", overflows}};
    e.json.emplace_back("scenario", scenario.dump());
    e.json.emplace_back("submission_valid", valid ? "true" : "false");
    e.json.emplace_back("submission_invalid_reasons", nlohmann::json(reasons).dump());
    return e;
  };
}

}  // namespace servebench::app
