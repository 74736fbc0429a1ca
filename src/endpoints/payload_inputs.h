// The input texts of a pre-built request body (raw_payload / inputs.json / mooncake `payload`
// rows, sent verbatim), so that their ISL is counted as AIPerf's extract_inputs counts it:
//
//   items   `messages` or `input` arrays whose elements are objects with a `role` or `type`:
//           each `content` string or {"type":"text"|"input_text","text":..} part, the
//           `tool_calls[].function` name and arguments, a Responses `function_call`'s name and
//           arguments and a `function_call_output`'s output
//   tools   top-level `tools[]`: name, description and the compact JSON of `parameters` (under
//           `function` or at the tool's top level)
//   flat    only without an items array, the first of: `prompt` or `input` as a string, a list of
//           strings, or pre-tokenized ids (a list of ints or of int lists: counted as ids);
//           `query` (or query.text) with `passages`/`documents`/`texts` (strings or {"text"});
//           `inputs` (TGI)
//
// Set-up only (parses with nlohmann, before t0).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace servebench::endpoints {

struct PayloadInputs {
  std::vector<std::string> texts;  // each counted on its own
  int64_t token_ids = 0;           // pre-tokenized inputs: one token per id
  bool found = false;              // some input shape was recognised
};

PayloadInputs payload_inputs(std::string_view body);

}  // namespace servebench::endpoints
