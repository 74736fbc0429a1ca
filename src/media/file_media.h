// Media inputs of dataset files (`image`/`images`, `audio`/`audios`, `video`/`videos` of
// single_turn, multi_turn and random_pool rows), resolved before t0 as AIPerf does:
//   - an inline payload is kept: a data URL ("data:image/png;base64,..."), or for audio also
//     AIPerf's "wav,<base64>" / "mp3,<base64>" form;
//   - a URL (scheme://host...) is passed through for the server to fetch;
//   - anything else is a local file path (relative to the working directory), read and inlined
//     as base64; its format comes from its first bytes (PNG, JPEG, GIF, WebP, BMP; WAV, MP3;
//     WebM/Matroska, MP4/QuickTime), else from its extension.
// A missing or unreadable file, an unknown format or a malformed data URL is an error naming the
// file, the row's line, the field and the value (ErrorCode::kInvalidArgument, exit code 2).
// Each path is read once per resolver (rows that share a picture share the bytes' encoding).
// With a MediaKeeper, each payload's base64 is handed to it once (a file when first read, an
// inline payload as met) and the parts carry the view it returns (core::MediaPart::
// stored_base64): copies of a part then cost no copy of the file (app/media_store.h keeps them
// in memory up to a threshold, then in the run's file-backed store).
//
// Thread safety: a FileMediaResolver is used by one thread.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "core/media_part.h"
#include "core/result.h"
#include "dataset/loaders/dataset_file.h"

namespace servebench::media {

// Takes a payload's base64 and returns where it now lives, valid for the run.
using MediaKeeper = std::function<Result<std::string_view>(std::string base64)>;

class FileMediaResolver {
 public:
  // `file` names the dataset file in error messages.
  explicit FileMediaResolver(std::string file, MediaKeeper keeper = {})
      : file_(std::move(file)), keeper_(std::move(keeper)) {}
  Result<core::MediaPart> resolve(const dataset::FileMedia& m);
  // Files read so far (each counted once).
  size_t files_read() const { return cache_.size(); }

 private:
  Result<core::MediaPart> read_file(const dataset::FileMedia& m);
  Status keep(core::MediaPart* part) const;  // hands part's base64 to the keeper, if any
  std::string file_;
  MediaKeeper keeper_;
  std::unordered_map<std::string, core::MediaPart> cache_;  // by kind + path
};

// The format and MIME type of a media file from its first bytes, else its extension; empty
// format when neither tells (exposed for tests).
struct SniffedFormat {
  std::string format, mime;
};
SniffedFormat sniff_media_format(core::MediaKind kind, std::string_view bytes, std::string_view path);

}  // namespace servebench::media
