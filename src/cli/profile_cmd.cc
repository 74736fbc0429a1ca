// `servebench profile`: flags → config → tokenizer → prompts → plan → run → record processing →
// artifacts → exit code (0 ok, 1 gate failed, 2 usage error, 3 every request failed / runtime
// failure). Artifacts are written in every case that ran, including Ctrl-C.
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <random>
#include <thread>

#include <fmt/format.h>

#include "cli/commands.h"
#include "config/cli_options.h"
#include "core/clock.h"
#include "core/log.h"
#include "core/rng.h"
#include "cli/workload_setup.h"
#include "dataset/synthetic_prompts.h"
#include "endpoints/endpoint.h"
#include "export/artifacts.h"
#include "load/plan.h"
#include "load/runner.h"
#include "load/unreachable.h"
#include "metrics/slo.h"
#include "record/record_processor.h"
#include "tokenizer/tokenizer.h"
#include "transport/kv_cache_reset.h"

namespace servebench::cli {
namespace {

int usage_error(std::string message) {
  std::replace(message.begin(), message.end(), '\n', ' ');  // exactly one line, whatever the source
  std::replace(message.begin(), message.end(), '\r', ' ');
  std::fprintf(stderr, "servebench profile: %s\n", message.c_str());
  return 2;
}

// Ctrl-C: SIGINT/SIGTERM are blocked in every thread (run_profile blocks them before any thread
// exists, so all threads inherit the mask) and one watcher thread takes them with sigtimedwait,
// so no code runs in signal context. A signal that arrives before the run starts stays pending
// and interrupts the run as soon as it begins.
class SignalWatcher {
 public:
  explicit SignalWatcher(load::Runner* runner) : runner_(runner) {
    sigemptyset(&set_);
    sigaddset(&set_, SIGINT);
    sigaddset(&set_, SIGTERM);
    thread_ = std::thread([this] {
      timespec tick{0, 100'000'000};
      while (!stop_.load()) {
        const int sig = sigtimedwait(&set_, nullptr, &tick);
        if (sig == SIGINT || sig == SIGTERM) {
          if (++count_ == 1)
            std::fprintf(stderr, "\nservebench: interrupted; draining in-flight requests (Ctrl-C again to stop now)\n");
          runner_->interrupt();
        }
      }
    });
  }
  ~SignalWatcher() {
    stop_.store(true);
    thread_.join();
  }

 private:
  load::Runner* runner_;
  sigset_t set_{};
  std::atomic<bool> stop_{false};
  int count_ = 0;
  std::thread thread_;
};

exporter::ExportLevel export_level(config::ExportLevelName l) {
  switch (l) {
    case config::ExportLevelName::kSummary: return exporter::ExportLevel::kSummary;
    case config::ExportLevelName::kRaw: return exporter::ExportLevel::kRaw;
    case config::ExportLevelName::kRecords: break;
  }
  return exporter::ExportLevel::kRecords;
}

std::string make_benchmark_id(uint64_t tag) {
  return fmt::format("{:08x}-{:04x}-4{:03x}-a{:03x}-{:012x}", static_cast<uint32_t>(tag >> 32),
                     static_cast<uint32_t>(tag >> 16) & 0xffff, static_cast<uint32_t>(tag) & 0xfff,
                     static_cast<uint32_t>(tag >> 20) & 0xfff, (tag * 0x9E3779B97F4A7C15ULL) & 0xffffffffffffULL);
}

}  // namespace

int run_profile(int argc, char** argv) {
  {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set, nullptr);  // before any thread is created
  }
  const core::Clock& clock = core::SteadyClock::instance();
  const int64_t t_start = clock.now_ns();
  auto since_ms = [&] { return static_cast<double>(clock.now_ns() - t_start) / 1e6; };
  auto parsed = config::parse_profile_args(argc, argv);
  if (!parsed) return usage_error(parsed.error().message);
  if (parsed->help) {
    std::fputs(parsed->help_text.c_str(), stdout);
    return 0;
  }
  config::BenchmarkConfig& cfg = parsed->config;
  core::init_logging(cfg.verbosity);
  // Export options are checked before anything runs, so a typo never costs a whole benchmark.
  if (auto g = metrics::parse_goodput(cfg.goodput); !g) return usage_error(g.error().message);
  if (auto f = metrics::parse_fail_on(cfg.fail_on); !f) return usage_error(f.error().message);
  if (cfg.reset_kv_cache)
    if (auto p = transport::validate_control_path(cfg.reset_kv_cache_path); !p) return usage_error(p.error().message);

  std::vector<std::string> warnings;
  // Tokenizer.
  tokenizer::LoadOptions tok_opts;
  tok_opts.revision = cfg.tokenizer_revision;
  std::shared_ptr<const tokenizer::Tokenizer> tok;
  if (!cfg.tokenizer.empty()) {
    auto t = tokenizer::load_tokenizer(cfg.tokenizer, tok_opts);
    if (!t) return usage_error(t.error().message);
    tok = *t;
  } else {
    std::string warning;
    tok = tokenizer::resolve_default_tokenizer(cfg.model(), tok_opts, &warning);
    if (!warning.empty()) {
      SB_LOG_WARN("{}", warning);
      warnings.push_back(warning);
    }
  }

