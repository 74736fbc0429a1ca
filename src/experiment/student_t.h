// Student's t distribution: CDF and quantile, for the confidence intervals of repeated trials.
// Computed from the regularized incomplete beta function (continued fraction), so results hold
// for any degrees of freedom, not only tabulated ones; accurate to about 1e-10.
//
// Thread safety: pure functions.
#pragma once

namespace servebench::experiment {

// P(T <= t) for T ~ Student-t with `df` > 0 degrees of freedom.
double student_t_cdf(double t, double df);

// The t with P(T <= t) = p, for 0 < p < 1 and df > 0.
double student_t_quantile(double p, double df);

// Two-sided critical value: the t with P(|T| <= t) = confidence (0.95 and df 4 → 2.776).
double t_critical(double confidence, double df);

// I_x(a, b), the regularized incomplete beta function, for 0 <= x <= 1 and a, b > 0.
double regularized_beta(double x, double a, double b);

}  // namespace servebench::experiment
