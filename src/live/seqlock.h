// SeqlockCell<T>: one writer publishes a small trivially copyable struct; any number of readers
// take consistent copies without ever blocking the writer. The value is stored as relaxed
// 64-bit atomic words, so a reader that races with a write reads stale-or-new words (never a
// torn word, no data race in the C++ sense) and retries when the sequence number moved.
//
// Thread safety: store() from one thread at a time; load() from any thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace servebench::live {

template <typename T>
class SeqlockCell {
  static_assert(std::is_trivially_copyable_v<T>, "SeqlockCell needs a trivially copyable type");
  static constexpr size_t kWords = (sizeof(T) + 7) / 8;

 public:
  SeqlockCell() { store(T{}); }

  void store(const T& value) {
    uint64_t words[kWords] = {};
    std::memcpy(words, &value, sizeof(T));
    const uint64_t s = seq_.load(std::memory_order_relaxed);
    seq_.store(s + 1, std::memory_order_relaxed);  // odd: a write is in progress
    std::atomic_thread_fence(std::memory_order_release);
    for (size_t i = 0; i < kWords; ++i) words_[i].store(words[i], std::memory_order_relaxed);
    seq_.store(s + 2, std::memory_order_release);
  }

  T load() const {
    uint64_t words[kWords];
    for (;;) {
      const uint64_t before = seq_.load(std::memory_order_acquire);
      if (before & 1) continue;
      for (size_t i = 0; i < kWords; ++i) words[i] = words_[i].load(std::memory_order_relaxed);
      std::atomic_thread_fence(std::memory_order_acquire);
      if (seq_.load(std::memory_order_relaxed) == before) break;
    }
    T out;
    std::memcpy(&out, words, sizeof(T));
    return out;
  }

 private:
  std::atomic<uint64_t> seq_{0};
  std::atomic<uint64_t> words_[kWords];
};

}  // namespace servebench::live
