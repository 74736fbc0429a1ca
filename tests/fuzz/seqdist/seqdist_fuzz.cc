// Fuzz target for --sequence-distribution (dataset::SequenceDistribution::parse). Any bytes must
// either parse into a well-formed distribution or give a one-line kInvalidArgument error naming
// the flag. On success: at least one bin; ISL/OSL means positive integers; stddevs finite and
// >= 0; each probability in [0, 100] and their sum 100 within the parser's tolerance
// (1e-6 + 1e-6 * 100); draws on a fixed Rng give isl >= 1 and osl >= 1, and with every stddev 0
// each draw is the (ISL, OSL) of a bin with a probability > 0; the canonical to_string() form,
// where it is plain decimal, parses back to the same bins.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/rng.h"
#include "dataset/sequence_distribution.h"

namespace {

namespace sd = servebench::dataset;

// Lengths up to 2^53 are exact doubles and fit int64; beyond that the draw's integer conversion
// is not specified by the header, so the exact-mean check skips them.
constexpr double kExactLimit = 9007199254740992.0;

void check_bins(const std::vector<sd::SequenceBin>& bins) {
  if (bins.empty()) std::abort();
  double total = 0;
  for (const auto& b : bins) {
    if (!(b.isl_mean >= 1) || !(b.osl_mean >= 1)) std::abort();
    if (b.isl_mean != std::floor(b.isl_mean) || b.osl_mean != std::floor(b.osl_mean)) std::abort();
    if (!(b.isl_stddev >= 0) || !(b.osl_stddev >= 0)) std::abort();
    if (!std::isfinite(b.isl_stddev) || !std::isfinite(b.osl_stddev)) std::abort();
    if (!(b.prob_pct >= 0 && b.prob_pct <= 100)) std::abort();
    total += b.prob_pct;
  }
  if (!(std::fabs(total - 100.0) <= 1e-6 + 1e-6 * 100.0 + 1e-9)) std::abort();
}

void check_draws(const sd::SequenceDistribution& d) {
  const auto& bins = d.bins();
  bool fixed_lengths = true;
  for (const auto& b : bins)
    fixed_lengths &= b.isl_stddev == 0 && b.osl_stddev == 0 && b.isl_mean <= kExactLimit && b.osl_mean <= kExactLimit;
  servebench::core::Rng rng(0x5eed);
  for (int i = 0; i < 32; ++i) {
    const auto draw = d.draw(rng);
    if (draw.isl < 1 || draw.osl < 1) std::abort();
    if (!fixed_lengths) continue;
    bool found = false;
    for (const auto& b : bins)
      found |= b.prob_pct > 0 && static_cast<double>(draw.isl) == b.isl_mean &&
               static_cast<double>(draw.osl) == b.osl_mean;
    if (!found) std::abort();
  }
}

void check_round_trip(const sd::SequenceDistribution& d) {
  const std::string canonical = d.to_string();
  // to_string never writes exponent notation; negative zero ("-0" stddev) is outside the grammar.
  if (canonical.find_first_of("eE") != std::string::npos) std::abort();
  if (canonical.find('-') != std::string::npos) return;
  auto again = sd::SequenceDistribution::parse(canonical);
  if (!again) std::abort();
  const auto& a = d.bins();
  const auto& b = again->bins();
  if (a.size() != b.size()) std::abort();
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].isl_mean != b[i].isl_mean || a[i].osl_mean != b[i].osl_mean || a[i].isl_stddev != b[i].isl_stddev ||
        a[i].osl_stddev != b[i].osl_stddev || a[i].prob_pct != b[i].prob_pct)
      std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view spec(reinterpret_cast<const char*>(data), size);
  auto parsed = sd::SequenceDistribution::parse(spec);
  if (!parsed) {
    const auto& e = parsed.error();
    if (e.code != servebench::ErrorCode::kInvalidArgument) std::abort();
    if (e.message.rfind("--sequence-distribution", 0) != 0) std::abort();
    if (e.message.find('\n') != std::string::npos || e.message.find('\r') != std::string::npos) std::abort();
    return 0;
  }
  check_bins(parsed->bins());
  check_draws(*parsed);
  check_round_trip(*parsed);
  return 0;
}
