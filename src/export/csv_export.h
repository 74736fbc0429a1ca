// profile_export_aiperf.csv and profile_export_aiperf_timeslices.csv writers.
//
// Main file (AIPerf's two-section layout, §6.3): section 1 header
// "Metric,avg,min,max,sum,p1,p5,p10,p25,p50,p75,p90,p95,p99,std" for metrics with a
// distribution, rows named "Header (unit)" (no unit for count/requests), sorted by tag; a blank
// line; section 2 "Metric,Value" for the scalar metrics, sorted by tag. Values in display units
// at full precision (AIPerf rounds to 2 decimals; we do not). Empty cell = not applicable; "inf"
// for the +inf statistics of adj_* distributions.
//
// Time slices: AIPerf's tidy format "Timeslice,Start_NS,End_NS,Metric,Unit,Stat,Value" (wall
// ns, End_NS the window's end, clipped to the run's end for the last slice; metric header, one
// row per statistic a row has, metrics sorted by tag; every row of the slice's summary,
// the time-weighted sweep rows included).
//
// Thread safety: pure functions.
#pragma once

#include <string>
#include <vector>

#include "metrics/summary.h"
#include "metrics/timeslices.h"

namespace servebench::exporter {

std::string render_summary_csv(const metrics::Summary& summary);
std::string render_timeslices_csv(const std::vector<metrics::TimeSlice>& slices,
                                  const record::RunAnchor& anchor);

}  // namespace servebench::exporter
