#include "core/log.h"

#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_color_sinks.h>

#include "core/secrets.h"

namespace servebench::core {
namespace {

// Formats with the program's pattern, then replaces registered secret literals (core/secrets.h),
// so no log line can carry a key, whatever a caller formatted into it. The level and its colour
// range come first and are never rewritten, so the colour sink's offsets stay valid.
class ScrubbingFormatter final : public spdlog::formatter {
 public:
  explicit ScrubbingFormatter(std::unique_ptr<spdlog::formatter> inner)
      : inner_(std::move(inner)) {}

  void format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) override {
    spdlog::memory_buf_t raw;
    inner_->format(msg, raw);
    const std::string clean = secrets::scrub(std::string_view(raw.data(), raw.size()));
    dest.append(clean.data(), clean.data() + clean.size());
  }

  std::unique_ptr<spdlog::formatter> clone() const override {
    return std::make_unique<ScrubbingFormatter>(inner_->clone());
  }

 private:
  std::unique_ptr<spdlog::formatter> inner_;
};

}  // namespace

void init_logging(int verbosity) {
  auto logger = spdlog::get("servebench");
  if (!logger) logger = spdlog::stderr_color_mt("servebench");
  spdlog::set_default_logger(logger);
  logger->set_formatter(std::make_unique<ScrubbingFormatter>(
      std::make_unique<spdlog::pattern_formatter>("%^%l%$: %v")));
  switch (verbosity) {
    case 0:
      spdlog::set_level(spdlog::level::warn);
      break;
    case 1:
      spdlog::set_level(spdlog::level::info);
      break;
    case 2:
      spdlog::set_level(spdlog::level::debug);
      break;
    default:
      spdlog::set_level(spdlog::level::trace);
      break;
  }
}

}  // namespace servebench::core
