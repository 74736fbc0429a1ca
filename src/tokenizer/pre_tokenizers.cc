#include "tokenizer/pre_tokenizers.h"

namespace servebench::tokenizer {

void apply_split_behavior(const Piece& piece, const std::vector<Segment>& segs,
                          SplitBehavior behavior, std::vector<Piece>* out) {
  auto emit = [&](size_t b, size_t e) {
    if (e > b) out->push_back(Piece{piece.text.substr(b, e - b), piece.at_origin && b == 0});
  };
  switch (behavior) {
    case SplitBehavior::kIsolated:
      for (const auto& s : segs) emit(s.begin, s.end);
      return;
    case SplitBehavior::kRemoved:
      for (const auto& s : segs) {
        if (!s.is_match) emit(s.begin, s.end);
      }
      return;
    case SplitBehavior::kMergedWithPrevious: {
      std::vector<std::pair<size_t, size_t>> acc;
      bool prev_match = false;
      for (const auto& s : segs) {
        if (s.is_match && !prev_match && !acc.empty()) {
          acc.back().second = s.end;
        } else {
          acc.emplace_back(s.begin, s.end);
        }
        prev_match = s.is_match;
      }
      for (auto [b, e] : acc) emit(b, e);
      return;
    }
    case SplitBehavior::kMergedWithNext: {
      std::vector<std::pair<size_t, size_t>> acc;
      bool prev_match = false;
      for (auto it = segs.rbegin(); it != segs.rend(); ++it) {
        if (it->is_match && !prev_match && !acc.empty()) {
          acc.back().first = it->begin;
        } else {
          acc.emplace_back(it->begin, it->end);
        }
        prev_match = it->is_match;
      }
      for (auto it = acc.rbegin(); it != acc.rend(); ++it) emit(it->first, it->second);
      return;
    }
    case SplitBehavior::kContiguous: {
      std::vector<std::pair<size_t, size_t>> acc;
      int prev = -1;
      for (const auto& s : segs) {
        if (prev == static_cast<int>(s.is_match) && !acc.empty()) {
          acc.back().second = s.end;
        } else {
          acc.emplace_back(s.begin, s.end);
        }
        prev = s.is_match;
      }
      for (auto [b, e] : acc) emit(b, e);
      return;
    }
  }
}

namespace {

// Turns match ranges into segments covering [0, n) (HF's Pattern::find_matches).
void matches_to_segments(const std::vector<std::pair<size_t, size_t>>& m, size_t n, bool invert,
                         std::vector<Segment>* segs) {
  segs->clear();
  size_t prev = 0;
  for (auto [s, e] : m) {
    if (prev != s) segs->push_back({prev, s, invert});
    segs->push_back({s, e, !invert});
    prev = e;
  }
  if (prev != n) segs->push_back({prev, n, invert});
}

// The output vector is a per-thread scratch (one per call site: F differs), swapped with the
// input, so steady-state encoding allocates nothing here. Calls never nest for one F.
template <class F>
void split_each(std::vector<Piece>* pieces, F&& f) {
  thread_local std::vector<Piece> out;
  out.clear();
  out.reserve(pieces->size() * 2);
  for (const Piece& p : *pieces) f(p, &out);
  pieces->swap(out);
}

}  // namespace

void SequencePreTokenizer::split(std::vector<Piece>* pieces, Arena* arena) const {
  for (const auto& s : steps_) s->split(pieces, arena);
}

void SplitPreTokenizer::split(std::vector<Piece>* pieces, Arena*) const {
  // Match and segment buffers reused per thread (cleared before each use below).
  thread_local std::vector<std::pair<size_t, size_t>> m;
  thread_local std::vector<Segment> segs;
  split_each(pieces, [&](const Piece& p, std::vector<Piece>* out) {
    m.clear();
    if (regex_) {
      regex_->find_all(p.text, &m);
    } else if (!literal_.empty()) {
      size_t pos = 0;
      while (true) {
        size_t f = p.text.find(literal_, pos);
        if (f == std::string_view::npos) break;
        m.emplace_back(f, f + literal_.size());
        pos = f + literal_.size();
      }
    }
    matches_to_segments(m, p.text.size(), invert_, &segs);
    apply_split_behavior(p, segs, behavior_, out);
  });
}

ByteLevelPreTokenizer::ByteLevelPreTokenizer(bool add_prefix_space, bool use_regex)
    : add_prefix_space_(add_prefix_space) {
  if (use_regex) {
    regex_ = *Regex::compile(
        R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)");
  }
}

void ByteLevelPreTokenizer::split(std::vector<Piece>* pieces, Arena* arena) const {
  // Match and segment buffers reused per thread (cleared before each use below).
  thread_local std::vector<std::pair<size_t, size_t>> m;
  thread_local std::vector<Segment> segs;
  split_each(pieces, [&](const Piece& in, std::vector<Piece>* out) {
    Piece p = in;
    if (add_prefix_space_ && (p.text.empty() || p.text[0] != ' ')) {
      std::string spaced;
      spaced.reserve(p.text.size() + 1);
      spaced.push_back(' ');
      spaced.append(p.text);
      p.text = arena->keep(std::move(spaced));
    }
    if (!regex_) {
      if (!p.text.empty()) out->push_back(p);
      return;
    }
    m.clear();
    regex_->find_all(p.text, &m);
    matches_to_segments(m, p.text.size(), false, &segs);
    apply_split_behavior(p, segs, SplitBehavior::kIsolated, out);
  });
}

void MetaspacePreTokenizer::split(std::vector<Piece>* pieces, Arena* arena) const {
  split_each(pieces, [&](const Piece& in, std::vector<Piece>* out) {
    std::string s;
    s.reserve(in.text.size() + replacement_.size());
    bool prepend = scheme_ == PrependScheme::kAlways || (scheme_ == PrependScheme::kFirst && in.at_origin);
    bool has_space = in.text.find(' ') != std::string_view::npos;
    bool starts = in.text.substr(0, replacement_.size()) == replacement_ ||
                  (!in.text.empty() && in.text[0] == ' ');
    if (prepend && !starts) s += replacement_;
    if (has_space) {
      for (char c : in.text) {
        if (c == ' ') {
          s += replacement_;
        } else {
          s += c;
        }
      }
    } else {
      s.append(in.text);
    }
    Piece p{arena->keep(std::move(s)), in.at_origin};
    if (!split_) {
      if (!p.text.empty()) out->push_back(p);
      return;
    }
    // MergedWithNext on every replacement character.
    size_t start = 0;
    size_t pos = p.text.find(replacement_, replacement_.empty() ? p.text.size() : 1);
    while (pos != std::string_view::npos) {
      if (pos > start) out->push_back(Piece{p.text.substr(start, pos - start), p.at_origin && start == 0});
      start = pos;
      pos = p.text.find(replacement_, pos + replacement_.size());
    }
    if (p.text.size() > start) out->push_back(Piece{p.text.substr(start), p.at_origin && start == 0});
  });
}

CharClassPreTokenizer::CharClassPreTokenizer(CharSplitKind kind, SplitBehavior behavior,
                                             char32_t delimiter)
    : kind_(kind), behavior_(behavior), delimiter_(delimiter) {
  if (kind == CharSplitKind::kWhitespace) regex_ = *Regex::compile(R"(\w+|[^\w\s]+)");
}

void CharClassPreTokenizer::split(std::vector<Piece>* pieces, Arena*) const {
  std::vector<Segment> segs;
  std::vector<std::pair<size_t, size_t>> m;
  auto by_char = [&](const Piece& p, auto&& pred, SplitBehavior behavior, std::vector<Piece>* out) {
    // Each matching character is its own delimiter segment (HF's char-predicate Pattern).
    segs.clear();
    size_t prev = 0;
    for (size_t i = 0; i < p.text.size();) {
      size_t s = i;
      char32_t c = next_code_point(p.text, &i);
      if (pred(c)) {
        if (prev != s) segs.push_back({prev, s, false});
        segs.push_back({s, i, true});
        prev = i;
      }
    }
    if (prev != p.text.size()) segs.push_back({prev, p.text.size(), false});
    apply_split_behavior(p, segs, behavior, out);
  };
  auto ws = [](char32_t c) { return is_rust_whitespace(c); };
  split_each(pieces, [&](const Piece& p, std::vector<Piece>* out) {
    switch (kind_) {
      case CharSplitKind::kWhitespace:
        m.clear();
        regex_->find_all(p.text, &m);
        matches_to_segments(m, p.text.size(), true, &segs);
        apply_split_behavior(p, segs, SplitBehavior::kRemoved, out);
        return;
      case CharSplitKind::kWhitespaceSplit:
        by_char(p, ws, SplitBehavior::kRemoved, out);
        return;
      case CharSplitKind::kBert: {
        std::vector<Piece> tmp;
        by_char(p, ws, SplitBehavior::kRemoved, &tmp);
        for (const Piece& t : tmp) {
          by_char(t, [](char32_t c) { return is_punctuation(c); }, SplitBehavior::kIsolated, out);
        }
        return;
      }
      case CharSplitKind::kPunctuation:
        by_char(p, [](char32_t c) { return is_punctuation(c); }, behavior_, out);
        return;
      case CharSplitKind::kDigits:
        by_char(p, [](char32_t c) { return is_rust_numeric(c); }, SplitBehavior::kContiguous, out);
        return;
      case CharSplitKind::kDigitsIndividual:
        by_char(p, [](char32_t c) { return is_rust_numeric(c); }, SplitBehavior::kIsolated, out);
        return;
      case CharSplitKind::kCharDelimiter:
        by_char(p, [this](char32_t c) { return c == delimiter_; }, SplitBehavior::kRemoved, out);
        return;
    }
  });
}

}  // namespace servebench::tokenizer
