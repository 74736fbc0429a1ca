#include "media/file_media.h"

#include <fmt/format.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "media/encoders.h"

namespace servebench::media {
namespace {

bool starts(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// b[pos, pos + n), or "" past the end (short files).
std::string_view part(std::string_view b, size_t pos, size_t n) {
  return pos <= b.size() ? b.substr(pos, n) : std::string_view();
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

const char* kind_name(core::MediaKind k) {
  return k == core::MediaKind::kImage ? "image" : k == core::MediaKind::kAudio ? "audio" : "video";
}

// Each sniffer reads the first bytes; only when no format matches them does the extension decide.
SniffedFormat image_format(std::string_view b, std::string_view ext) {
  if (starts(b, "\x89PNG\r\n\x1a\n")) return {"png", "image/png"};
  if (starts(b, "\xff\xd8\xff")) return {"jpeg", "image/jpeg"};
  if (starts(b, "GIF87a") || starts(b, "GIF89a")) return {"gif", "image/gif"};
  if (starts(b, "RIFF") && part(b, 8, 4) == "WEBP") return {"webp", "image/webp"};
  if (starts(b, "BM")) return {"bmp", "image/bmp"};
  if (!b.empty()) return {};  // bytes of no known picture format: the name does not make them one
  if (ext == "png") return {"png", "image/png"};
  if (ext == "jpg" || ext == "jpeg") return {"jpeg", "image/jpeg"};
  if (ext == "gif") return {"gif", "image/gif"};
  if (ext == "webp") return {"webp", "image/webp"};
  if (ext == "bmp") return {"bmp", "image/bmp"};
  return {};
}

SniffedFormat audio_format(std::string_view b, std::string_view ext) {
  if (starts(b, "RIFF") && part(b, 8, 4) == "WAVE") return {"wav", "audio/wav"};
  const bool frame_sync = b.size() >= 2 && static_cast<unsigned char>(b[0]) == 0xff &&
                          (static_cast<unsigned char>(b[1]) & 0xe0) == 0xe0;
  if (starts(b, "ID3") || frame_sync) return {"mp3", "audio/mpeg"};
  if (!b.empty()) return {};
  if (ext == "wav") return {"wav", "audio/wav"};
  if (ext == "mp3") return {"mp3", "audio/mpeg"};
  return {};
}

SniffedFormat video_format(std::string_view b, std::string_view ext) {
  if (starts(b, "\x1a\x45\xdf\xa3")) return ext == "mkv" ? SniffedFormat{"mkv", "video/x-matroska"}
                                                         : SniffedFormat{"webm", "video/webm"};
  if (b.size() >= 12 && part(b, 4, 4) == "ftyp") return part(b, 8, 4) == "qt  " ? SniffedFormat{"mov", "video/quicktime"}
                                                                                : SniffedFormat{"mp4", "video/mp4"};
  if (starts(b, "RIFF") && part(b, 8, 4) == "AVI ") return {"avi", "video/x-msvideo"};
  if (!b.empty()) return {};
  if (ext == "webm") return {"webm", "video/webm"};
  if (ext == "mp4" || ext == "m4v") return {"mp4", "video/mp4"};
  if (ext == "mov") return {"mov", "video/quicktime"};
  if (ext == "avi") return {"avi", "video/x-msvideo"};
  if (ext == "mkv") return {"mkv", "video/x-matroska"};
  return {};
}

// The file format a MIME type names ("image/jpeg" -> "jpeg", "audio/mpeg" -> "mp3").
std::string format_of_mime(std::string_view mime) {
  const size_t slash = mime.find('/');
  std::string sub = lower(slash == std::string_view::npos ? mime : mime.substr(slash + 1));
  if (sub == "mpeg" && starts(mime, "audio")) return "mp3";
  if (sub == "x-wav" || sub == "wave") return "wav";
  if (sub == "jpg") return "jpeg";
  return sub;
}

// "scheme:" at the start (RFC 3986 scheme characters); "" when there is none.
std::string_view scheme_of(std::string_view v) {
  if (v.empty() || !std::isalpha(static_cast<unsigned char>(v[0]))) return {};
  for (size_t i = 1; i < v.size(); ++i) {
    const char c = v[i];
    if (c == ':') return v.substr(0, i);
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '+' && c != '-' && c != '.') return {};
  }
  return {};
}

bool is_base64(std::string_view s) {
  if (s.empty() || s.size() % 4 != 0) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '/') continue;
    if (c == '=' && i + 2 >= s.size()) continue;
    return false;
  }
  return true;
}

}  // namespace

SniffedFormat sniff_media_format(core::MediaKind kind, std::string_view bytes, std::string_view path) {
  const std::string ext = lower(std::filesystem::path(path).extension().string().substr(
      std::filesystem::path(path).has_extension() ? 1 : 0));
  switch (kind) {
    case core::MediaKind::kImage: return image_format(bytes, ext);
    case core::MediaKind::kAudio: return audio_format(bytes, ext);
    case core::MediaKind::kVideo: return video_format(bytes, ext);
  }
  return {};
}

