// --system-prompt / --system-prompt-file (AIPerf's verbatim system prompt): the text goes in every
// conversation's preamble, before a system message the dataset brought (joined by a blank line,
// one system message: servers mishandle several). Rows sent as verbatim message arrays or
// payloads keep their own bodies.
//
// Thread safety: pure.
#pragma once

#include <string>
#include <vector>

#include "endpoints/endpoint.h"

namespace servebench::app {

// No-op when `text` is empty.
void add_system_prompt(const std::string& text, std::vector<endpoints::Message>* preamble);

}  // namespace servebench::app
