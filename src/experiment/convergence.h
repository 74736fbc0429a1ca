// Early stop of a cell's trials by distribution similarity (--convergence-mode distribution,
// AIPerf's KS criterion): the per-request values of the convergence metric in the latest ok
// trial against those of every earlier ok trial pooled, compared with the two-sample
// Kolmogorov-Smirnov test. The cell has converged when the p-value exceeds the threshold
// (--convergence-threshold, default 0.05): the latest trial cannot be told apart from the
// others. Needs 3 ok trials and at least 2 values on each side. (The ci_width and cv modes
// judge a summary statistic instead: aggregate.h, converged().)
//
// Values come from each trial's profile_export.jsonl: profiling-phase records without an
// error that carry the metric (metrics.<tag>.value).
//
// The p-value is the asymptotic Kolmogorov distribution with Stephens' small-sample
// correction, Q((sqrt(ne) + 0.12 + 0.11 / sqrt(ne)) * D) with ne = n*m / (n + m); scipy's
// ks_2samp computes exact p-values below 10000 values, which differ from this by a few
// hundredths around the usual thresholds.
//
// Thread safety: pure functions (the reader only reads files).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "experiment/aggregate.h"

namespace servebench::experiment {

// sup |F_a(x) - F_b(x)| over the pooled values. REQUIRES: both non-empty.
double ks_statistic(std::vector<double> a, std::vector<double> b);

// Q(lambda) = P(K > lambda) of the Kolmogorov distribution: 2 sum (-1)^(k-1) exp(-2 k^2 l^2).
double kolmogorov_survival(double lambda);

// Two-sided p-value of statistic `d` for samples of sizes n and m (> 0).
double ks_p_value(double d, size_t n, size_t m);

// The metric's per-request values in a records file (empty when the file cannot be read).
std::vector<double> read_record_values(const std::string& jsonl_path, const std::string& metric);

// Whether the latest ok trial's distribution of `metric` matches the earlier ones (see top).
// `jsonl_name` is the records file's name inside each trial's artifact_dir.
bool distribution_converged(const std::vector<Trial>& trials, const std::string& metric,
                            double p_threshold, const std::string& jsonl_name);

}  // namespace servebench::experiment
