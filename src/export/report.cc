#include "export/report.h"

#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "export/record_stream.h"
#include "export/records_reader.h"
#include "metrics/slo.h"
#include "metrics/summary_accumulator.h"

namespace servebench::exporter {

namespace {

using nlohmann::json;
namespace fs = std::filesystem;

std::string str_at(const json& j, const char* k) {
  auto it = j.find(k);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

const json& obj_at(const json& j, const char* k) {
  static const json kEmpty = json::object();
  auto it = j.find(k);
  return it != j.end() && it->is_object() ? *it : kEmpty;
}

std::string join(const json& list) {
  std::string out;
  if (!list.is_array()) return out;
  for (const auto& e : list) {
    if (!e.is_string()) continue;
    if (!out.empty()) out.push_back(' ');
    out += e.get<std::string>();
  }
  return out;
}

// The run's context and export options as the original run had them.
void context_from_json(const json& doc, RunContext* c, ExportOptions* o) {
  const json& input = obj_at(doc, "input_config");
  const json& endpoint = obj_at(input, "endpoint");
  const json& run_info = obj_at(doc, "run_info");
  const json& ours = obj_at(doc, "servebench");
  c->input_config_json = input.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  c->cli_command = str_at(run_info, "cli_command");
  if (auto m = endpoint.find("model_names"); m != endpoint.end() && m->is_array() && !m->empty() &&
                                             m->front().is_string()) {
    c->model = m->front().get<std::string>();
  }
  c->endpoint_type = str_at(endpoint, "type");
  c->streaming = endpoint.value("streaming", false);
  c->benchmark_id = str_at(doc, "benchmark_id");
  if (auto s = run_info.find("random_seed"); s != run_info.end() && s->is_number_unsigned()) {
    c->random_seed = s->get<uint64_t>();
    c->has_random_seed = true;
  }
  c->start_wall_ns = parse_wall_time(str_at(doc, "start_time"));
  c->end_wall_ns = parse_wall_time(str_at(doc, "end_time"));
  c->interrupted = doc.value("was_cancelled", false);
  c->fixed_schedule = doc.contains("replay_sched_lag_p50");  // written only for such runs
  c->anchor = kReaderAnchor;
  if (auto w = ours.find("warnings"); w != ours.end() && w->is_array()) {
    for (const auto& e : *w) {
      if (e.is_string()) c->warnings.push_back(e.get<std::string>());
    }
  }
  // The SLOs and gates as the run normalized them (tag:value / the condition texts).
  o->goodput = join(ours.contains("goodput_slos") ? ours["goodput_slos"] : json());
  o->fail_on = join(obj_at(ours, "fail_on").contains("conditions")
                        ? obj_at(ours, "fail_on")["conditions"]
                        : json());
}

Result<json> load_json(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error(ErrorCode::kNotFound, fmt::format("cannot read {}", path));
  std::stringstream ss;
  ss << in.rdbuf();
  json j = json::parse(ss.str(), nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    return make_error(ErrorCode::kParse, fmt::format("{} is not a JSON object", path));
  }
  return j;
}

}  // namespace

int64_t parse_wall_time(const std::string& text) {
  std::tm tm{};
  int micros = 0;
  if (std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d.%6d", &tm.tm_year, &tm.tm_mon,
                  &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &micros) != 7) {
    return 0;
  }
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  return static_cast<int64_t>(timegm(&tm)) * 1'000'000'000 + int64_t{micros} * 1000;
}

Result<ExportOutcome> report_from_artifacts(const ReportOptions& options) {
  const ArtifactNames names = artifact_names(options.profile_export_prefix);
  auto path = [&](const std::string& name) {
    return (fs::path(options.artifact_dir) / name).string();
  };
  auto doc = load_json(path(names.json));
  if (!doc) return tl::unexpected(doc.error());
  RunContext context;
  ExportOptions eo;
  context_from_json(*doc, &context, &eo);
  eo.artifact_dir = options.artifact_dir;
  eo.profile_export_prefix = options.profile_export_prefix;
  eo.print_console = options.print_console;
  auto slos = metrics::parse_goodput(eo.goodput);
  if (!slos) return tl::unexpected(slos.error());

  metrics::SummaryOptions so;
  so.slos = std::move(*slos);
  so.anchor = kReaderAnchor;
  so.replay_lag_rows = context.fixed_schedule;
  // The lines carry only the metrics that applied to the run; media and video rows are kept for
  // the records that have values (a row without any is not reported).
  so.capabilities |= core::kCapMedia | core::kCapProducesVideo;
  metrics::SummaryAccumulator profiling(so), warmup(so);
  auto read = for_each_record(path(names.jsonl), [&](record::RequestRecord&& r) {
    (r.phase == record::Phase::kWarmup ? warmup : profiling).add(r);
  });
  if (!read) return tl::unexpected(read.error());
  RunSummaries run;
  run.profiling = profiling.finish();
  if (warmup.size() > 0) run.warmup = warmup.finish();
  // The files this report keeps, listed in the console where the run listed them.
  const std::pair<const char*, std::string> kept[] = {
      {"Records Export", names.jsonl},
      {"Raw Records Export", names.raw_jsonl},
      {"Timeslices JSON Export", names.timeslices_json},
      {"Timeslices CSV Export", names.timeslices_csv},
      {"Inputs Export", names.inputs},
  };
  for (const auto& [label, name] : kept) {
    if (fs::exists(path(name))) run.record_files.emplace_back(label, path(name));
  }
  return write_summary_artifacts(run, context, eo);
}

}  // namespace servebench::exporter
