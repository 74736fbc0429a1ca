// Flat open-addressing hash maps for the hot lookups (vocabulary strings and BPE merge pairs).
// Built once at load, then read-only: safe for concurrent readers.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace servebench::tokenizer {

inline uint64_t hash_bytes(std::string_view s) {
  // FNV-1a over 8-byte words, then a murmur finalizer: fast for short keys.
  uint64_t h = 0xcbf29ce484222325ull ^ s.size();
  size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    uint64_t w;
    __builtin_memcpy(&w, s.data() + i, 8);
    h = (h ^ w) * 0x100000001b3ull;
    h ^= h >> 29;
  }
  uint64_t tail = 0;
  if (i < s.size()) __builtin_memcpy(&tail, s.data() + i, s.size() - i);
  h = (h ^ tail) * 0x9E3779B97F4A7C15ull;
  h ^= h >> 32;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  return h;
}

// string -> uint32 id. Keys are copied into one buffer.
class StringIdMap {
 public:
  void reserve(size_t n) {
    entries_.reserve(n);
    size_t cap = 16;
    while (cap < n * 2) cap <<= 1;
    slots_.assign(cap, 0);
  }
  // Inserts or overwrites.
  void insert(std::string_view key, uint32_t id) {
    if ((entries_.size() + 1) * 2 > slots_.size()) grow();
    size_t mask = slots_.size() - 1;
    for (size_t i = hash_bytes(key) & mask;; i = (i + 1) & mask) {
      uint32_t e = slots_[i];
      if (e == 0) {
        entries_.push_back({static_cast<uint32_t>(buf_.size()), static_cast<uint32_t>(key.size()), id});
        buf_.append(key);
        slots_[i] = static_cast<uint32_t>(entries_.size());
        return;
      }
      if (key_of(e - 1) == key) {
        entries_[e - 1].id = id;
        return;
      }
    }
  }
  const uint32_t* find(std::string_view key) const {
    if (slots_.empty()) return nullptr;
    size_t mask = slots_.size() - 1;
    for (size_t i = hash_bytes(key) & mask;; i = (i + 1) & mask) {
      uint32_t e = slots_[i];
      if (e == 0) return nullptr;
      if (key_of(e - 1) == key) return &entries_[e - 1].id;
    }
  }
  size_t size() const { return entries_.size(); }
  template <class F>
  void for_each(F&& f) const {
    for (size_t i = 0; i < entries_.size(); ++i) f(key_of(i), entries_[i].id);
  }
  size_t memory_bytes() const {
    return buf_.capacity() + entries_.capacity() * sizeof(Entry) + slots_.capacity() * 4;
  }

 private:
  struct Entry {
    uint32_t off, len, id;
  };
  std::string_view key_of(size_t e) const {
    return std::string_view(buf_.data() + entries_[e].off, entries_[e].len);
  }
  void grow() {
    size_t cap = slots_.empty() ? 16 : slots_.size() * 2;
    slots_.assign(cap, 0);
    size_t mask = cap - 1;
    for (size_t e = 0; e < entries_.size(); ++e) {
      size_t i = hash_bytes(key_of(e)) & mask;
      while (slots_[i] != 0) i = (i + 1) & mask;
      slots_[i] = static_cast<uint32_t>(e + 1);
    }
  }
  std::string buf_;
  std::vector<Entry> entries_;
  std::vector<uint32_t> slots_;
};

// (left id, right id) -> (rank, merged id).
class PairMap {
 public:
  struct Value {
    uint32_t rank, id;
  };
  void reserve(size_t n) {
    size_t cap = 16;
    while (cap < n * 2) cap <<= 1;
    keys_.assign(cap, kEmpty);
    values_.assign(cap, {});
  }
  // Keeps the existing entry when the pair is already present (first merge wins, as HF).
  void insert(uint32_t a, uint32_t b, Value v) {
    if ((size_ + 1) * 2 > keys_.size()) rehash(keys_.empty() ? 16 : keys_.size() * 2);
    uint64_t k = key(a, b);
    size_t mask = keys_.size() - 1;
    for (size_t i = mix(k) & mask;; i = (i + 1) & mask) {
      if (keys_[i] == kEmpty) {
        keys_[i] = k;
        values_[i] = v;
        ++size_;
        return;
      }
      if (keys_[i] == k) return;
    }
  }
  const Value* find(uint32_t a, uint32_t b) const {
    if (keys_.empty()) return nullptr;
    uint64_t k = key(a, b);
    size_t mask = keys_.size() - 1;
    for (size_t i = mix(k) & mask;; i = (i + 1) & mask) {
      if (keys_[i] == k) return &values_[i];
      if (keys_[i] == kEmpty) return nullptr;
    }
  }
  size_t size() const { return size_; }
  size_t memory_bytes() const { return keys_.capacity() * 8 + values_.capacity() * 8; }

 private:
  static constexpr uint64_t kEmpty = ~0ull;
  static uint64_t key(uint32_t a, uint32_t b) { return (static_cast<uint64_t>(a) << 32) | b; }
  static uint64_t mix(uint64_t k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return k;
  }
  void rehash(size_t cap) {
    std::vector<uint64_t> ok;
    std::vector<Value> ov;
    ok.swap(keys_);
    ov.swap(values_);
    keys_.assign(cap, kEmpty);
    values_.assign(cap, {});
    size_ = 0;
    for (size_t i = 0; i < ok.size(); ++i) {
      if (ok[i] != kEmpty) insert(static_cast<uint32_t>(ok[i] >> 32), static_cast<uint32_t>(ok[i]), ov[i]);
    }
  }
  std::vector<uint64_t> keys_;
  std::vector<Value> values_;
  size_t size_ = 0;
};

}  // namespace servebench::tokenizer
