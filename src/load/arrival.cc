#include "load/arrival.h"

namespace servebench::load {
namespace {

class ConstantArrivals final : public ArrivalProcess {
 public:
  double next_gap_s(double rate_per_s) override { return 1.0 / rate_per_s; }
};

class PoissonArrivals final : public ArrivalProcess {
 public:
  explicit PoissonArrivals(core::Rng rng) : rng_(rng) {}
  double next_gap_s(double rate_per_s) override { return rng_.exponential(1.0) / rate_per_s; }

 private:
  core::Rng rng_;
};

class GammaArrivals final : public ArrivalProcess {
 public:
  GammaArrivals(double shape, core::Rng rng) : shape_(shape), rng_(rng) {}
  double next_gap_s(double rate_per_s) override {
    return rng_.gamma(shape_, 1.0 / shape_) / rate_per_s;
  }

 private:
  double shape_;
  core::Rng rng_;
};

}  // namespace

std::unique_ptr<ArrivalProcess> make_arrival_process(ArrivalPattern pattern, double smoothness,
                                                     core::Rng rng) {
  switch (pattern) {
    case ArrivalPattern::kConstant: return std::make_unique<ConstantArrivals>();
    case ArrivalPattern::kPoisson: return std::make_unique<PoissonArrivals>(rng);
    case ArrivalPattern::kGamma: return std::make_unique<GammaArrivals>(smoothness, rng);
  }
  return std::make_unique<PoissonArrivals>(rng);
}

}  // namespace servebench::load
