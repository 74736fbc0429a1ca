// report.html: writes a run's self-contained HTML report into its artifact folder, from the
// run's files (report_data.h), the way `servebench profile` does after its summary files and
// `servebench report DIR` does again later.
//
// Thread safety: call from one thread.
#pragma once

#include <string>

#include "core/result.h"
#include "report_html/report_data.h"

namespace servebench::report_html {

inline constexpr const char* kReportFile = "report.html";

struct WriteResult {
  std::string path;          // the file written
  size_t bytes = 0;
  size_t requests = 0;       // profiling records read
  size_t requests_kept = 0;  // in the timeline's arrays
};

// Writes <artifact_dir>/report.html (<prefix>_report.html with a --profile-export-prefix; written
// to a temporary name, then renamed). Fails with
// kNotFound/kParse when the summary JSON is missing/malformed, kIo when the file cannot be
// written.
Result<WriteResult> write_report(const DataOptions& options);

}  // namespace servebench::report_html
