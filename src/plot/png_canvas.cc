#include "plot/png_canvas.h"

#include <dlfcn.h>

#include <cmath>

namespace servebench::plot {
namespace {

// The subset of cairo's C API used here, with its documented signatures (cairo.h, 1.16).
struct TextExtents {
  double x_bearing, y_bearing, width, height, x_advance, y_advance;
};
constexpr int kFormatArgb32 = 0;
constexpr int kLineJoinRound = 1;

struct Cairo {
  void* (*image_surface_create)(int, int, int);
  int (*surface_status)(void*);
  void (*surface_destroy)(void*);
  int (*surface_write_to_png)(void*, const char*);
  void* (*create)(void*);
  void (*destroy)(void*);
  void (*set_source_rgba)(void*, double, double, double, double);
  void (*set_line_width)(void*, double);
  void (*set_line_join)(void*, int);
  void (*new_path)(void*);
  void (*move_to)(void*, double, double);
  void (*line_to)(void*, double, double);
  void (*rectangle)(void*, double, double, double, double);
  void (*arc)(void*, double, double, double, double, double);
  void (*stroke)(void*);
  void (*fill)(void*);
  void (*save)(void*);
  void (*restore)(void*);
  void (*translate)(void*, double, double);
  void (*rotate)(void*, double);
  void (*select_font_face)(void*, const char*, int, int);
  void (*set_font_size)(void*, double);
  void (*text_extents)(void*, const char*, TextExtents*);
  void (*show_text)(void*, const char*);
};

template <typename F>
bool bind(void* lib, const char* name, F* out) {
  *out = reinterpret_cast<F>(dlsym(lib, name));
  return *out != nullptr;
}

const Cairo* load_cairo() {
  static const Cairo* lib = []() -> const Cairo* {
    void* h = dlopen("libcairo.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!h) return nullptr;
    static Cairo c;
    const bool ok =
        bind(h, "cairo_image_surface_create", &c.image_surface_create) &&
        bind(h, "cairo_surface_status", &c.surface_status) &&
        bind(h, "cairo_surface_destroy", &c.surface_destroy) &&
        bind(h, "cairo_surface_write_to_png", &c.surface_write_to_png) &&
        bind(h, "cairo_create", &c.create) && bind(h, "cairo_destroy", &c.destroy) &&
        bind(h, "cairo_set_source_rgba", &c.set_source_rgba) &&
        bind(h, "cairo_set_line_width", &c.set_line_width) &&
        bind(h, "cairo_set_line_join", &c.set_line_join) &&
        bind(h, "cairo_new_path", &c.new_path) && bind(h, "cairo_move_to", &c.move_to) &&
        bind(h, "cairo_line_to", &c.line_to) && bind(h, "cairo_rectangle", &c.rectangle) &&
        bind(h, "cairo_arc", &c.arc) && bind(h, "cairo_stroke", &c.stroke) &&
        bind(h, "cairo_fill", &c.fill) && bind(h, "cairo_save", &c.save) &&
        bind(h, "cairo_restore", &c.restore) && bind(h, "cairo_translate", &c.translate) &&
        bind(h, "cairo_rotate", &c.rotate) &&
        bind(h, "cairo_select_font_face", &c.select_font_face) &&
        bind(h, "cairo_set_font_size", &c.set_font_size) &&
        bind(h, "cairo_text_extents", &c.text_extents) && bind(h, "cairo_show_text", &c.show_text);
    return ok ? &c : nullptr;
  }();
  return lib;
}

void source(const Cairo& c, void* cr, Color col) {
  c.set_source_rgba(cr, col.r, col.g, col.b, col.a);
}

}  // namespace

bool png_available() { return load_cairo() != nullptr; }

Result<std::unique_ptr<PngCanvas>> PngCanvas::create(int width, int height, Color background) {
  const Cairo* c = load_cairo();
  if (!c)
    return make_error(ErrorCode::kUnsupported,
                      "PNG output needs cairo (libcairo.so.2); install Debian's libcairo2, or "
                      "use --format svg");
  void* surface = c->image_surface_create(kFormatArgb32, width, height);
  if (c->surface_status(surface) != 0) {
    c->surface_destroy(surface);
    return make_error(ErrorCode::kInvalidArgument, "cairo cannot make a " + std::to_string(width) +
                                                       "x" + std::to_string(height) +
                                                       " image; use a smaller --width/--height");
  }
  std::unique_ptr<PngCanvas> canvas(new PngCanvas(surface, c->create(surface)));
  canvas->rect(0, 0, width, height, background, "background");
  return canvas;
}

PngCanvas::PngCanvas(void* surface, void* cr) : surface_(surface), cr_(cr) {
  const Cairo& c = *load_cairo();
  c.set_line_join(cr_, kLineJoinRound);
  c.select_font_face(cr_, "DejaVu Sans", 0, 0);
}

PngCanvas::~PngCanvas() {
  const Cairo& c = *load_cairo();
  c.destroy(cr_);
  c.surface_destroy(surface_);
}

void PngCanvas::polyline(const std::vector<Point>& pts, Color stroke, double width, const char*) {
  if (pts.size() < 2) return;
  const Cairo& c = *load_cairo();
  c.new_path(cr_);
  c.move_to(cr_, pts[0].x, pts[0].y);
  for (size_t i = 1; i < pts.size(); ++i) c.line_to(cr_, pts[i].x, pts[i].y);
  source(c, cr_, stroke);
  c.set_line_width(cr_, width);
  c.stroke(cr_);
}

void PngCanvas::rect(double x, double y, double w, double h, Color fill, const char*) {
  const Cairo& c = *load_cairo();
  c.new_path(cr_);
  c.rectangle(cr_, x, y, w, h);
  source(c, cr_, fill);
  c.fill(cr_);
}

void PngCanvas::circle(double cx, double cy, double r, Color fill, const char*) {
  const Cairo& c = *load_cairo();
  c.new_path(cr_);
  c.arc(cr_, cx, cy, r, 0, 2 * M_PI);
  source(c, cr_, fill);
  c.fill(cr_);
}

void PngCanvas::text(double x, double y, const std::string& s, double size, Anchor anchor,
                     Color color, double rotate_deg) {
  const Cairo& c = *load_cairo();
  c.save(cr_);
  c.set_font_size(cr_, size);
  TextExtents e{};
  c.text_extents(cr_, s.c_str(), &e);
  const double dx = anchor == Anchor::kStart    ? 0
                    : anchor == Anchor::kMiddle ? -e.x_advance / 2
                                                : -e.x_advance;
  c.translate(cr_, x, y);
  if (rotate_deg != 0) c.rotate(cr_, rotate_deg * M_PI / 180.0);
  c.new_path(cr_);
  c.move_to(cr_, dx, 0);
  source(c, cr_, color);
  c.show_text(cr_, s.c_str());
  c.restore(cr_);
}

Status PngCanvas::write(const std::string& path) const {
  if (load_cairo()->surface_write_to_png(surface_, path.c_str()) != 0)
    return make_error(ErrorCode::kIo, "cannot write " + path);
  return {};
}

}  // namespace servebench::plot
