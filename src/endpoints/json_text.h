// JSON string escaping for request rendering: core::append_json_string under this module's name.
#pragma once

#include "core/json_text.h"

namespace servebench::endpoints {

using core::append_json_string;

}  // namespace servebench::endpoints
