// PngCanvas: a Canvas rasterised by cairo (Debian's libcairo2) and saved as PNG.
//
// cairo is loaded at run time (dlopen of libcairo.so.2) with the dozen functions used here
// declared locally, so building servebench needs no cairo headers and a machine without cairo
// still runs everything but PNG output, which then fails with one line naming the package.
//
// Thread safety: one canvas per thread; the library handle is loaded once (thread-safe static).
#pragma once

#include <memory>
#include <string>

#include "core/result.h"
#include "plot/canvas.h"

namespace servebench::plot {

class PngCanvas : public Canvas {
 public:
  // Fails (kUnsupported) when libcairo.so.2 cannot be loaded.
  static Result<std::unique_ptr<PngCanvas>> create(int width, int height, Color background);
  ~PngCanvas() override;
  PngCanvas(const PngCanvas&) = delete;
  PngCanvas& operator=(const PngCanvas&) = delete;

  void polyline(const std::vector<Point>& pts, Color stroke, double width,
                const char* role) override;
  void rect(double x, double y, double w, double h, Color fill, const char* role) override;
  void circle(double cx, double cy, double r, Color fill, const char* role) override;
  void text(double x, double y, const std::string& s, double size, Anchor anchor, Color color,
            double rotate_deg) override;
  // Writes the image; kIo naming `path` on failure.
  Status write(const std::string& path) const;

 private:
  PngCanvas(void* surface, void* cr);
  void* surface_;
  void* cr_;
};

// True when cairo could be loaded (tests skip PNG checks otherwise).
bool png_available();

}  // namespace servebench::plot
