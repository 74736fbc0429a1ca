#include "report_html/report_html.h"

#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "report_html/page.h"

namespace servebench::report_html {

namespace fs = std::filesystem;

Result<WriteResult> write_report(const DataOptions& options) {
  auto run = read_run_files(options.artifact_dir, options.profile_export_prefix, options.columns);
  if (!run) return tl::unexpected(run.error());
  const std::string data = report_data_json(*run, options.artifact_dir, options.max_requests);
  std::string title = "servebench report";
  if (!run->meta.model.empty()) title += ": " + run->meta.model;
  if (!run->meta.load_mode.empty()) title += ", " + run->meta.load_mode;
  const std::string page = render_page(title, data);
  WriteResult out;
  // With --profile-export-prefix P the page is P_report.html, like P_console.txt.
  const std::string name = options.profile_export_prefix.empty()
                               ? std::string(kReportFile)
                               : options.profile_export_prefix + "_" + kReportFile;
  out.path = (fs::path(options.artifact_dir) / name).string();
  const std::string tmp = out.path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f.write(page.data(), static_cast<std::streamsize>(page.size()));
    f.close();
    if (!f) {
      std::error_code ec;
      fs::remove(tmp, ec);
      return make_error(ErrorCode::kIo, fmt::format("cannot write {}", tmp));
    }
  }
  std::error_code ec;
  fs::rename(tmp, out.path, ec);
  if (ec) return make_error(ErrorCode::kIo, fmt::format("cannot write {}: {}", out.path, ec.message()));
  out.bytes = page.size();
  out.requests = run->columns.size();
  const size_t m = options.max_requests, n = out.requests;
  const size_t stride = n <= m || m == 0 ? 1 : (n + m - 1) / m;
  out.requests_kept = (n + stride - 1) / stride;
  return out;
}

}  // namespace servebench::report_html
