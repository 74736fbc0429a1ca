// Factories of the planners that live in their own files (planner.cc's registry uses them).
#pragma once

#include <memory>

#include "experiment/planner.h"

namespace servebench::experiment {

std::unique_ptr<SearchPlanner> make_isotonic_planner();  // isotonic.cc
std::unique_ptr<SearchPlanner> make_bayesian_planner();  // bayes_planner.cc

}  // namespace servebench::experiment
