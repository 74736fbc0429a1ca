// Embeds assets/images/*.jpg with .incbin (dataset/embedded_corpus.cc does the same for the
// corpus). The folder and the pictures' combined hash come from CMake; the hash is in the source
// so that compiler caches see a changed picture.
#include "media/embedded_pictures.h"

#ifndef SB_PICTURES_DIR
#error "SB_PICTURES_DIR must be defined by the build"
#endif

extern "C" const char sb_pictures_sha256[] = SB_PICTURES_SHA256;

// One picture: symbols sb_picture_<id> and sb_picture_<id>_end around the file's bytes.
#define SB_EMBED_PICTURE(id, file)          \
  __asm__(".section .rodata\n"              \
          ".global sb_picture_" #id "\n"    \
          ".type sb_picture_" #id ", @object\n" \
          ".balign 16\n"                    \
          "sb_picture_" #id ":\n"           \
          ".incbin \"" SB_PICTURES_DIR "/" file "\"\n" \
          ".global sb_picture_" #id "_end\n" \
          ".type sb_picture_" #id "_end, @object\n" \
          "sb_picture_" #id "_end:\n"       \
          ".byte 0\n"                       \
          ".previous\n");                   \
  extern "C" const char sb_picture_##id[];  \
  extern "C" const char sb_picture_##id##_end[];

SB_EMBED_PICTURE(astronaut, "astronaut.jpg")
SB_EMBED_PICTURE(chelsea, "chelsea.jpg")
SB_EMBED_PICTURE(coffee, "coffee.jpg")
SB_EMBED_PICTURE(hubble, "hubble_deep_field.jpg")
SB_EMBED_PICTURE(rocket, "rocket.jpg")

namespace servebench::media {
namespace {

std::string_view span(const char* begin, const char* end) {
  return std::string_view(begin, static_cast<size_t>(end - begin));
}

}  // namespace

const std::vector<EmbeddedPicture>& embedded_pictures() {
  static const std::vector<EmbeddedPicture> pictures = {
      {"astronaut.jpg", span(sb_picture_astronaut, sb_picture_astronaut_end)},
      {"chelsea.jpg", span(sb_picture_chelsea, sb_picture_chelsea_end)},
      {"coffee.jpg", span(sb_picture_coffee, sb_picture_coffee_end)},
      {"hubble_deep_field.jpg", span(sb_picture_hubble, sb_picture_hubble_end)},
      {"rocket.jpg", span(sb_picture_rocket, sb_picture_rocket_end)},
  };
  return pictures;
}

}  // namespace servebench::media
