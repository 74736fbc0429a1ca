// The smooth-isotonic planner's numerics: a monotone (non-increasing) least-squares fit by the
// pool-adjacent-violators algorithm, and the zero of the monotone cubic (PCHIP, Fritsch-Carlson)
// interpolant through the fitted points. The SLO margin of a probe shrinks as the load grows,
// so the fitted margin curve crosses zero at the capacity.
#pragma once

#include <optional>
#include <vector>

namespace servebench::experiment {

// Least-squares non-increasing fit of ys (xs sorted ascending; equal weights).
std::vector<double> pava_nonincreasing(const std::vector<double>& ys);

// The x where the PCHIP interpolant through (xs, ys) (xs strictly ascending, ys
// non-increasing) crosses zero; none when it stays on one side.
std::optional<double> pchip_zero(const std::vector<double>& xs, const std::vector<double>& ys);

// The PCHIP interpolant at x (clamped to [xs.front(), xs.back()]).
double pchip_at(const std::vector<double>& xs, const std::vector<double>& ys, double x);

}  // namespace servebench::experiment
