#include "media_check.h"

#include <cstdint>

#include <fmt/format.h>

namespace servebench::mock {
namespace {

Error bad(std::string msg) { return Error{ErrorCode::kInvalidArgument, std::move(msg)}; }

bool base64_decode(std::string_view in, std::string* out) {
  auto val = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
  };
  while (!in.empty() && in.back() == '=') in.remove_suffix(1);
  out->clear();
  out->reserve(in.size() * 3 / 4);
  uint32_t acc = 0;
  int bits = 0;
  for (char c : in) {
    const int v = val(c);
    if (v < 0) return false;
    acc = (acc << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out->push_back(static_cast<char>((acc >> bits) & 0xff));
    }
  }
  return true;
}

uint32_t be(const std::string& s, size_t at, int n) {
  uint32_t v = 0;
  for (int i = 0; i < n; ++i) v = (v << 8) | static_cast<uint8_t>(s[at + static_cast<size_t>(i)]);
  return v;
}

uint32_t le(const std::string& s, size_t at, int n) {
  uint32_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(s[at + static_cast<size_t>(i)]);
  return v;
}

bool read_png(const std::string& d, MediaSeen* m) {
  if (d.size() < 24 || d.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0 || d.compare(12, 4, "IHDR") != 0)
    return false;
  m->format = "png";
  m->width = static_cast<int>(be(d, 16, 4));
  m->height = static_cast<int>(be(d, 20, 4));
  return true;
}

bool read_jpeg(const std::string& d, MediaSeen* m) {
  if (d.size() < 4 || static_cast<uint8_t>(d[0]) != 0xff || static_cast<uint8_t>(d[1]) != 0xd8)
    return false;
  for (size_t i = 2; i + 9 < d.size();) {
    if (static_cast<uint8_t>(d[i]) != 0xff) return false;
    const uint8_t marker = static_cast<uint8_t>(d[i + 1]);
    const uint32_t len = be(d, i + 2, 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker != 0xc4 && marker != 0xc8 && marker != 0xcc) {
      m->format = "jpeg";
      m->height = static_cast<int>(be(d, i + 5, 2));
      m->width = static_cast<int>(be(d, i + 7, 2));
      return true;
    }
    i += 2 + len;
  }
  return false;
}

bool read_wav(const std::string& d, MediaSeen* m) {
  if (d.size() < 44 || d.compare(0, 4, "RIFF") != 0 || d.compare(8, 4, "WAVE") != 0) return false;
  size_t i = 12;
  uint32_t byte_rate = 0;
  while (i + 8 <= d.size()) {
    const uint32_t len = le(d, i + 4, 4);
    if (d.compare(i, 4, "fmt ") == 0 && i + 24 <= d.size()) {
      m->channels = static_cast<int>(le(d, i + 10, 2));
      m->sample_rate = static_cast<int>(le(d, i + 12, 4));
      byte_rate = le(d, i + 16, 4);
      m->bits = static_cast<int>(le(d, i + 22, 2));
    } else if (d.compare(i, 4, "data") == 0) {
      m->format = "wav";
      m->duration_s = byte_rate ? static_cast<double>(len) / byte_rate : 0;
      return m->sample_rate > 0;
    }
    i += 8 + len + (len & 1);
  }
  return false;
}

// MPEG audio: every frame's header gives its sample rate and size; duration = frames × samples
// per frame / rate.
bool read_mp3(const std::string& d, MediaSeen* m) {
  static const int kRates[4][3] = {{11025, 12000, 8000}, {0, 0, 0}, {22050, 24000, 16000},
                                   {44100, 48000, 32000}};  // by version id (2.5, -, 2, 1)
  static const int kKbps1[16] = {0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 0};
  static const int kKbps2[16] = {0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160, 0};
  size_t i = 0, frames = 0;
  int samples_per_frame = 0;
  while (i + 4 <= d.size()) {
    const uint32_t h = be(d, i, 4);
    if ((h >> 21) != 0x7ff) {
      ++i;  // not at a frame (padding or a tag): look further
      continue;
    }
    const int version = static_cast<int>((h >> 19) & 3), layer = static_cast<int>((h >> 17) & 3);
    const int br = static_cast<int>((h >> 12) & 15), sr = static_cast<int>((h >> 10) & 3);
    if (version == 1 || layer != 1 || br == 0 || br == 15 || sr == 3) return false;  // layer III only
    const int rate = kRates[version][sr];
    const int kbps = version == 3 ? kKbps1[br] : kKbps2[br];
    samples_per_frame = version == 3 ? 1152 : 576;
    const size_t size = static_cast<size_t>(samples_per_frame / 8 * kbps * 1000 / rate) + ((h >> 9) & 1);
    m->sample_rate = rate;
    m->channels = ((h >> 6) & 3) == 3 ? 1 : 2;
    ++frames;
    i += size;
  }
  if (frames == 0) return false;
  m->format = "mp3";
  m->duration_s = static_cast<double>(frames * static_cast<size_t>(samples_per_frame)) / m->sample_rate;
  return true;
}

}  // namespace

