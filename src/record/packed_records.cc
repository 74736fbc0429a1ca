#include "record/packed_records.h"

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>

namespace servebench::record {

// A field added to one of these must be added to record_fields (and usage_fields, or
// chunk_fields) below, and to the round-trip test's fully set record; then update the size here.
static_assert(sizeof(RequestRecord) == 760,
              "RequestRecord changed: list the field in record_fields");
static_assert(sizeof(Usage) == 136, "Usage changed: list the field in usage_fields");
static_assert(sizeof(Chunk) == 24, "Chunk changed: list the field in chunk_fields");

namespace {

uint64_t zigzag(int64_t v) {
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}
int64_t unzigzag(uint64_t u) { return static_cast<int64_t>(u >> 1) ^ -static_cast<int64_t>(u & 1); }
// v − base without signed overflow.
int64_t diff(int64_t v, int64_t base) {
  return static_cast<int64_t>(static_cast<uint64_t>(v) - static_cast<uint64_t>(base));
}
int64_t add(int64_t d, int64_t base) {
  return static_cast<int64_t>(static_cast<uint64_t>(d) + static_cast<uint64_t>(base));
}
const uint64_t kMinusOneBits = std::bit_cast<uint64_t>(-1.0);

// The lists inside a record, as the archives below write, read or size them: a length (the
// archive's length()), then each element's fields. Chunk receive times are differences from the
// previous chunk's time that is not 0.
template <class A, class C>
constexpr void chunk_fields(A& a, C& c, int64_t base) {
  a.t(c.recv_ns, base);
  a.u32(c.text_offset);
  a.u32(c.text_bytes);
  a.e(c.kind, ChunkKind::kEmpty);
  a.i(c.tokens, -1);
}

template <class A, class V>
void chunk_list(A& a, V& v, int64_t base) {
  a.length(v);
  for (auto& c : v) {
    chunk_fields(a, c, base);
    if (c.recv_ns != 0) base = c.recv_ns;
  }
}

template <class A, class V>
void text_list(A& a, V& v) {
  a.length(v);
  for (auto& x : v) a.s(x);
}

// A timestamp is its zigzagged difference from `base`, with two codes swapped so that 0 ("did not
// happen", common) is one byte: the code of the time 0 and the code 0 (the time `base`). The
// swap is its own inverse, so it maps codes to times and times to codes.
uint64_t time_code(uint64_t code, int64_t base) {
  const uint64_t zero_time = zigzag(diff(0, base));
  if (code == 0) return zero_time;
  if (code == zero_time) return 0;
  return code;
}

// Sets every field to its default, keeping containers' capacity.
struct Reset {
  void u(uint64_t& v) { v = 0; }
  template <class T>
  void i(T& v, int64_t usual) { v = static_cast<T>(usual); }
  void t(int64_t& v, int64_t) { v = 0; }
  template <class E>
  void e(E& v, E usual) { v = usual; }
  void b(bool& v) { v = false; }
  void d(double& v) { v = -1; }
  void s(std::string& v) { v.clear(); }
  void same_or(std::string& v, const std::string&) { v.clear(); }
  void texts(std::vector<std::string>& v) { v.clear(); }
  void chunks(std::vector<Chunk>& v, int64_t) { v.clear(); }
  template <class F>
  void group(F&& fields) { fields(*this); }
};

// A group's bitmask: bit k set when the group's k-th field is away from its usual value (the
// value Reset gives it). At most 64 fields per group.
struct Mask {
  uint64_t bits = 0;
  int k = 0;
  void bit(bool on) { bits |= static_cast<uint64_t>(on) << k++; }
  void u(const uint64_t& v) { bit(v != 0); }
  template <class T>
  void i(const T& v, int64_t usual) { bit(static_cast<int64_t>(v) != usual); }
  void t(const int64_t& v, int64_t) { bit(v != 0); }
  template <class E>
  void e(const E& v, E usual) { bit(v != usual); }
  void b(const bool& v) { bit(v); }
  void d(const double& v) { bit(std::bit_cast<uint64_t>(v) != kMinusOneBits); }
  void s(const std::string& v) { bit(!v.empty()); }
  void texts(const std::vector<std::string>& v) { bit(!v.empty()); }
  void chunks(const std::vector<Chunk>& v, int64_t) { bit(!v.empty()); }
};

// Does nothing with a field (a group's unset fields on the way out).
struct Skip {
  template <class... A> void u(A&&...) {}
  template <class... A> void i(A&&...) {}
  template <class... A> void t(A&&...) {}
  template <class... A> void e(A&&...) {}
  template <class... A> void b(A&&...) {}
  template <class... A> void d(A&&...) {}
  template <class... A> void s(A&&...) {}
  template <class... A> void texts(A&&...) {}
  template <class... A> void chunks(A&&...) {}
};

// Visits a group's fields with `set` where the mask has the field's bit, else with `unset`.
template <class Set, class Unset>
struct Masked {
  Set& set;
  Unset unset;
  uint64_t bits;
  bool next() {
    const bool on = (bits & 1) != 0;
    bits >>= 1;
    return on;
  }
  template <class... A> void u(A&&... a) { next() ? set.u(a...) : unset.u(a...); }
  template <class... A> void i(A&&... a) { next() ? set.i(a...) : unset.i(a...); }
  template <class... A> void t(A&&... a) { next() ? set.t(a...) : unset.t(a...); }
  template <class... A> void e(A&&... a) { next() ? set.e(a...) : unset.e(a...); }
  template <class... A> void b(A&&... a) { next() ? set.b(a...) : unset.b(a...); }
  template <class... A> void d(A&&... a) { next() ? set.d(a...) : unset.d(a...); }
  template <class... A> void s(A&&... a) { next() ? set.s(a...) : unset.s(a...); }
  template <class... A> void texts(A&&... a) { next() ? set.texts(a...) : unset.texts(a...); }
  template <class... A> void chunks(A&&... a) { next() ? set.chunks(a...) : unset.chunks(a...); }
};

// Writes the fields (the archive's methods take const references).
struct Out {
  uint8_t* p;
  void u(uint64_t v) {
    while (v >= 0x80) {
      *p++ = static_cast<uint8_t>(v | 0x80);
      v >>= 7;
    }
    *p++ = static_cast<uint8_t>(v);
  }
  template <class T>
  void i(const T& v, int64_t usual) { u(zigzag(diff(static_cast<int64_t>(v), usual))); }
  void t(const int64_t& v, int64_t base) { u(time_code(zigzag(diff(v, base)), base)); }
  template <class E>
  void e(const E& v, E) { *p++ = static_cast<uint8_t>(v); }
  void b(const bool& v) { *p++ = v ? 1 : 0; }
  void d(const double& v) {
    const uint64_t bits = std::bit_cast<uint64_t>(v);
    if (bits == kMinusOneBits) {
      *p++ = 0;
      return;
    }
    *p++ = 1;
    std::memcpy(p, &bits, sizeof bits);
    p += sizeof bits;
  }
  void s(const std::string& v) {
    u(v.size());
    bytes(v.data(), v.size());
  }
  void bytes(const char* src, size_t n) {
    if (n == 0) return;  // most of a record's strings are empty
    std::memcpy(p, src, n);
    p += n;
  }
  // A string that usually equals `other` (a single turn's correlation id is its request id).
  void same_or(const std::string& v, const std::string& other) {
    if (v == other) return u(0);
    u(v.size() + 1);
    bytes(v.data(), v.size());
  }
  void u32(const uint32_t& v) { u(v); }
  template <class V>
  void length(const V& v) { u(v.size()); }
  void texts(const std::vector<std::string>& v) { text_list(*this, v); }
  // A group: its mask, then its set fields.
  template <class F>
  void group(F&& fields) {
    Mask m;
    fields(m);
    if (m.k > 64) std::abort();  // a group has at most 64 fields
    u(m.bits);
    Masked<Out, Skip> set_only{*this, Skip{}, m.bits};
    fields(set_only);
  }
  void chunks(const std::vector<Chunk>& v, int64_t base) { chunk_list(*this, v, base); }
};

// Reads the fields back in the same order.
struct In {
  const uint8_t* p;
  uint64_t u() {
    uint64_t v = *p++;
    if (v < 0x80) return v;
    v &= 0x7f;
    for (int shift = 7;; shift += 7) {
      const uint64_t byte = *p++;
      v |= (byte & 0x7f) << shift;
      if (byte < 0x80) return v;
    }
  }
  void u(uint64_t& v) { v = u(); }
  template <class T>
  void i(T& v, int64_t usual) { v = static_cast<T>(add(unzigzag(u()), usual)); }
  void t(int64_t& v, int64_t base) { v = add(unzigzag(time_code(u(), base)), base); }
  template <class E>
  void e(E& v, E) { v = static_cast<E>(*p++); }
  void b(bool& v) { v = *p++ != 0; }
  void d(double& v) {
    if (*p++ == 0) {
      v = -1;
      return;
    }
    uint64_t bits;
    std::memcpy(&bits, p, sizeof bits);
    p += sizeof bits;
    v = std::bit_cast<double>(bits);
  }
  void s(std::string& v) { text(v, u()); }
  void text(std::string& v, size_t n) {
    if (n == 0) return v.clear();  // most of a record's strings are empty
    v.assign(reinterpret_cast<const char*>(p), n);
    p += n;
  }
  void same_or(std::string& v, const std::string& other) {
    const size_t n = u();
    if (n == 0) {
      v = other;
      return;
    }
    text(v, n - 1);
  }
  void u32(uint32_t& v) { v = static_cast<uint32_t>(u()); }
  template <class V>
  void length(V& v) { v.resize(u()); }
  void texts(std::vector<std::string>& v) { text_list(*this, v); }
  // A group: its mask, then its set fields; the others get their usual value.
  template <class F>
  void group(F&& fields) {
    Masked<In, Reset> read_or_reset{*this, Reset{}, u()};
    fields(read_or_reset);
  }
  void chunks(std::vector<Chunk>& v, int64_t base) { chunk_list(*this, v, base); }
};

// An upper bound of the bytes Out writes: 10 per varint (lengths and masks included), 9 per
// double, 1 per enum or bool, and every string's bytes; a group's fields as if all were set.
struct Bound {
  size_t n = 0;
  constexpr void u(const uint64_t&) { n += 10; }
  constexpr void u32(const uint32_t&) { n += 10; }
  template <class T>
  constexpr void i(const T&, int64_t) { n += 10; }
  constexpr void t(const int64_t&, int64_t) { n += 10; }
  template <class E>
  constexpr void e(const E&, E) { n += 1; }
  constexpr void b(const bool&) { n += 1; }
  constexpr void d(const double&) { n += 9; }
  void s(const std::string& v) { n += 10 + v.size(); }
  void same_or(const std::string& v, const std::string&) { s(v); }
  template <class V>
  constexpr void length(const V&) { n += 10; }
  void texts(const std::vector<std::string>& v) { text_list(*this, v); }
  // Every chunk has the same bound: a multiplication, not a loop over a long stream's chunks.
  static constexpr size_t chunk_bytes() {
    Bound b;
    Chunk c;
    chunk_fields(b, c, 0);
    return b.n;
  }
  void chunks(const std::vector<Chunk>& v, int64_t) {
    constexpr size_t kChunk = chunk_bytes();
    n += 10 + v.size() * kChunk;
  }
  template <class F>
  void group(F&& fields) {
    n += 10;
    fields(*this);
  }
};


template <class A, class U>
void usage_fields(A& a, U& u) {
  a.i(u.spec_draft_tokens, -1);
  a.i(u.spec_accepted_tokens, -1);
  a.i(u.spec_steps, -1);
  a.i(u.prompt_tokens, -1);
  a.i(u.completion_tokens, -1);
  a.i(u.total_tokens, -1);
  a.i(u.reasoning_tokens, -1);
  a.i(u.prompt_cache_read_tokens, -1);
  a.i(u.prompt_cache_write_tokens, -1);
  a.i(u.prompt_cache_miss_tokens, -1);
  a.i(u.prompt_audio_tokens, -1);
  a.i(u.completion_audio_tokens, -1);
  a.i(u.accepted_prediction_tokens, -1);
  a.i(u.rejected_prediction_tokens, -1);
  a.i(u.tool_use_prompt_tokens, -1);
  a.d(u.prompt_audio_seconds);
  a.i(u.first_content_chunk_tokens, -1);
}

// The fields a record seldom sets (a field group: a bitmask of those that are set, then those).
template <class A, class R>
void rare_fields(A& a, R& r, int64_t base) {
  a.s(r.conversation_id);
  a.i(r.session_num, 0);
  a.i(r.turn_index, 0);
  a.i(r.worker_id, 0);
  a.i(r.url_index, 0);
  a.e(r.phase, Phase::kProfiling);
  a.i(r.phase_index, 0);
  a.i(r.processor_slot, 0);
  a.t(r.cancel_ns, base);
  a.t(r.conn_start_ns, base);
  a.t(r.dns_done_ns, base);
  a.t(r.connected_ns, base);
  a.t(r.tls_done_ns, base);
  a.e(r.cancel_reason, CancelReason::kNone);
  a.s(r.reasoning_text);
  a.i(r.output_items, -1);
  a.d(r.video_inference_s);
  a.d(r.video_peak_memory_mb);
  a.e(r.error, ErrorKind::kNone);
  a.s(r.error_message);
  a.i(r.input_images, -1);
  a.i(r.prefix_hit_blocks, -1);
  a.i(r.prefix_total_blocks, -1);
  a.texts(r.input_texts);
  a.texts(r.input_roles);
  a.s(r.request_body);
  a.i(r.output_tokens, -1);
  a.i(r.reasoning_tokens, -1);
}

// Every field of the record with its usual value: those nearly every record sets, then the
// usage and the rare fields as groups.
template <class A, class R>
void record_fields(A& a, R& r) {
  a.u(r.request_index);
  a.s(r.x_request_id);
  a.same_or(r.x_correlation_id, r.x_request_id);
  a.s(r.model);
  a.i(r.request_start_ns, 0);
  const int64_t base = r.request_start_ns;  // read back by now on the way in
  a.t(r.intended_ns, base);
  a.t(r.credit_issued_ns, base);
  a.t(r.request_sent_ns, base);
  a.t(r.first_byte_ns, base);
  a.t(r.end_ns, base);
  a.t(r.response_complete_ns, base);
  a.i(r.response_reads, 0);
  a.i(r.request_writes, 0);
  a.i(r.http_status, 0);
  a.b(r.streaming);
  a.chunks(r.chunks, base);
  a.s(r.output_text);
  a.s(r.finish_reason);
  a.i(r.request_bytes, 0);
  a.i(r.response_bytes, 0);
  a.b(r.connection_reused);
  a.i(r.input_tokens, -1);
  a.i(r.requested_output_tokens, -1);
  a.i(r.payload_index, -1);
  a.group([&r](auto& g) { usage_fields(g, r.usage); });
  a.group([&r, base](auto& g) { rare_fields(g, r, base); });
}

size_t bound(const RequestRecord& r) {
  Bound b;
  record_fields(b, r);
  return b.n;
}

}  // namespace

PackedRecords& PackedRecords::operator=(const PackedRecords& other) {
  if (this == &other) return *this;
  clear();
  reserve_bytes(other.used_);
  if (other.used_ > 0) std::memcpy(buf_.get(), other.buf_.get(), other.used_);
  used_ = other.used_;
  count_ = other.count_;
  return *this;
}

PackedRecords& PackedRecords::operator=(PackedRecords&& other) noexcept {
  if (this == &other) return *this;
  buf_ = std::move(other.buf_);
  capacity_ = std::exchange(other.capacity_, 0);
  used_ = std::exchange(other.used_, 0);
  count_ = std::exchange(other.count_, 0);
  return *this;
}

void PackedRecords::reserve_bytes(size_t n) {
  if (capacity_ >= n) return;
  std::unique_ptr<uint8_t[]> bigger(new uint8_t[n]);  // default-initialized: not touched
  if (used_ > 0) std::memcpy(bigger.get(), buf_.get(), used_);
  buf_ = std::move(bigger);
  capacity_ = n;
}

uint8_t* PackedRecords::room(size_t n) {
  if (capacity_ - used_ < n) reserve_bytes(std::max(capacity_ * 2, used_ + n));
  return buf_.get() + used_;
}

void PackedRecords::append(const RequestRecord& rec) {
  Out out{room(bound(rec))};
  uint8_t* const start = out.p;
  record_fields(out, rec);
  used_ += static_cast<size_t>(out.p - start);
  ++count_;
}

bool PackedRecords::Reader::next(RequestRecord* rec) {
  if (p_ >= end_) return false;
  In in{p_};
  record_fields(in, *rec);
  p_ = in.p;
  return true;
}

void reset_record(RequestRecord* rec) {
  Reset reset;
  record_fields(reset, *rec);
}

void release_large_buffers(RequestRecord* rec, size_t keep_bytes) {
  const auto release = [keep_bytes](auto* v, size_t element_bytes) {
    using Buffer = std::remove_reference_t<decltype(*v)>;
    if (v->capacity() * element_bytes > keep_bytes) Buffer().swap(*v);
  };
  release(&rec->output_text, 1);
  release(&rec->reasoning_text, 1);
  release(&rec->request_body, 1);
  release(&rec->error_message, 1);
  release(&rec->chunks, sizeof(Chunk));
  size_t text_bytes = 0;
  for (const auto& t : rec->input_texts) text_bytes += t.capacity();
  if (text_bytes > keep_bytes) std::vector<std::string>().swap(rec->input_texts);
}

}  // namespace servebench::record
