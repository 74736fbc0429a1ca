#include "tokenizer/bpe_merge.h"

#include <algorithm>
#include <atomic>
#include <functional>

namespace servebench::tokenizer {
namespace {

std::atomic<MergeQueue> g_queue{MergeQueue::kAuto};
std::atomic<bool> g_split{true};

constexpr TokenId kNoPair = ~TokenId{0};
// Scratch buffers above this many elements are released after the word instead of being kept
// for the thread's next word: one huge word must not pin hundreds of MB per thread.
constexpr size_t kKeepScratch = size_t{1} << 16;

template <class T>
void release_if_large(std::vector<T>* v) {
  if (v->capacity() > kKeepScratch) std::vector<T>().swap(*v);
}

// A queued merge: the pair starting at symbol `pos` merges into `id`.
struct Entry {
  int32_t pos;
  TokenId id;
};

void heap_merge(const PairMap& merges, uint32_t max_rank, std::vector<BpeSymbol>& syms) {
  struct Merge {
    uint32_t rank;
    int32_t pos;
    TokenId id;
    bool operator<(const Merge& o) const {  // max-heap: lowest rank, then leftmost, on top
      return rank != o.rank ? rank > o.rank : pos > o.pos;
    }
  };
  thread_local std::vector<Merge> heap;
  heap.clear();
  for (size_t i = 0; i + 1 < syms.size(); ++i) {
    if (const auto* v = merges.find(syms[i].id, syms[i + 1].id); v && v->rank < max_rank) {
      heap.push_back({v->rank, static_cast<int32_t>(i), v->id});
    }
  }
  std::make_heap(heap.begin(), heap.end());
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end());
    Merge top = heap.back();
    heap.pop_back();
    BpeSymbol& cur = syms[top.pos];
    if (cur.len == 0 || cur.next < 0) continue;
    BpeSymbol right = syms[cur.next];
    const auto* v = merges.find(cur.id, right.id);
    if (!v || v->id != top.id) continue;  // stale entry
    cur.id = top.id;
    cur.len += right.len;
    syms[cur.next].len = 0;
    cur.next = right.next;
    if (right.next >= 0) syms[right.next].prev = top.pos;
    if (cur.prev >= 0) {
      if (const auto* pv = merges.find(syms[cur.prev].id, cur.id); pv && pv->rank < max_rank) {
        heap.push_back({pv->rank, cur.prev, pv->id});
        std::push_heap(heap.begin(), heap.end());
      }
    }
    if (cur.next >= 0) {
      if (const auto* nv = merges.find(cur.id, syms[cur.next].id); nv && nv->rank < max_rank) {
        heap.push_back({nv->rank, top.pos, nv->id});
        std::push_heap(heap.begin(), heap.end());
      }
    }
  }
  release_if_large(&heap);
}

// Entries of one rank, popped leftmost first. Entries mostly arrive in increasing position
// (see the header) and go to `run`; an entry left of the run's last one goes to `late`, a
// min-heap, so no input pattern makes a pop cost more than a heap operation.
struct Bucket {
  std::vector<Entry> run;
  size_t head = 0;
  std::vector<Entry> late;
  bool live = false;  // listed in RankQueue::ranks_

  bool empty() const { return head == run.size() && late.empty(); }
  static bool later(const Entry& a, const Entry& b) { return a.pos > b.pos; }
  void push(Entry e) {
    if (head == run.size() || e.pos >= run.back().pos) {
      run.push_back(e);
    } else {
      late.push_back(e);
      std::push_heap(late.begin(), late.end(), later);
    }
  }
  Entry pop() {
    if (late.empty() || (head < run.size() && run[head].pos <= late.front().pos)) {
      return run[head++];
    }
    std::pop_heap(late.begin(), late.end(), later);
    Entry e = late.back();
    late.pop_back();
    return e;
  }
  void clear() {
    run.clear();
    late.clear();
    head = 0;
    live = false;
    release_if_large(&run);
    release_if_large(&late);
  }
};