Result<core::MediaPart> FileMediaResolver::resolve(const dataset::FileMedia& m) {
  const std::string where = fmt::format("--input-file '{}':{}: field '{}'", file_, m.line, m.field);
  auto bad = [&](std::string_view problem) {
    return make_error(ErrorCode::kInvalidArgument, fmt::format("{}: '{}' {}", where,
                                                               m.value.substr(0, 80), problem));
  };
  core::MediaPart part;
  part.kind = m.kind;
  const std::string_view v = m.value;
  const std::string scheme = lower(scheme_of(v));
  if (scheme == "data") {
    const size_t comma = v.find(',');
    const size_t b64 = v.find(";base64,");
    if (comma == std::string_view::npos || b64 == std::string_view::npos || b64 + 7 != comma)
      return bad("is not a base64 data URL; write data:<mime>;base64,<payload>");
    part.mime = std::string(v.substr(5, b64 - 5));
    if (!starts(part.mime, kind_name(m.kind)))
      return bad(fmt::format("is a data URL of type '{}', not {}/...", part.mime, kind_name(m.kind)));
    part.format = format_of_mime(part.mime);
    part.base64 = std::string(v.substr(comma + 1));
    if (!is_base64(part.base64)) return bad("has a payload that is not base64");
    SB_TRY(keep(&part));
    return part;
  }
  if (m.kind == core::MediaKind::kAudio && v.find(',') != std::string_view::npos && scheme.empty()) {
    const std::string fmt_name = lower(v.substr(0, v.find(',')));
    if (fmt_name == "wav" || fmt_name == "mp3") {  // AIPerf's "format,base64" audio
      part.format = fmt_name;
      part.mime = fmt_name == "wav" ? "audio/wav" : "audio/mpeg";
      part.base64 = std::string(v.substr(v.find(',') + 1));
      if (!is_base64(part.base64)) return bad("has a payload that is not base64");
      SB_TRY(keep(&part));
      return part;
    }
  }
  if (!scheme.empty() && scheme.size() > 1) {  // one letter: a Windows drive, read as a path
    if (v.substr(scheme.size(), 3) != "://" || v.size() <= scheme.size() + 3)
      return bad("is not a valid URL: a URL needs a scheme and a host (scheme://host/...)");
    part.url = std::string(v);
    const size_t dot = v.rfind('.');
    if (dot != std::string_view::npos && v.find('/', dot) == std::string_view::npos) {
      SniffedFormat f = sniff_media_format(m.kind, {}, v.substr(0, v.find_first_of("?#", dot)));
      part.format = f.format;
      part.mime = f.mime;
    }
    return part;
  }
  return read_file(m);
}

Result<core::MediaPart> FileMediaResolver::read_file(const dataset::FileMedia& m) {
  const std::string key = std::string(kind_name(m.kind)) + '\n' + m.value;
  if (auto it = cache_.find(key); it != cache_.end()) return it->second;
  const std::string where = fmt::format("--input-file '{}':{}: field '{}'", file_, m.line, m.field);
  std::error_code ec;
  if (!std::filesystem::is_regular_file(m.value, ec))
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("{}: file '{}' {}; give an existing file, an http(s) URL or a data URL",
                                  where, m.value,
                                  std::filesystem::exists(m.value, ec) ? "is not a regular file" : "not found"));
  std::ifstream in(m.value, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (!in.good() && !in.eof())
    return make_error(ErrorCode::kInvalidArgument, fmt::format("{}: cannot read file '{}'", where, m.value));
  const std::string data = std::move(bytes).str();
  SniffedFormat f = sniff_media_format(m.kind, data, m.value);
  if (f.format.empty())
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("{}: file '{}' is not {} {} format servebench knows ({})", where, m.value,
                                  m.kind == core::MediaKind::kVideo ? "a" : "an", kind_name(m.kind),
                                  m.kind == core::MediaKind::kImage   ? "png, jpeg, gif, webp, bmp"
                                  : m.kind == core::MediaKind::kAudio ? "wav, mp3"
                                                                      : "webm, mp4, mov, avi, mkv"));
  core::MediaPart part;
  part.kind = m.kind;
  part.format = std::move(f.format);
  part.mime = std::move(f.mime);
  part.base64 = base64(data);
  SB_TRY(keep(&part));
  return cache_.emplace(key, std::move(part)).first->second;
}

Status FileMediaResolver::keep(core::MediaPart* part) const {
  if (!keeper_ || part->base64.empty()) return {};
  auto view = keeper_(std::move(part->base64));
  if (!view) return tl::unexpected(view.error());
  std::string().swap(part->base64);
  part->stored_base64 = *view;
  return {};
}

}  // namespace servebench::media
