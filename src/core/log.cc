#include "core/log.h"

#include <spdlog/sinks/stdout_color_sinks.h>

namespace servebench::core {

void init_logging(int verbosity) {
  auto logger = spdlog::stderr_color_mt("servebench");
  spdlog::set_default_logger(logger);
  spdlog::set_pattern("%^%l%$: %v");
  switch (verbosity) {
    case 0: spdlog::set_level(spdlog::level::warn); break;
    case 1: spdlog::set_level(spdlog::level::info); break;
    case 2: spdlog::set_level(spdlog::level::debug); break;
    default: spdlog::set_level(spdlog::level::trace); break;
  }
}

}  // namespace servebench::core
