#include "dataset/sequence_distribution.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>

#include "core/units.h"
#include "dataset/synthetic_prompts.h"

namespace servebench::dataset {
namespace {

constexpr std::string_view kFlag = "--sequence-distribution";
constexpr std::string_view kExpected =
    "expected 'ISL[|STDDEV],OSL[|STDDEV]:PERCENT;...' such as '256,128:40;512,256:60', the bracket "
    "form "
    "'[(256,128):40,(512,256):60]' or JSON '{\"pairs\": [{\"isl\": 256, \"osl\": 128, \"prob\": "
    "40}, ...]}'";

// The spec as shown in an error: one line, bounded.
std::string shown(std::string_view spec) {
  std::string s;
  for (char c : spec.substr(0, 160)) s.push_back(static_cast<unsigned char>(c) < 0x20 ? ' ' : c);
  if (spec.size() > 160) s += "...";
  return s;
}

// A cursor over the text forms. Numbers follow AIPerf's grammar: lengths are digits only,
// stddevs and probabilities are digits with an optional fraction, or a fraction alone (".5").
struct Cursor {
  std::string_view s;
  size_t i = 0;

  void skip_ws() {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  }
  bool at_end() {
    skip_ws();
    return i == s.size();
  }
  bool eat(char c) {
    skip_ws();
    if (i < s.size() && s[i] == c) {
      ++i;
      return true;
    }
    return false;
  }
  size_t digits() {
    const size_t from = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    return i - from;
  }
  std::optional<int64_t> uint() {
    skip_ws();
    const size_t from = i;
    if (digits() == 0) return std::nullopt;
    int64_t v = 0;
    auto r = std::from_chars(s.data() + from, s.data() + i, v);
    if (r.ec != std::errc()) return std::nullopt;
    return v;
  }
  std::optional<double> number() {
    skip_ws();
    const size_t from = i;
    const size_t whole = digits();
    if (i < s.size() && s[i] == '.') {
      ++i;
      if (digits() == 0) return std::nullopt;
    } else if (whole == 0) {
      return std::nullopt;
    }
    double v = 0;
    auto r = std::from_chars(s.data() + from, s.data() + i, v, std::chars_format::fixed);
    if (r.ec != std::errc()) return std::nullopt;
    return v;
  }
};

// "ISL[|STD],OSL[|STD]" into bin; false on a syntax error.
bool parse_lengths(Cursor& c, SequenceBin* bin) {
  auto isl = c.uint();
  if (!isl) return false;
  bin->isl_mean = static_cast<double>(*isl);
  if (c.eat('|')) {
    auto sd = c.number();
    if (!sd) return false;
    bin->isl_stddev = *sd;
  }
  if (!c.eat(',')) return false;
  auto osl = c.uint();
  if (!osl) return false;
  bin->osl_mean = static_cast<double>(*osl);
  if (c.eat('|')) {
    auto sd = c.number();
    if (!sd) return false;
    bin->osl_stddev = *sd;
  }
  return true;
}

bool parse_probability(Cursor& c, SequenceBin* bin) {
  if (!c.eat(':')) return false;
  auto p = c.number();
  if (!p) return false;
  bin->prob_pct = *p;
  return true;
}

Result<std::vector<SequenceBin>> parse_semicolon(std::string_view spec, const auto& fail) {
  std::vector<SequenceBin> bins;
  size_t from = 0;
  while (from <= spec.size()) {
    size_t to = spec.find(';', from);
    if (to == std::string_view::npos) to = spec.size();
    std::string_view item = core::trim(spec.substr(from, to - from));
    from = to + 1;
    if (item.empty()) continue;
    Cursor c{item};
    SequenceBin bin;
    if (!parse_lengths(c, &bin) || !parse_probability(c, &bin) || !c.at_end())
      return fail(fmt::format("cannot read pair '{}'", shown(item)));
    bins.push_back(bin);
  }
  return bins;
}

Result<std::vector<SequenceBin>> parse_bracket(std::string_view inner, const auto& fail) {
  std::vector<SequenceBin> bins;
  Cursor c{inner};
  while (!c.at_end()) {
    const size_t item_start = c.i;
    SequenceBin bin;
    if (!c.eat('(') || !parse_lengths(c, &bin) || !c.eat(')') || !parse_probability(c, &bin)) {
      const size_t close = inner.find(')', item_start);
      const size_t len =
          close == std::string_view::npos ? std::string_view::npos : close + 1 - item_start;
      return fail(fmt::format("cannot read item '{}' of the bracket form",
                              shown(core::trim(inner.substr(item_start, len)))));
    }
    bins.push_back(bin);
    if (c.at_end()) break;
    if (!c.eat(',') && !c.eat(';'))
      return fail(fmt::format("unexpected '{}' after item {} of the bracket form",
                              shown(inner.substr(c.i, 20)), bins.size()));
  }
  return bins;
}

// A JSON value as a number: a JSON number, or a string holding one (Python's int()/float()
// accept both).
std::optional<double> json_number(const nlohmann::json& v) {
  if (v.is_number()) return v.get<double>();
  if (v.is_string()) {
    Cursor c{v.get_ref<const std::string&>()};
    auto n = c.number();
    if (n && c.at_end()) return n;
  }
  return std::nullopt;
}

Result<std::vector<SequenceBin>> parse_json(std::string_view spec, const auto& fail) {
  nlohmann::json doc =
      nlohmann::json::parse(spec.begin(), spec.end(), nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return fail("is not valid JSON");
  if (!doc.is_object() || !doc.contains("pairs") || !doc["pairs"].is_array())
    return fail("the JSON form needs a \"pairs\" array");
  std::vector<SequenceBin> bins;
  size_t index = 0;
  for (const auto& pair : doc["pairs"]) {
    ++index;
    if (!pair.is_object()) return fail(fmt::format("JSON pair {} is not an object", index));
    SequenceBin bin;
    struct Field {
      const char* key;
      double* out;
      bool required;
      bool integer;
    };
    const Field fields[] = {{"isl", &bin.isl_mean, true, true},
                            {"osl", &bin.osl_mean, true, true},
                            {"prob", &bin.prob_pct, true, false},
                            {"isl_stddev", &bin.isl_stddev, false, false},
                            {"osl_stddev", &bin.osl_stddev, false, false}};
    for (const Field& f : fields) {
      auto it = pair.find(f.key);
      if (it == pair.end()) {
        if (f.required) return fail(fmt::format("JSON pair {} has no \"{}\"", index, f.key));
        continue;
      }
      auto n = json_number(*it);
      if (!n || !std::isfinite(*n))
        return fail(fmt::format("JSON pair {}: \"{}\" is not a number", index, f.key));
      *f.out = f.integer ? std::trunc(*n) : *n;
    }
    bins.push_back(bin);
  }
  return bins;
}

// A number the parser reads back exactly: the shortest round-trip form, or, where that would
// be exponent notation (tiny stddevs or probabilities), plain decimal with enough digits.
std::string plain_number(double v) {
  std::string s = fmt::format("{}", v);
  if (s.find_first_of("eE") == std::string::npos) return s;
  const int digits = 17 + std::max(0, -static_cast<int>(std::floor(std::log10(std::fabs(v)))));
  s = fmt::format("{:.{}f}", v, digits);
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

std::string format_bin(const SequenceBin& b) {
  // Printed as doubles: a mean beyond int64 must not overflow a conversion here.
  std::string s = fmt::format("{:.0f}", b.isl_mean);
  if (b.isl_stddev > 0) s += "|" + plain_number(b.isl_stddev);
  s += fmt::format(",{:.0f}", b.osl_mean);
  if (b.osl_stddev > 0) s += "|" + plain_number(b.osl_stddev);
  return s;
}

}  // namespace

SequenceDistribution::SequenceDistribution(std::vector<SequenceBin> bins) : bins_(std::move(bins)) {
  double total = 0;
  for (const auto& b : bins_) total += b.prob_pct;
  double running = 0;
  cumulative_.reserve(bins_.size());
  for (const auto& b : bins_) {
    running += b.prob_pct;
    cumulative_.push_back(running / total);
  }
}

Result<SequenceDistribution> SequenceDistribution::parse(std::string_view spec_in) {
  const std::string_view spec = core::trim(spec_in);
  // Syntax errors show the accepted forms; value errors say what to change.
  auto fail = [&](const std::string& what) {
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("{} '{}': {}; {}", kFlag, shown(spec), what, kExpected));
  };
  auto fail_value = [&](const std::string& what) {
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("{} '{}': {}", kFlag, shown(spec), what));
  };
  if (spec.empty()) return fail("is empty");

