// First implementation: keeps a text-free copy of each record and calls summarize() at the end.
// The metric table replaces this with compact per-metric columns.
#include "metrics/summary_accumulator.h"

#include <utility>
#include <vector>

namespace servebench::metrics {

struct SummaryAccumulator::State {
  std::vector<record::RequestRecord> records;
};

SummaryAccumulator::SummaryAccumulator(SummaryOptions options)
    : options_(std::move(options)), state_(new State) {}
SummaryAccumulator::~SummaryAccumulator() { delete state_; }
SummaryAccumulator::SummaryAccumulator(SummaryAccumulator&& o) noexcept
    : options_(std::move(o.options_)), state_(std::exchange(o.state_, nullptr)) {}
SummaryAccumulator& SummaryAccumulator::operator=(SummaryAccumulator&& o) noexcept {
  if (this != &o) {
    delete state_;
    options_ = std::move(o.options_);
    state_ = std::exchange(o.state_, nullptr);
  }
  return *this;
}

void SummaryAccumulator::add(const record::RequestRecord& r) {
  record::RequestRecord copy = r;
  copy.output_text.clear();
  copy.output_text.shrink_to_fit();
  copy.reasoning_text.clear();
  copy.reasoning_text.shrink_to_fit();
  copy.input_texts.clear();
  copy.request_body.clear();
  state_->records.push_back(std::move(copy));
}

void SummaryAccumulator::merge(SummaryAccumulator&& other) {
  for (auto& r : other.state_->records) state_->records.push_back(std::move(r));
  other.state_->records.clear();
}

Summary SummaryAccumulator::finish() const {
  std::vector<const record::RequestRecord*> ptrs;
  ptrs.reserve(state_->records.size());
  for (const auto& r : state_->records) ptrs.push_back(&r);
  return summarize(ptrs, options_);
}

size_t SummaryAccumulator::size() const { return state_->records.size(); }

size_t SummaryAccumulator::memory_bytes() const {
  size_t bytes = state_->records.capacity() * sizeof(record::RequestRecord);
  for (const auto& r : state_->records) bytes += r.chunks.capacity() * sizeof(record::Chunk);
  return bytes;
}

}  // namespace servebench::metrics
