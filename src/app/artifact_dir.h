// The run's artifact folder, made ready before anything is sent, so that a bad --artifact-dir
// or --profile-export-prefix costs a second instead of a benchmark's results.
//
// Thread safety: functions of the file system; call from one thread.
#pragma once

#include <string>
#include <vector>

#include "core/result.h"

namespace servebench::app {

struct ArtifactDir {
  std::string path;                  // the folder the artifacts go into
  std::vector<std::string> created;  // folders prepare_artifact_dir created, outermost first
};

// --profile-export-prefix names files inside the artifact folder: a plain file name (no '/',
// not "." or ".."), so no artifact lands outside it. kInvalidArgument names the flag and the fix.
Status check_export_prefix(const std::string& prefix);

// Checks the prefix, creates `root`/`run_folder` (and missing parents), then creates, writes
// and removes a probe file in it. kInvalidArgument (exit 2), one line naming --artifact-dir,
// the folder, the reason and the fix.
Result<ArtifactDir> prepare_artifact_dir(const std::string& root, const std::string& run_folder,
                                         const std::string& prefix);

// Removes the folders prepare_artifact_dir created, innermost first, where still empty: a run
// that ended before writing anything leaves no trace.
void remove_unused(const ArtifactDir& dir);

}  // namespace servebench::app