  Result<std::vector<SequenceBin>> parsed;
  if (spec.front() == '{') {
    parsed = parse_json(spec, fail);
  } else if (spec.front() == '[' && spec.back() == ']') {
    parsed = parse_bracket(spec.substr(1, spec.size() - 2), fail);
  } else {
    parsed = parse_semicolon(spec, fail);
  }
  if (!parsed) return tl::unexpected(parsed.error());
  std::vector<SequenceBin>& bins = *parsed;
  if (bins.empty()) return fail("has no ISL,OSL pairs");

  double total = 0;
  for (size_t i = 0; i < bins.size(); ++i) {
    const SequenceBin& b = bins[i];
    const std::string which = fmt::format("pair {} ({}:{})", i + 1, format_bin(b), b.prob_pct);
    if (b.isl_mean < 1) return fail_value(which + ": ISL must be a positive integer (tokens)");
    if (b.osl_mean < 1) return fail_value(which + ": OSL must be a positive integer (tokens)");
    if (b.isl_stddev < 0 || b.osl_stddev < 0) return fail_value(which + ": a stddev must be >= 0");
    if (b.isl_mean > kMaxLengthTokens || b.osl_mean > kMaxLengthTokens || b.isl_stddev > kMaxLengthTokens ||
        b.osl_stddev > kMaxLengthTokens)
      return fail_value(which + fmt::format(": lengths and stddevs are at most {:.0f} tokens", kMaxLengthTokens));
    if (!(b.prob_pct >= 0 && b.prob_pct <= 100))
      return fail_value(which + ": the probability must be a percentage in [0, 100]");
    total += b.prob_pct;
  }
  // numpy.isclose(total, 100, rtol=1e-6, atol=1e-6), as AIPerf checks.
  if (!(std::fabs(total - 100.0) <= 1e-6 + 1e-6 * 100.0)) {
    if (std::fabs(total - 1.0) <= 1e-6)
      return fail_value(fmt::format(
          "probabilities sum to {}, not 100; they are percentages: write 40, not 0.4", total));
    return fail_value(
        fmt::format("probabilities sum to {}, not 100; make the percentages add up to 100", total));
  }
  return SequenceDistribution(std::move(bins));
}

SequenceDistribution::Draw SequenceDistribution::draw(core::Rng& rng) const {
  const double u = rng.next_double();
  size_t idx = static_cast<size_t>(std::upper_bound(cumulative_.begin(), cumulative_.end(), u) -
                                   cumulative_.begin());
  idx = std::min(idx, bins_.size() - 1);
  const SequenceBin& b = bins_[idx];
  Draw d;
  d.isl = draw_length_tokens(rng, b.isl_mean, b.isl_stddev, -1, RangeRatioStyle::kVllm);
  d.osl = draw_length_tokens(rng, b.osl_mean, b.osl_stddev, -1, RangeRatioStyle::kVllm);
  return d;
}

std::string SequenceDistribution::to_string() const {
  std::string s;
  for (const auto& b : bins_) {
    if (!s.empty()) s.push_back(';');
    s += format_bin(b) + ":" + plain_number(b.prob_pct);
  }
  return s;
}

}  // namespace servebench::dataset
