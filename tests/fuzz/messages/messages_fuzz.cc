// Fuzz target for the `messages` EventParser (harness and invariants:
// fuzz/responses/chatlike_fuzz.h).
#include "fuzz/responses/chatlike_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static std::unique_ptr<servebench::endpoints::EventParser> parser =
      servebench::endpoints::make_event_parser("messages");
  return servebench::fuzz::run_chatlike_parser(parser.get(), data, size);
}
