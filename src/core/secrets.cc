#include "core/secrets.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <shared_mutex>

#include "core/json_text.h"

namespace servebench::core::secrets {
namespace {

char ascii_lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
  return true;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

struct Registry {
  std::shared_mutex mu;
  std::vector<std::string> literals;  // longest first, no duplicates
  std::atomic<bool> any{false};
};

Registry& registry() {
  static Registry r;
  return r;
}

void add_one(std::string value) {
  if (value.size() < kMinSecretBytes) return;
  Registry& r = registry();
  std::unique_lock lock(r.mu);
  if (std::find(r.literals.begin(), r.literals.end(), value) != r.literals.end()) return;
  r.literals.push_back(std::move(value));
  // Longest first, so a value that contains another is replaced whole.
  std::stable_sort(r.literals.begin(), r.literals.end(),
                   [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
  r.any.store(true, std::memory_order_release);
}

}  // namespace

const std::vector<std::string_view>& harmless_headers() {
  static const std::vector<std::string_view> kNames = {
      "Accept",       "Accept-Encoding", "Accept-Language",  "Cache-Control", "Connection",
      "Content-Type", "User-Agent",      "X-Correlation-ID", "X-Request-ID"};
  return kNames;
}

bool is_harmless_header(std::string_view name) {
  name = trim(name);
  for (std::string_view h : harmless_headers())
    if (iequals(h, name)) return true;
  return false;
}

std::string redact_header_line(std::string_view header_line) {
  const size_t colon = header_line.find(':');
  if (colon == std::string_view::npos) return std::string(kRedacted);
  const std::string_view name = header_line.substr(0, colon);
  if (is_harmless_header(name)) return std::string(header_line);
  return std::string(name) + ": " + std::string(kRedacted);
}

void add(std::string_view value) {
  value = trim(value);
  add_one(std::string(value));
  // "Bearer xyz" / "Basic xyz": the credential alone may appear elsewhere (a server echoing it).
  if (const size_t space = value.find(' '); space != std::string_view::npos) {
    const std::string_view scheme = value.substr(0, space);
    for (std::string_view s : {"Bearer", "Basic", "Token", "Digest", "ApiKey"})
      if (iequals(scheme, s)) add_one(std::string(trim(value.substr(space + 1))));
  }
  // Inside JSON documents (inputs.json, input_config) the value appears escaped.
  std::string escaped;
  append_json_string(value, &escaped);
  if (escaped.size() >= 2) escaped = escaped.substr(1, escaped.size() - 2);
  if (escaped != value) add_one(std::move(escaped));
}

void add_header_value(std::string_view header_line) {
  const size_t colon = header_line.find(':');
  if (colon == std::string_view::npos) {
    add(header_line);  // malformed: treat the whole argument as a possible credential
    return;
  }
  if (is_harmless_header(header_line.substr(0, colon))) return;
  add(header_line.substr(colon + 1));
}

std::string scrub(std::string_view text) {
  Registry& r = registry();
  if (!r.any.load(std::memory_order_acquire)) return std::string(text);
  std::shared_lock lock(r.mu);
  std::string out(text);
  for (const std::string& lit : r.literals) {
    size_t pos = out.find(lit);
    while (pos != std::string::npos) {
      out.replace(pos, lit.size(), kRedacted);
      pos = out.find(lit, pos + kRedacted.size());
    }
  }
  return out;
}

size_t size() {
  Registry& r = registry();
  std::shared_lock lock(r.mu);
  return r.literals.size();
}

void clear_for_testing() {
  Registry& r = registry();
  std::unique_lock lock(r.mu);
  r.literals.clear();
  r.any.store(false, std::memory_order_release);
}

}  // namespace servebench::core::secrets
