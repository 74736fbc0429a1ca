// ArrivalProcess: inter-arrival gaps for open-loop load, drawn from our own samplers on a named
// core::Rng stream so a seed gives the same gaps on every machine.
//
//   constant  gap = 1 / rate
//   poisson   gap = Exp(1) / rate                         (AIPerf: expovariate(rate))
//   gamma     gap = Gamma(shape = s, scale = 1 / s) / rate (mean 1/rate, CV 1/sqrt(s); s = 1 is
//             Poisson; AIPerf's --arrival-smoothness and vLLM's --burstiness)
//
// The random part is drawn in units of the mean gap and then divided by the current rate, so a
// rate ramp changes the scale of the gaps, never which random numbers are drawn.
//
// Thread safety: not shared; the plan builder owns it before t0.
#pragma once

#include <memory>

#include "load/load_types.h"
#include "core/rng.h"

namespace servebench::load {

class ArrivalProcess {
 public:
  virtual ~ArrivalProcess() = default;
  // Next gap in seconds at `rate_per_s` (> 0).
  virtual double next_gap_s(double rate_per_s) = 0;
};

// smoothness is used by kGamma only (must be > 0).
std::unique_ptr<ArrivalProcess> make_arrival_process(ArrivalPattern pattern, double smoothness,
                                                     core::Rng rng);

}  // namespace servebench::load