// The entries of all ranks: pop() returns the lowest rank's leftmost entry, as the heap would.
class RankQueue {
 public:
  void push(uint32_t rank, Entry e) {
    if (rank >= bucket_of_rank_.size()) bucket_of_rank_.resize(static_cast<size_t>(rank) + 1, -1);
    int32_t& index = bucket_of_rank_[rank];
    if (index < 0) {
      index = static_cast<int32_t>(used_.size());
      used_.push_back(rank);
      if (buckets_.size() < used_.size()) buckets_.emplace_back();
    }
    Bucket& b = buckets_[static_cast<size_t>(index)];
    ++pushed_;
    if (!b.live) {
      b.live = true;
      ranks_.push_back(rank);
      std::push_heap(ranks_.begin(), ranks_.end(), std::greater<>());
    }
    b.push(e);
  }
  bool pop(Entry* e) {
    while (!ranks_.empty()) {
      Bucket& b = buckets_[static_cast<size_t>(bucket_of_rank_[ranks_.front()])];
      if (!b.empty()) {
        *e = b.pop();
        return true;
      }
      b.clear();
      std::pop_heap(ranks_.begin(), ranks_.end(), std::greater<>());
      ranks_.pop_back();
    }
    return false;
  }
  // Forgets every rank used by this word (the queue is empty after pop() returned false).
  void reset() {
    for (uint32_t r : used_) bucket_of_rank_[r] = -1;
    used_.clear();
    ranks_.clear();
    // The pool keeps its buckets' capacity for the next word, unless this word was large.
    if (pushed_ > kKeepScratch) std::vector<Bucket>().swap(buckets_);
    pushed_ = 0;
  }

 private:
  std::vector<int32_t> bucket_of_rank_;  // rank -> index into buckets_, -1 when unused
  std::vector<uint32_t> used_;           // ranks given a bucket for this word, in bucket order
  std::vector<Bucket> buckets_;          // pool, reused across words
  std::vector<uint32_t> ranks_;          // min-heap of the ranks whose bucket is live
  size_t pushed_ = 0;                    // entries pushed for this word
};

void bucket_merge(const PairMap& merges, uint32_t max_rank, std::vector<BpeSymbol>& syms) {
  thread_local RankQueue queue;
  // pair_id[i]: the id the pair starting at symbol i merges into (kNoPair: none), kept current
  // so that checking a popped entry needs no lookup.
  thread_local std::vector<TokenId> pair_id;
  pair_id.assign(syms.size(), kNoPair);
  auto refresh = [&](int32_t i) {
    const BpeSymbol& s = syms[static_cast<size_t>(i)];
    const PairMap::Value* v =
        s.next >= 0 ? merges.find(s.id, syms[static_cast<size_t>(s.next)].id) : nullptr;
    pair_id[static_cast<size_t>(i)] = v ? v->id : kNoPair;
    if (v && v->rank < max_rank) queue.push(v->rank, {i, v->id});
  };
  for (size_t i = 0; i + 1 < syms.size(); ++i) refresh(static_cast<int32_t>(i));
  Entry top;
  while (queue.pop(&top)) {
    BpeSymbol& cur = syms[static_cast<size_t>(top.pos)];
    if (cur.len == 0 || cur.next < 0 || pair_id[static_cast<size_t>(top.pos)] != top.id) continue;
    BpeSymbol& right = syms[static_cast<size_t>(cur.next)];
    cur.id = top.id;
    cur.len += right.len;
    right.len = 0;
    cur.next = right.next;
    if (cur.next >= 0) syms[static_cast<size_t>(cur.next)].prev = top.pos;
    if (cur.prev >= 0) refresh(cur.prev);
    refresh(top.pos);
  }
  queue.reset();
  release_if_large(&pair_id);
}

}  // namespace

void merge_symbols(const PairMap& merges, uint32_t max_rank, std::vector<BpeSymbol>* syms) {
  if (syms->size() < 2) return;
  MergeQueue q = g_queue.load(std::memory_order_relaxed);  // kAuto unless a test forces one
  if (q == MergeQueue::kAuto) {
    q = syms->size() >= kRankBucketMinSymbols ? MergeQueue::kRankBuckets : MergeQueue::kHeap;
  }
  if (q == MergeQueue::kHeap) {
    heap_merge(merges, max_rank, *syms);
  } else {
    bucket_merge(merges, max_rank, *syms);
  }
}

void TokenBigrams::add_token(std::string_view token) {
  for (size_t i = 1; i < token.size(); ++i) {
    const unsigned b = static_cast<unsigned>(static_cast<unsigned char>(token[i - 1])) << 8 |
                       static_cast<unsigned char>(token[i]);
    bits_[b >> 6] |= uint64_t{1} << (b & 63);
  }
}

void set_long_word_options(const LongWordOptions& options) {
  g_queue.store(options.queue, std::memory_order_relaxed);
  g_split.store(options.split_at_safe_boundaries, std::memory_order_relaxed);
}

LongWordOptions long_word_options() {
  return {g_queue.load(std::memory_order_relaxed), g_split.load(std::memory_order_relaxed)};
}

}  // namespace servebench::tokenizer