Result<MediaSeen> inspect_media(std::string_view kind, std::string_view payload,
                                std::string_view audio_format) {
  MediaSeen m;
  m.kind = std::string(kind);
  if (payload.rfind("http://", 0) == 0 || payload.rfind("https://", 0) == 0) {
    m.format = "url";
    return m;
  }
  std::string_view b64 = payload;
  if (payload.rfind("data:", 0) == 0) {
    const size_t comma = payload.find(',');
    if (comma == std::string_view::npos || payload.substr(0, comma).find(";base64") == std::string_view::npos)
      return tl::unexpected(bad(fmt::format("{} part: a data URL needs ';base64,'", kind)));
    b64 = payload.substr(comma + 1);
  }
  std::string bytes;
  if (!base64_decode(b64, &bytes))
    return tl::unexpected(bad(fmt::format("{} part: invalid base64", kind)));
  m.bytes = static_cast<int64_t>(bytes.size());
  bool ok = false;
  if (kind == "image") ok = read_png(bytes, &m) || read_jpeg(bytes, &m);
  if (kind == "audio") ok = audio_format == "mp3" ? read_mp3(bytes, &m) : read_wav(bytes, &m);
  if (kind == "video") {
    // Container by its magic: WebM/Matroska's EBML header, MP4's ftyp box.
    const bool webm = bytes.size() > 16 && bytes.compare(0, 4, "\x1a\x45\xdf\xa3") == 0;
    const bool mp4 = bytes.size() > 16 && bytes.compare(4, 4, "ftyp") == 0;
    m.format = webm ? "webm" : mp4 ? "mp4" : "video";
    ok = bytes.size() > 16;
  }
  if (!ok) return tl::unexpected(bad(fmt::format("{} part does not decode as a PNG/JPEG image, WAV/MP3 clip or video", kind)));
  return m;
}

std::string media_json(const std::vector<MediaSeen>& media) {
  std::string out = "[";
  for (const auto& m : media) {
    if (out.size() > 1) out.push_back(',');
    out += fmt::format(R"({{"kind":"{}","format":"{}","bytes":{})", m.kind, m.format, m.bytes);
    if (m.kind == "image") out += fmt::format(R"(,"width":{},"height":{})", m.width, m.height);
    if (m.kind == "audio")
      out += fmt::format(R"(,"sample_rate":{},"channels":{},"bits":{},"duration_s":{})", m.sample_rate,
                         m.channels, m.bits, m.duration_s);
    if (!m.uuid.empty()) {
      std::string id;  // the client's text, kept to JSON-safe characters
      for (char c : m.uuid) id.push_back(c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20 ? '_' : c);
      out += fmt::format(R"(,"uuid":"{}","stripped":{})", id, m.stripped ? "true" : "false");
    }
    out.push_back('}');
  }
  out.push_back(']');
  return out;
}

}  // namespace servebench::mock
