// A small Gaussian process for the Bayesian planner: zero-mean prior on standardized targets,
// Matérn-5/2 kernel on inputs scaled to [0, 1], Gaussian noise; the length scale and noise are
// picked from a grid by the log marginal likelihood. Plus expected improvement and the normal
// distribution functions the acquisition needs.
#pragma once

#include <vector>

namespace servebench::experiment {

class GaussianProcess {
 public:
  // xs: points in [0, 1]^d; ys: observed values (at least one).
  void fit(const std::vector<std::vector<double>>& xs, const std::vector<double>& ys);
  // Posterior mean and standard deviation at x, in the units of ys.
  void predict(const std::vector<double>& x, double* mean, double* sd) const;
  double length_scale() const { return length_; }

 private:
  double kernel(const std::vector<double>& a, const std::vector<double>& b) const;
  bool factor(double length, double noise, double* log_likelihood);

  std::vector<std::vector<double>> xs_;
  std::vector<double> z_;                  // standardized targets
  std::vector<std::vector<double>> chol_;  // lower Cholesky factor of K + noise I
  std::vector<double> alpha_;              // (K + noise I)^-1 z
  double mean_ = 0, scale_ = 1, length_ = 0.2, noise_ = 1e-2;
};

double normal_pdf(double z);
double normal_cdf(double z);
// E[max(f - best, 0)] for f ~ N(mean, sd^2) (maximization).
double expected_improvement(double mean, double sd, double best);

}  // namespace servebench::experiment
