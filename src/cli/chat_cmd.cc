// `servebench chat -m MODEL [-u URL] [-q MSG] [--system-prompt S] [--history|--no-history]
// [--api-key K] [--tokenizer T]`: a conversation with a chat endpoint, one streamed turn at a
// time, printing each reply and its TTFT, tokens/s, output tokens and latency (app/chat.h).
// Interactive until end of input (Ctrl-D); -q sends one message and exits.
// Exit 0 ok, 2 bad flags or tokenizer, 3 the -q request failed.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

#include "app/chat.h"
#include "cli/cli_parse.h"
#include "cli/commands.h"
#include "core/secrets.h"
#include "tokenizer/tokenizer.h"

namespace servebench::cli {
namespace {

void say_error(const std::string& msg) {
  std::fprintf(stderr, "servebench chat: %s\n", core::secrets::scrub(msg).c_str());
}

// One turn: the reply as it streams, then its stats line. False when it failed.
bool turn(app::ChatSession& chat, const std::string& message) {
  auto t = chat.send(message, [](std::string_view text) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
  });
  if (!t) {
    std::fputc('\n', stdout);
    say_error("request failed: " + t.error().message);
    return false;
  }
  std::printf("\n[%s]\n", app::format_turn(*t).c_str());
  std::fflush(stdout);
  return true;
}

}  // namespace

int run_chat(int argc, char** argv) {
  CLI::App app{"servebench chat: talk to a chat endpoint, with each turn's TTFT, tokens/s and latency",
               "chat"};
  app::ChatOptions o;
  std::string quick, tokenizer_spec;
  bool history = true;
  app.add_option("-m,--model", o.model, "Model name served by the endpoint")->required();
  app.add_option("-u,--url", o.url, "Server base URL (or its /v1 base, or the full chat URL)")
      ->capture_default_str();
  app.add_option("--system-prompt", o.system_prompt, "System prompt sent first in every turn");
  auto* q = app.add_option("-q,--quick", quick, "Send this one message, print the reply and exit");
  app.add_flag("--history,!--no-history", history,
               "Resend the conversation each turn (default); --no-history: every turn stands alone");
  app.add_option("--api-key", o.api_key, "Bearer token (default: $OPENAI_API_KEY)");
  app.add_option("--tokenizer", tokenizer_spec,
                 "Tokenizer for output token counts: builtin, a tokenizer.json or a hub id "
                 "(default: the model's)");
  if (auto stop = parse_command_line(app, "chat", argc, argv)) return *stop;
  o.history = history;
  if (o.api_key.empty())
    if (const char* env = std::getenv("OPENAI_API_KEY")) o.api_key = env;
  if (!o.api_key.empty()) core::secrets::add(o.api_key);

  tokenizer::LoadOptions tok_opts;
  std::shared_ptr<const tokenizer::Tokenizer> tok;
  if (tokenizer_spec.empty()) {
    std::string warning;
    tok = tokenizer::resolve_default_tokenizer(o.model, tok_opts, &warning);
    if (!warning.empty()) say_error("warning: " + warning);
  } else {
    auto t = tokenizer::load_tokenizer(tokenizer_spec, tok_opts);
    if (!t) {
      say_error(t.error().message);
      return 2;
    }
    tok = *t;
  }
  app::ChatSession chat(o, tok);
  if (q->count() > 0) return turn(chat, quick) ? 0 : 3;

  const bool tty = isatty(STDIN_FILENO) != 0;
  if (tty) std::fputs("Enter a message (Ctrl-D to exit).\n", stderr);
  for (std::string line;;) {
    if (tty) std::fputs("> ", stderr);
    if (!std::getline(std::cin, line)) break;
    if (line.empty()) continue;
    turn(chat, line);  // a failed turn is reported; the conversation goes on
  }
  if (tty) std::fputc('\n', stderr);
  return 0;
}

}  // namespace servebench::cli
