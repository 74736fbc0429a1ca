// write_plots: `servebench plot` as a library. Reads each run folder (run_data.h), builds the
// single-run chart set for one folder or the comparison set for several (charts.h), and writes
// <out>/<chart id>.svg and/or .png, each chart drawn once per format by the same routine.
//
// Thread safety: pure apart from the files it writes.
#pragma once

#include <string>
#include <vector>

#include "core/result.h"

namespace servebench::plot {

struct PlotOptions {
  std::vector<std::string> dirs;  // run artifact folders (at least one)
  std::string out_dir;            // "" = <first dir>/plots (AIPerf's default)
  int width = 900, height = 500;  // pixels
  bool svg = true, png = true;
  bool dark = false;
};

struct PlotResult {
  std::string out_dir;
  std::vector<std::string> files;  // written, in chart order
};

// Errors: a folder without profile_export.jsonl or a readable summary (usage, exit 2); PNG
// asked without cairo (usage); an output folder that cannot be written (kIo, exit 3).
Result<PlotResult> write_plots(const PlotOptions& options);

}  // namespace servebench::plot
