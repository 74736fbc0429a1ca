// PackedRecords: finished records as compact bytes, for the hand-off from the load engine's
// workers to record processing.
//
// A run's records queue up between the two: with the whole process on one core the record
// processor (lowered priority) gets little time during the load, so nearly every record waits in
// the queue until the load ends. Queued as RequestRecord, each took ~970 bytes of fresh memory
// (the 760-byte struct plus its request ids and chunk list on the heap): a page fault per four
// records on the worker, plus a malloc per string. Packed, a record of a short chat stream is
// ~135 bytes in one buffer, and the worker's in-flight record keeps its strings' capacity for the
// next request (reset_record).
//
// Format (private to packed_records.cc; never stored): the fields nearly every record sets, then
// two groups (the usage, and the fields a record seldom sets) each as a bitmask of its fields
// that are away from their usual value followed by those fields only. Integers are LEB128 varints
// of the zigzagged difference from their usual value (0 or -1); timestamps differences from
// request_start_ns, chunk receive times from the previous chunk's; strings and vectors by
// length; doubles as one byte when -1, else nine. One field list (record_fields in the .cc)
// drives packing, unpacking, reset and the bound on a record's packed size that append()
// reserves, and a static_assert on the record's size fails when a field is added without being
// listed there.
//
// Thread safety: a plain value type; one writer or any number of readers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>

#include "record/request_record.h"

namespace servebench::record {

class PackedRecords {
 public:
  PackedRecords() = default;
  PackedRecords(const PackedRecords& other) { *this = other; }
  PackedRecords& operator=(const PackedRecords& other);
  PackedRecords(PackedRecords&& other) noexcept { *this = std::move(other); }
  PackedRecords& operator=(PackedRecords&& other) noexcept;

  // Appends one record.
  void append(const RequestRecord& rec);
  size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  size_t bytes() const { return used_; }
  size_t capacity_bytes() const { return capacity_; }
  void reserve_bytes(size_t n);
  // Drops the records, keeps the buffer.
  void clear() {
    used_ = 0;
    count_ = 0;
  }

  // Reads the records in order, each into a caller's record (whose strings and vectors keep
  // their capacity: every field is overwritten).
  class Reader {
   public:
    explicit Reader(const PackedRecords& packed) : p_(packed.buf_.get()), end_(p_ + packed.used_) {}
    bool next(RequestRecord* out);

   private:
    const uint8_t* p_;
    const uint8_t* end_;
  };

 private:
  uint8_t* room(size_t n);

  // Not zero-filled: a page is first touched when a record is written to it (headroom that is
  // never used costs nothing).
  std::unique_ptr<uint8_t[]> buf_;
  size_t capacity_ = 0;
  size_t used_ = 0;
  size_t count_ = 0;
};

// Resets every field to its default, keeping the capacity of the record's strings and vectors
// (the worker's next request writes into them without allocating).
void reset_record(RequestRecord* rec);

// Frees the buffers of a reused record that grew past `keep_bytes` (its text, body and error
// strings, chunk list and prompt texts), so one huge response is not held for the rest of a run
// by a record that is reused.
inline constexpr size_t kKeptRecordBufferBytes = size_t{64} << 10;
void release_large_buffers(RequestRecord* rec, size_t keep_bytes = kKeptRecordBufferBytes);

}  // namespace servebench::record
