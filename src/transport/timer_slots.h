// TimerSlots: the event loop's pending timer callbacks, by id, without an allocation per timer
// (a request's timeout timer is added and cancelled once per request). An id names a slot and
// the slot's generation, so an id stays dead after its timer ran or was cancelled even when the
// slot holds a newer timer. Ids are never 0.
//
// Thread safety: none; the owning loop's thread only.
#pragma once

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace servebench::transport {

class TimerSlots {
 public:
  uint64_t add(std::function<void()> cb) {
    uint32_t slot;
    if (free_.empty()) {
      slot = static_cast<uint32_t>(slots_.size());
      slots_.emplace_back();
    } else {
      slot = free_.back();
      free_.pop_back();
    }
    Slot& s = slots_[slot];
    s.cb = std::move(cb);
    s.live = true;
    return (static_cast<uint64_t>(s.gen) << 32) | slot;
  }

  bool live(uint64_t id) const { return pending(id); }

  // Drops the timer; false when `id` is not pending.
  bool cancel(uint64_t id) {
    if (!pending(id)) return false;
    release(static_cast<uint32_t>(id));
    return true;
  }

  // Removes a pending timer and hands back its callback (empty when `id` is not pending).
  std::function<void()> take(uint64_t id) {
    if (!pending(id)) return {};
    std::function<void()> cb = std::move(slots_[static_cast<uint32_t>(id)].cb);
    release(static_cast<uint32_t>(id));
    return cb;
  }

 private:
  struct Slot {
    std::function<void()> cb;
    uint32_t gen = 1;
    bool live = false;
  };

  bool pending(uint64_t id) const {
    const auto slot = static_cast<uint32_t>(id);
    return slot < slots_.size() && slots_[slot].live && slots_[slot].gen == static_cast<uint32_t>(id >> 32);
  }

  void release(uint32_t slot) {
    Slot& s = slots_[slot];
    s.cb = nullptr;
    s.live = false;
    s.gen = s.gen == UINT32_MAX ? 1 : s.gen + 1;
    free_.push_back(slot);
  }

  std::vector<Slot> slots_;
  std::vector<uint32_t> free_;
};

}  // namespace servebench::transport
