// The sweep's summary: profile_export_aiperf_sweep.json / .csv (AIPerf's names), one row per
// cell with its parameters, status, seed and headline metrics (mean and, with several trials,
// the Student-t interval), and the console sweep table printed as cells finish.
//
// Thread safety: pure functions.
#pragma once

#include <string>
#include <vector>

#include "experiment/experiment.h"

namespace servebench::experiment {

// The headline metric keys ("request_throughput_avg", "time_to_first_token_p99", ...).
const std::vector<std::string>& headline_metrics();

std::string sweep_json(const ExperimentPlan& plan, const std::vector<CellResult>& cells);
std::string sweep_csv(const ExperimentPlan& plan, const std::vector<CellResult>& cells);

// The table's header line and one line per cell.
std::string sweep_table_header();
std::string sweep_table_row(const CellResult& cell, double confidence);

}  // namespace servebench::experiment
