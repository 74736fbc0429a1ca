// Flat open-addressing hash maps for the hot lookups (vocabulary strings and BPE merge pairs).
// Built once at load, then read-only: safe for concurrent readers.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
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
//
// Either owns its slots (built with insert) or views slots that live elsewhere (view(): the
// builtin tokenizer's table, built at build time by tokenizer_tables_tool from the same code and
// embedded in the binary). raw_keys()/raw_values() expose the slot arrays for that purpose.
class PairMap {
 public:
  struct Value {
    uint32_t rank, id;
  };
  static constexpr uint64_t kEmpty = ~0ull;

  PairMap() = default;
  PairMap(const PairMap& o) { *this = o; }
  // Copies own their slots; a copy of a view views the same slots.
  PairMap& operator=(const PairMap& o) {
    if (this == &o) return *this;
    if (o.owned()) {
      keys_ = o.keys_;
      values_ = o.values_;
      size_ = o.size_;
      rebind();
    } else {
      keys_.clear();
      values_.clear();
      kp_ = o.kp_;
      vp_ = o.vp_;
      cap_ = o.cap_;
      size_ = o.size_;
    }
    return *this;
  }
  PairMap(PairMap&& o) noexcept { *this = std::move(o); }
  PairMap& operator=(PairMap&& o) noexcept {
    if (this != &o) {
      const bool owned = o.owned();
      keys_ = std::move(o.keys_);
      values_ = std::move(o.values_);
      size_ = o.size_;
      if (owned) {
        rebind();
      } else {
        kp_ = o.kp_;
        vp_ = o.vp_;
        cap_ = o.cap_;
      }
      o.keys_.clear();
      o.values_.clear();
      o.size_ = 0;
      o.rebind();
    }
    return *this;
  }

  // A read-only map over `cap` (a power of two) slots laid out as raw_keys()/raw_values() of a
  // map built by this code, holding `size` pairs. REQUIRES: the arrays outlive the map.
  static PairMap view(const uint64_t* keys, const Value* values, size_t cap, size_t size) {
    PairMap m;
    m.kp_ = keys;
    m.vp_ = values;
    m.cap_ = cap;
    m.size_ = size;
    return m;
  }

  void reserve(size_t n) {
    size_t cap = 16;
    while (cap < n * 2) cap <<= 1;
    keys_.assign(cap, kEmpty);
    values_.assign(cap, {});
    size_ = 0;
    rebind();
  }
  // Keeps the existing entry when the pair is already present (first merge wins, as HF).
  void insert(uint32_t a, uint32_t b, Value v) {
    if (!owned()) own();  // a view becomes an owned copy first
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
    if (cap_ == 0) return nullptr;
    uint64_t k = key(a, b);
    size_t mask = cap_ - 1;
    for (size_t i = mix(k) & mask;; i = (i + 1) & mask) {
      if (kp_[i] == k) return &vp_[i];
      if (kp_[i] == kEmpty) return nullptr;
    }
  }
  size_t size() const { return size_; }
  size_t capacity() const { return cap_; }
  const uint64_t* raw_keys() const { return kp_; }
  const Value* raw_values() const { return vp_; }
  // Slot key of a pair (raw_keys() holds these, kEmpty for a free slot).
  static uint64_t key(uint32_t a, uint32_t b) { return (static_cast<uint64_t>(a) << 32) | b; }
  // Changes whenever the slot layout would: the probe sequence (mix) and the Value layout.
  static uint64_t layout_tag() {
    return mix(0x0123456789abcdefull) ^ (mix(key(7, 11)) << 1) ^ (sizeof(Value) << 56) ^ 1;
  }
  // Owned memory only (a view's slots are not counted).
  size_t memory_bytes() const { return keys_.capacity() * 8 + values_.capacity() * 8; }

 private:
  static uint64_t mix(uint64_t k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return k;
  }
  bool owned() const { return kp_ == keys_.data(); }
  void own() {
    keys_.assign(kp_, kp_ + cap_);
    values_.assign(vp_, vp_ + cap_);
    rebind();
  }
  void rebind() {
    kp_ = keys_.data();
    vp_ = values_.data();
    cap_ = keys_.size();
  }
  void rehash(size_t cap) {
    std::vector<uint64_t> ok;
    std::vector<Value> ov;
    ok.swap(keys_);
    ov.swap(values_);
    keys_.assign(cap, kEmpty);
    values_.assign(cap, {});
    size_ = 0;
    rebind();
    for (size_t i = 0; i < ok.size(); ++i) {
      if (ok[i] != kEmpty) insert(static_cast<uint32_t>(ok[i] >> 32), static_cast<uint32_t>(ok[i]), ov[i]);
    }
  }
  std::vector<uint64_t> keys_;
  std::vector<Value> values_;
  // What find() reads: keys_/values_ when owned, the viewed arrays otherwise.
  const uint64_t* kp_ = nullptr;
  const Value* vp_ = nullptr;
  size_t cap_ = 0;
  size_t size_ = 0;
};

}  // namespace servebench::tokenizer