  SB_LOG_DEBUG("start-up: tokenizer {} ready at {:.1f} ms", tok->name(), since_ms());

  // Endpoint.
  endpoints::EndpointOptions ep_opts;
  ep_opts.model = cfg.model();
  ep_opts.streaming = cfg.streaming;
  ep_opts.use_legacy_max_tokens = cfg.use_legacy_max_tokens;
  ep_opts.include_usage = cfg.use_server_token_count;  // AIPerf adds stream_options only then
  ep_opts.extra_inputs_json = cfg.extra_inputs_json;
  auto endpoint = endpoints::make_endpoint(cfg.endpoint_type, ep_opts);
  if (!endpoint) return usage_error(endpoint.error().message);

  // Seed, prompts and request bodies: all before t0.
  const uint64_t seed = cfg.random_seed ? *cfg.random_seed : (static_cast<uint64_t>(std::random_device{}()) << 32) ^
                                                                  std::random_device{}();
  auto corpus = dataset::load_corpus(dataset::default_corpus_path());
  if (!corpus) return usage_error(corpus.error().message);
  auto prepared = cfg.input_file.empty() ? prepare_synthetic_workload(cfg, *tok, **endpoint, *corpus, seed)
                                         : prepare_file_workload(cfg, *tok, **endpoint, *corpus, seed);
  if (!prepared) return usage_error(prepared.error().message);
  PreparedWorkload& work = *prepared;
  for (const auto& w : work.warnings) {
    SB_LOG_WARN("{}", w);
    warnings.push_back(w);
  }
  if (!cfg.input_file.empty() && !cfg.request_count && !cfg.benchmark_duration_ns && !cfg.num_sessions) {
    // A file runs every conversation once, all turns, unless a count or a duration says otherwise.
    if (work.sessions) cfg.num_sessions = static_cast<int64_t>(work.entries);
    else cfg.request_count = static_cast<int64_t>(work.entries);
  }
  if (work.sessions && cfg.user_centric_rate && work.sessions->average_turns() < 2)
    return usage_error("--user-centric-rate needs sessions of 2 or more turns on average; add --session-turns-mean 2 "
                       "or use a multi-turn input file");

  SB_LOG_DEBUG("start-up: {} {} built at {:.1f} ms", work.entries, work.sessions ? "conversation(s)" : "request bodies",
               since_ms());

  load::WorkerSettings settings;
  const std::string path = cfg.custom_endpoint.empty() ? std::string((*endpoint)->default_path()) : cfg.custom_endpoint;
  for (const auto& u : cfg.urls) settings.urls.push_back(u + path);
  // The credentials and -H headers go with every request, control requests (KV-cache reset)
  // included; the content headers only with benchmark requests.
  std::vector<std::string> user_headers;
  if (!cfg.api_key.empty()) user_headers.push_back("Authorization: Bearer " + cfg.api_key);
  for (const auto& h : cfg.headers) user_headers.push_back(h);
  settings.headers.push_back("Content-Type: application/json");
  if (cfg.streaming) settings.headers.push_back("Accept: text/event-stream");
  settings.headers.insert(settings.headers.end(), user_headers.begin(), user_headers.end());
  settings.models = cfg.models;
  settings.requests = std::move(work.requests);
  settings.warmup_requests = std::move(work.warmup_requests);
  settings.order = std::move(work.order);
  settings.sessions = work.sessions;
  settings.keep_bodies = cfg.export_level == config::ExportLevelName::kRaw;
  settings.session_header = cfg.session_header;
  settings.endpoint_type = cfg.endpoint_type;
  settings.streaming = cfg.streaming;
  settings.http_version = cfg.http_version;
  settings.verify_tls = !cfg.insecure_tls;
  settings.reuse = cfg.connection_reuse;
  settings.request_timeout_ns = cfg.request_timeout_ns;
  settings.cancellation_rate_pct = cfg.cancellation_rate_pct;
  settings.cancellation_delay_ns = cfg.cancellation_delay_ns.value_or(0);
  settings.seed = seed;
  uint64_t tag_state = seed;
  settings.run_tag = core::splitmix64(&tag_state) ^ static_cast<uint64_t>(clock.wall_ns());

  const load::Plan plan = load::build_plan(cfg, seed, work.fixed_offsets_ns, work.sessions != nullptr);
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const int workers = load::default_worker_count(cfg, cores);
  SB_LOG_INFO("servebench profile: {} worker(s), tokenizer {}, seed {}, {} {}; ready to start at {:.1f} ms", workers,
              tok->name(), seed, work.entries, work.sessions ? "conversation(s)" : "prompt(s)", since_ms());

