// The bundled pictures of --image-source assets (assets/images/, public domain or CC0: see
// assets/images/LICENSE.md), embedded in the binary with .incbin like the vendored corpus
// (dataset/embedded_corpus.h), so a servebench copied anywhere needs no data files.
#pragma once

#include <string_view>
#include <vector>

namespace servebench::media {

struct EmbeddedPicture {
  std::string_view name;   // file name in assets/images/
  std::string_view bytes;  // the JPEG file (static storage, never freed)
};

// The pictures in file-name order.
const std::vector<EmbeddedPicture>& embedded_pictures();

}  // namespace servebench::media
