// servebench-mock: parses flags, loads the corpus (and tokenizer), listens, prints the
// listening line, runs until SIGINT/SIGTERM. Bad input: one line on stderr, exit 2.
#include <sys/prctl.h>
#include <sys/resource.h>

#include <csignal>
#include <cstdio>
#include <string>
#include <vector>

#include "options.h"
#include "server.h"
#include "text_source.h"

using namespace servebench;
using namespace servebench::mock;

int main(int argc, char** argv) {
  prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
  // Thousands of connections need more than the usual soft limit of 1024 descriptors.
  rlimit files{};
  if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
    files.rlim_cur = files.rlim_max;
    setrlimit(RLIMIT_NOFILE, &files);
  }
  std::signal(SIGPIPE, SIG_IGN);
  std::vector<std::string> args(argv + 1, argv + argc);
  auto options = parse_mock_options(args);
  if (!options) {
    std::fprintf(stderr, "%s\n", options.error().message.c_str());
    return 2;
  }
  if (options->help) {
    std::fputs(mock_usage().c_str(), stdout);
    return 0;
  }
  if (options->version) {
    std::puts("servebench-mock 0.1.0");
    return 0;
  }
  std::unique_ptr<TokenCounter> counter;
  if (options->tokenizer_spec.empty()) {
    counter = make_word_counter();
  } else {
    auto c = make_tokenizer_counter(options->tokenizer_spec);
    if (!c) {
      std::fprintf(stderr, "servebench-mock: %s\n", c.error().message.c_str());
      return 2;
    }
    counter = std::move(*c);
  }
  const TokenCounter* exact = options->tokenizer_spec.empty() ? nullptr : counter.get();
  auto text = options->corpus_path.empty() ? OutputText::load_embedded(exact)
                                           : OutputText::load(options->corpus_path, exact);
  if (!text) {
    std::fprintf(stderr, "servebench-mock: %s\n", text.error().message.c_str());
    return 2;
  }
  if (!options->tokenizer_spec.empty()) {
    std::fprintf(stderr,
                 "servebench-mock: tokenizer %s: %zu of the mock's words are single tokens%s\n",
                 counter->name().c_str(), text->vocabulary().size(),
                 text->strips_first_space() ? "; each text starts without its leading space" : "");
  }
  auto server = MockServer::start(options->server, std::move(counter), std::move(*text));
  if (!server) {
    std::fprintf(stderr, "%s\n", server.error().message.c_str());
    return 2;
  }
  const std::string& host = (*server)->host();
  const bool v6 = host.find(':') != std::string::npos;
  std::printf("listening on http://%s%s%s:%u\n", v6 ? "[" : "", host.c_str(), v6 ? "]" : "",
              static_cast<unsigned>((*server)->port()));
  std::fflush(stdout);
  std::unique_ptr<DcgmExporter> dcgm;
  if (options->dcgm.port >= 0) {
    MockServer* s = server->get();
    auto d = DcgmExporter::start(options->dcgm, [s] { return s->running(); });
    if (!d) {
      std::fprintf(stderr, "%s\n", d.error().message.c_str());
      return 2;
    }
    dcgm = std::move(*d);
    std::printf("dcgm exporter on http://%s%s%s:%u/metrics\n", v6 ? "[" : "", host.c_str(),
                v6 ? "]" : "", static_cast<unsigned>(dcgm->port()));
    std::fflush(stdout);
  }
  (*server)->run();
  return 0;
}
