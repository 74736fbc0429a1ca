// Rng: a fully specified pseudo-random generator, xoshiro256** seeded through SplitMix64, and our
// own samplers. Everything here is defined bit for bit, so `--random-seed N` reproduces the same
// workload on any machine and standard library (std::*_distribution does not).
//
// Named streams: Rng::stream(seed, "arrivals") derives an independent generator from the seed
// and a name, so adding a new random choice somewhere never shifts the values of the others.
//
// Sampling algorithms (the specification; golden tests pin the first values):
//   next_double    (next_u64() >> 11) * 2^-53, in [0, 1)
//   uniform(a,b)   a + (b - a) * next_double()
//   normal         Box–Muller, one value per call from two doubles u1 in (0,1], u2 in [0,1):
//                  sqrt(-2 ln u1) * cos(2π u2)
//   exponential    -ln(1 - next_double()) * mean
//   gamma          Marsaglia–Tsang (2000) for shape >= 1 with normal() and next_double();
//                  shape < 1 uses gamma(shape + 1) * u^(1/shape)
//   lognormal      exp(mu + sigma * normal())
//
// Thread safety: an Rng is not shared; each thread or component owns its own stream.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace servebench::core {

// SplitMix64 step: advances *state and returns the next output.
uint64_t splitmix64(uint64_t* state);

// FNV-1a 64-bit hash of a name (used to derive named streams).
uint64_t fnv1a64(std::string_view text);

class Rng {
 public:
  explicit Rng(uint64_t seed);

  // An independent stream for `name` under `seed`.
  static Rng stream(uint64_t seed, std::string_view name);
  // A child stream of this generator's seed (not its current position).
  Rng derive(std::string_view name) const { return stream(seed_, name); }

  uint64_t next_u64();
  double next_double();  // [0, 1)
  // Uniform integer in [0, n); n > 0. Lemire's multiply-shift with rejection (unbiased).
  uint64_t next_below(uint64_t n);

  double uniform(double a, double b);
  double normal(double mean = 0.0, double stddev = 1.0);
  double exponential(double mean);
  double gamma(double shape, double scale);
  double lognormal(double mu, double sigma);

  uint64_t seed() const { return seed_; }

 private:
  std::array<uint64_t, 4> s_{};
  uint64_t seed_;
};

// Log-normal parameters (mu, sigma) for a distribution with the given mean and coefficient of
// variation: sigma² = ln(1 + cv²), mu = ln(mean) − sigma²/2.
struct LogNormalParams {
  double mu;
  double sigma;
};
LogNormalParams lognormal_from_mean_cv(double mean, double cv);

}  // namespace servebench::core