  // --reset-kv-cache: flush the server's prefix cache once before any load (warm-up included).
  if (cfg.reset_kv_cache) {
    transport::KvCacheResetOptions ro;
    ro.path = cfg.reset_kv_cache_path;
    ro.timeout_ns = cfg.reset_kv_cache_timeout_ns;
    ro.verify_tls = !cfg.insecure_tls;
    ro.headers = user_headers;
    auto reset = transport::reset_kv_cache_all(cfg.urls, ro);
    if (!reset) {
      std::fprintf(stderr, "servebench profile: --reset-kv-cache failed, no load was sent: %s\n",
                   reset.error().message.c_str());
      return 3;
    }
    for (const auto& r : *reset)
      SB_LOG_INFO("KV cache reset: POST {} -> HTTP {} in {:.1f} ms", r.url, r.http_status, r.elapsed_ns / 1e6);
  }

  // Run.
  record::RecordProcessor processor(tok, cfg.use_server_token_count, 1);
  load::Runner runner(plan, settings, workers, clock,
                      [&processor](std::vector<record::RequestRecord>&& batch) { processor.submit(std::move(batch)); });
  const core::WallAnchor anchor = core::WallAnchor::capture(clock);
  Result<load::RunOutcome> outcome = make_error(ErrorCode::kInternal, "not run");
  {
    SignalWatcher watcher(&runner);
    outcome = runner.run();
  }
  auto records = processor.finish();
  if (!outcome) {
    std::fprintf(stderr, "servebench profile: %s\n", outcome.error().message.c_str());
    return outcome.error().is_usage() ? 2 : 3;
  }

  // A server that died mid-run: say when (issue 11 item 5; the rule is in load/unreachable.h).
  const load::UnreachableReport unreachable = load::find_outages(records);
  for (const auto& w : unreachable.warnings) {
    SB_LOG_WARN("{}", w);
    warnings.push_back(w);
  }

  // Artifacts.
  exporter::RunContext ctx;
  ctx.input_config_json = config::to_json(cfg);
  ctx.cli_command = cfg.cli_command;
  ctx.model = cfg.model();
  ctx.endpoint_type = cfg.endpoint_type;
  ctx.streaming = cfg.streaming;
  ctx.random_seed = seed;
  ctx.has_random_seed = cfg.random_seed.has_value();
  ctx.benchmark_id = make_benchmark_id(settings.run_tag);
  ctx.anchor.steady_ns = anchor.steady_ns;
  ctx.anchor.wall_ns = anchor.wall_ns;
  ctx.start_wall_ns = anchor.to_wall_ns(outcome->first_start_ns);
  ctx.end_wall_ns = anchor.to_wall_ns(outcome->end_ns);
  ctx.interrupted = outcome->interrupted;
  ctx.warnings = warnings;
  // inputs.json: the bodies as sent, one session per dataset entry (AIPerf's layout).
  ctx.inputs.reserve(settings.requests.size() + work.input_session_ids.size());
  for (const auto& t : settings.requests) ctx.inputs.push_back({t.conversation_id, {t.body}});
  for (size_t i = 0; i < work.input_session_ids.size(); ++i)
    ctx.inputs.push_back({work.input_session_ids[i], std::move(work.input_payloads[i])});
  exporter::ExportOptions eo;
  eo.artifact_dir = cfg.artifact_dir + "/" +
                    exporter::artifact_dir_name(cfg.model(), cfg.endpoint_type, cfg.streaming, cfg.load_label());
  eo.profile_export_prefix = cfg.profile_export_prefix;
  eo.level = export_level(cfg.export_level);
  eo.goodput = cfg.goodput;
  eo.slice_duration_ns = cfg.slice_duration_ns;
  eo.fail_on = cfg.fail_on;
  eo.print_console = cfg.verbosity > 0;
  auto written = exporter::write_artifacts(records, ctx, eo);
  if (!written) {
    std::fprintf(stderr, "servebench profile: %s\n", written.error().message.c_str());
    return 3;
  }

  int64_t ok = 0, failed = 0;
  for (const auto& r : records) {
    if (r.phase != record::Phase::kProfiling || r.dropped()) continue;
    (r.ok() ? ok : failed)++;
  }
  std::fprintf(stderr, "servebench profile: %lld ok, %lld failed%s; artifacts in %s\n", static_cast<long long>(ok),
               static_cast<long long>(failed), outcome->interrupted ? ", interrupted" : "", eo.artifact_dir.c_str());
  if (ok == 0 && failed > 0) return 3;
  if (unreachable.fail_run) {
    std::fprintf(stderr, "servebench profile: exit 3: the server was unreachable at the end\n");
    return 3;
  }
  if (written->gate_failed) {
    for (const auto& m : written->gate_messages) std::fprintf(stderr, "servebench profile: gate failed: %s\n", m.c_str());
    return 1;
  }
  return 0;
}

}  // namespace servebench::cli
