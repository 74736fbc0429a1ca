#include "metrics/error_groups.h"

#include <algorithm>

namespace servebench::metrics {
namespace {

constexpr const char* kOtherMessages = "(other messages)";

bool is_alnum(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// True when text[i..] starts with a UUID that is not part of a longer alphanumeric run.
bool uuid_at(std::string_view text, size_t i) {
  static constexpr size_t kGroups[] = {8, 4, 4, 4, 12};
  size_t p = i;
  for (size_t g = 0; g < 5; ++g) {
    if (g > 0) {
      if (p >= text.size() || text[p] != '-') return false;
      ++p;
    }
    for (size_t k = 0; k < kGroups[g]; ++k, ++p) {
      if (p >= text.size() || !is_hex(text[p])) return false;
    }
  }
  return p == text.size() || !is_alnum(text[p]);
}

}  // namespace

std::string normalize_error_message(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    if (!is_alnum(text[i])) {
      out.push_back(text[i++]);
      continue;
    }
    if (uuid_at(text, i)) {
      out += "<uuid>";
      i += 36;
      continue;
    }
    size_t j = i;
    bool digits = false, letters = false;
    for (; j < text.size() && is_alnum(text[j]); ++j) {
      (is_digit(text[j]) ? digits : letters) = true;
    }
    const std::string_view run = text.substr(i, j - i);
    if (!letters && run.size() >= 5) {
      out += "<n>";
    } else if (digits && letters && run.size() >= 8) {
      out += "<id>";
    } else {
      out += run;
    }
    i = j;
  }
  return out;
}

void ErrorGroups::add_key(Key key, int64_t n) {
  auto it = groups_.find(key);
  if (it != groups_.end()) {
    it->second += n;
    return;
  }
  if (groups_.size() >= kMaxTrackedErrorGroups) std::get<2>(key) = kOtherMessages;
  groups_[std::move(key)] += n;
}

void ErrorGroups::add(int32_t code, std::string_view type, std::string_view message) {
  add_key({code, std::string(type), normalize_error_message(message)}, 1);
  auto it = by_kind_.find(type);
  if (it == by_kind_.end()) {
    by_kind_.emplace(std::string(type), 1);
  } else {
    ++it->second;
  }
}

void ErrorGroups::merge(ErrorGroups&& other) {
  for (auto& [key, n] : other.groups_) add_key(key, n);
  for (auto& [kind, n] : other.by_kind_) by_kind_[kind] += n;
  other.groups_.clear();
  other.by_kind_.clear();
}

std::vector<ErrorGroup> ErrorGroups::groups() const {
  std::vector<ErrorGroup> out;
  std::map<std::pair<int32_t, std::string>, int64_t> rest;
  for (const auto& [key, count] : groups_) {
    const auto& [code, type, message] = key;
    if (message == kOtherMessages) {
      rest[{code, type}] += count;
    } else {
      out.push_back({code, type, message, count});
    }
  }
  // Map order (code, type, message) breaks ties between equal counts.
  std::stable_sort(out.begin(), out.end(),
                   [](const ErrorGroup& a, const ErrorGroup& b) { return a.count > b.count; });
  if (out.size() > kMaxErrorGroups) {
    for (size_t i = kMaxErrorGroups; i < out.size(); ++i) {
      rest[{out[i].code, out[i].type}] += out[i].count;
    }
    out.resize(kMaxErrorGroups);
  }
  for (const auto& [key, count] : rest)
    out.push_back({key.first, key.second, kOtherMessages, count});
  return out;
}

std::vector<std::pair<std::string, int64_t>> ErrorGroups::by_kind() const {
  return {by_kind_.begin(), by_kind_.end()};
}

size_t ErrorGroups::memory_bytes() const {
  size_t bytes = 0;
  for (const auto& [key, n] : groups_)
    bytes += 64 + std::get<1>(key).size() + std::get<2>(key).size();
  return bytes + by_kind_.size() * 64;
}

}  // namespace servebench::metrics
