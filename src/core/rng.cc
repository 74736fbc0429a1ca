#include "core/rng.h"

#include <cmath>

namespace servebench::core {
namespace {

inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
constexpr double kTwoPi = 6.283185307179586476925286766559;

}  // namespace

uint64_t splitmix64(uint64_t* state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

uint64_t fnv1a64(std::string_view text) {
  uint64_t h = 0xCBF29CE484222325ULL;
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x100000001B3ULL;
  }
  return h;
}

Rng::Rng(uint64_t seed) : seed_(seed) {
  uint64_t sm = seed;
  for (auto& word : s_) word = splitmix64(&sm);
}

Rng Rng::stream(uint64_t seed, std::string_view name) {
  // Mix the name hash through one SplitMix64 round so nearby seeds and similar names still give
  // unrelated states.
  uint64_t sm = seed ^ fnv1a64(name);
  const uint64_t derived = splitmix64(&sm);
  Rng r(derived);
  r.seed_ = derived;
  return r;
}

uint64_t Rng::next_u64() {
  const uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

double Rng::next_double() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

uint64_t Rng::next_below(uint64_t n) {
  if (n == 0) return 0;
  unsigned __int128 m = static_cast<unsigned __int128>(next_u64()) * n;
  uint64_t low = static_cast<uint64_t>(m);
  if (low < n) {
    const uint64_t threshold = (0 - n) % n;
    while (low < threshold) {
      m = static_cast<unsigned __int128>(next_u64()) * n;
      low = static_cast<uint64_t>(m);
    }
  }
  return static_cast<uint64_t>(m >> 64);
}

double Rng::uniform(double a, double b) { return a + (b - a) * next_double(); }

double Rng::normal(double mean, double stddev) {
  const double u1 = 1.0 - next_double();  // (0, 1]
  const double u2 = next_double();
  return mean + stddev * std::sqrt(-2.0 * std::log(u1)) * std::cos(kTwoPi * u2);
}

double Rng::exponential(double mean) { return -std::log(1.0 - next_double()) * mean; }

double Rng::gamma(double shape, double scale) {
  if (shape <= 0 || scale <= 0) return 0.0;
  if (shape < 1.0) {
    const double g = gamma(shape + 1.0, 1.0);
    const double u = 1.0 - next_double();  // (0, 1]
    return g * std::pow(u, 1.0 / shape) * scale;
  }
  const double d = shape - 1.0 / 3.0;
  const double c = 1.0 / std::sqrt(9.0 * d);
  for (;;) {
    double x = 0;
    double v = 0;
    do {
      x = normal();
      v = 1.0 + c * x;
    } while (v <= 0.0);
    v = v * v * v;
    const double u = next_double();
    const double x2 = x * x;
    if (u < 1.0 - 0.0331 * x2 * x2) return d * v * scale;
    if (u > 0.0 && std::log(u) < 0.5 * x2 + d * (1.0 - v + std::log(v))) return d * v * scale;
  }
}

double Rng::lognormal(double mu, double sigma) { return std::exp(mu + sigma * normal()); }

LogNormalParams lognormal_from_mean_cv(double mean, double cv) {
  const double s2 = std::log1p(cv * cv);
  return LogNormalParams{std::log(mean) - s2 / 2.0, std::sqrt(s2)};
}

}  // namespace servebench::core
