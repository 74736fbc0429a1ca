#include "experiment/gp.h"

#include <cmath>
#include <limits>

namespace servebench::experiment {

double normal_pdf(double z) { return std::exp(-0.5 * z * z) / std::sqrt(2 * M_PI); }
double normal_cdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }

double expected_improvement(double mean, double sd, double best) {
  if (!(sd > 1e-12)) return std::max(mean - best, 0.0);
  const double z = (mean - best) / sd;
  return (mean - best) * normal_cdf(z) + sd * normal_pdf(z);
}

double GaussianProcess::kernel(const std::vector<double>& a, const std::vector<double>& b) const {
  double d2 = 0;
  for (size_t i = 0; i < a.size(); ++i) d2 += (a[i] - b[i]) * (a[i] - b[i]);
  const double r = std::sqrt(5.0 * d2) / length_;
  return (1 + r + r * r / 3) * std::exp(-r);
}

// Cholesky of K + noise I and alpha; false when not positive definite.
bool GaussianProcess::factor(double length, double noise, double* log_likelihood) {
  length_ = length;
  noise_ = noise;
  const size_t n = xs_.size();
  chol_.assign(n, std::vector<double>(n, 0.0));
  double log_det = 0;
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = 0; j <= i; ++j) {
      double s = kernel(xs_[i], xs_[j]) + (i == j ? noise + 1e-9 : 0.0);
      for (size_t k = 0; k < j; ++k) s -= chol_[i][k] * chol_[j][k];
      if (i == j) {
        if (!(s > 0)) return false;
        chol_[i][i] = std::sqrt(s);
        log_det += 2 * std::log(chol_[i][i]);
      } else {
        chol_[i][j] = s / chol_[j][j];
      }
    }
  }
  std::vector<double> v(n);  // L v = z, then L^T alpha = v
  for (size_t i = 0; i < n; ++i) {
    double s = z_[i];
    for (size_t k = 0; k < i; ++k) s -= chol_[i][k] * v[k];
    v[i] = s / chol_[i][i];
  }
  alpha_.assign(n, 0.0);
  for (size_t i = n; i-- > 0;) {
    double s = v[i];
    for (size_t k = i + 1; k < n; ++k) s -= chol_[k][i] * alpha_[k];
    alpha_[i] = s / chol_[i][i];
  }
  double fit = 0;
  for (size_t i = 0; i < n; ++i) fit += z_[i] * alpha_[i];
  *log_likelihood = -0.5 * fit - 0.5 * log_det;
  return true;
}

void GaussianProcess::fit(const std::vector<std::vector<double>>& xs,
                          const std::vector<double>& ys) {
  xs_ = xs;
  const double n = static_cast<double>(ys.size());
  mean_ = 0;
  for (double y : ys) mean_ += y / n;
  double var = 0;
  for (double y : ys) var += (y - mean_) * (y - mean_) / n;
  scale_ = var > 1e-24 ? std::sqrt(var) : 1.0;
  z_.clear();
  for (double y : ys) z_.push_back((y - mean_) / scale_);
  double best_ll = -std::numeric_limits<double>::infinity(), best_l = 0.2, best_n = 1e-2;
  for (double l : {0.05, 0.1, 0.2, 0.35, 0.6, 1.0})
    for (double noise : {1e-4, 1e-2, 0.1}) {
      double ll = 0;
      if (factor(l, noise, &ll) && ll > best_ll) best_ll = ll, best_l = l, best_n = noise;
    }
  double ll = 0;
  factor(best_l, best_n, &ll);
}

void GaussianProcess::predict(const std::vector<double>& x, double* mean, double* sd) const {
  const size_t n = xs_.size();
  std::vector<double> k(n), v(n);
  double mu = 0;
  for (size_t i = 0; i < n; ++i) k[i] = kernel(x, xs_[i]), mu += k[i] * alpha_[i];
  for (size_t i = 0; i < n; ++i) {  // L v = k
    double s = k[i];
    for (size_t j = 0; j < i; ++j) s -= chol_[i][j] * v[j];
    v[i] = s / chol_[i][i];
  }
  double var = 1.0;
  for (double e : v) var -= e * e;
  *mean = mean_ + scale_ * mu;
  *sd = scale_ * std::sqrt(std::max(var, 0.0));
}

}  // namespace servebench::experiment
