// server_metrics_export.json and server_metrics_export.csv, in AIPerf's layout (metrics keyed by
// name; one series per endpoint + label set, tagged with endpoint_url; gauge stats avg, min, max,
// std, p1..p99; counter stats total, rate; histogram stats count, count_rate, sum, sum_rate, avg,
// p1_estimate..p99_estimate plus the bucket deltas; timeslices with --slice-duration). servebench
// adds "unsupported_metrics" (summary families) and "reconciliation" (server_reconcile.h).
//
// Thread safety: pure functions.
#pragma once

#include <string>
#include <vector>

#include "core/clock.h"
#include "telemetry/server_collector.h"
#include "telemetry/server_reconcile.h"
#include "telemetry/server_stats.h"

namespace servebench::telemetry {

struct ExportContext {
  std::string benchmark_id;
  std::string input_config_json;  // "" = omitted
  core::WallAnchor anchor;
  std::vector<std::string> endpoints_configured;
};

std::string render_server_json(const ServerReport& report, const std::vector<EndpointFacts>& facts,
                               const std::vector<ReconcileRow>& reconciliation,
                               const ExportContext& ctx);

// Sections per type (gauge, counter, histogram), each with its header row: Endpoint, Type,
// Metric, Unit, the type's stats, one column per label name, Description (and buckets for
// histograms).
std::string render_server_csv(const ServerReport& report, const ExportContext& ctx);

// The unit AIPerf infers from a metric's name ("seconds", "bytes", "ratio", "tokens", ...), else
// the family's # UNIT, else "".
std::string infer_unit(const std::string& metric, const std::string& declared_unit);

}  // namespace servebench::telemetry
