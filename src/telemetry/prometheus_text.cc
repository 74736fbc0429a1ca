#include "telemetry/prometheus_text.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <unordered_map>

#include <fmt/format.h>

namespace servebench::telemetry::prom {
namespace {

constexpr size_t kNone = static_cast<size_t>(-1);

bool is_blank(char c) { return c == ' ' || c == '\t'; }

bool is_name_start(char c, bool colon) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (colon && c == ':');
}

bool is_name_char(char c, bool colon) { return is_name_start(c, colon) || (c >= '0' && c <= '9'); }

std::string printable(std::string_view s) {
  std::string out;
  for (char c : s.substr(0, 40)) out += (static_cast<unsigned char>(c) < 0x20) ? '?' : c;
  return s.size() > 40 ? out + "..." : out;
}

// Appends the decoded escape `\<c>`; `quote` says whether `\"` is an escape in this context.
// Unknown escapes stay as written (backslash kept), as prometheus_client's parser does.
void append_escape(char c, bool quote, std::string* out) {
  if (c == 'n') {
    *out += '\n';
  } else if (c == '\\' || (quote && c == '"')) {
    *out += c;
  } else {
    *out += '\\';
    *out += c;
  }
}

// A cursor over one line; every method reports the first problem as a message.
class LineReader {
 public:
  explicit LineReader(std::string_view line) : s_(line) {}

  bool done() const { return pos_ >= s_.size(); }
  char peek() const { return done() ? '\0' : s_[pos_]; }
  void skip_blanks() {
    while (!done() && is_blank(s_[pos_])) ++pos_;
  }
  bool consume(char c) {
    if (peek() != c) return false;
    ++pos_;
    return true;
  }
  std::string_view rest() const { return s_.substr(std::min(pos_, s_.size())); }

  // A bare name ([a-zA-Z_:][a-zA-Z0-9_:]*, colon only for metric names) or a quoted one.
  Result<std::string> name(bool colon, const char* what) {
    if (peek() == '"') return quoted(what);
    size_t start = pos_;
    if (!is_name_start(peek(), colon)) return fail(fmt::format("expected a {}", what));
    while (!done() && is_name_char(s_[pos_], colon)) ++pos_;
    return std::string(s_.substr(start, pos_ - start));
  }

  // "..." with \\, \" and \n decoded; the cursor ends after the closing quote.
  Result<std::string> quoted(const char* what) {
    if (!consume('"')) return fail(fmt::format("{} not quoted", what));
    std::string out;
    while (!done()) {
      char c = s_[pos_++];
      if (c == '"') return out;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (done()) break;
      append_escape(s_[pos_++], true, &out);
    }
    return fail(fmt::format("unterminated {}", what));
  }

  // Up to the next blank (or end of line).
  std::string_view token() {
    size_t start = pos_;
    while (!done() && !is_blank(s_[pos_])) ++pos_;
    return s_.substr(start, pos_ - start);
  }

  tl::unexpected<Error> fail(std::string what) const {
    return make_error(ErrorCode::kParse, fmt::format("{} at '{}'", what, printable(rest())));
  }

 private:
  std::string_view s_;
  size_t pos_ = 0;
};

// Go's ParseFloat spellings: decimal and exponent forms, Inf/Infinity/NaN in any case, a sign.
std::optional<double> parse_float(std::string_view t) {
  if (t.empty()) return std::nullopt;
  bool neg = false;
  if (t[0] == '+' || t[0] == '-') {
    neg = t[0] == '-';
    t.remove_prefix(1);
  }
  if (t.empty() || t[0] == '+' || t[0] == '-') return std::nullopt;
  double v = 0;
  auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (end != t.data() + t.size()) return std::nullopt;
  if (ec == std::errc::result_out_of_range) {
    // Overflow and underflow: what strtod gives (±Inf, ±0), as Go and Python do.
    bool exp_neg = t.find("e-") != std::string_view::npos || t.find("E-") != std::string_view::npos;
    v = exp_neg ? 0.0 : std::numeric_limits<double>::infinity();
  } else if (ec != std::errc()) {
    return std::nullopt;
  }
  if (std::isnan(v)) return std::numeric_limits<double>::quiet_NaN();
  return neg ? -v : v;
}

// Prometheus text: integer milliseconds.
std::optional<int64_t> parse_ms(std::string_view t) {
  int64_t v = 0;
  if (!t.empty() && t[0] == '+') t.remove_prefix(1);
  auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc() || end != t.data() + t.size()) return std::nullopt;
  return v;
}

// OpenMetrics: seconds, possibly fractional; exact to the millisecond for plain decimals.
std::optional<int64_t> parse_seconds_as_ms(std::string_view t) {
  auto v = parse_float(t);
  if (!v || !std::isfinite(*v) || std::fabs(*v) > 9.2e15) return std::nullopt;
  size_t dot = t.find('.');
  bool plain = t.find_first_of("eEiInN") == std::string_view::npos;
  if (!plain || dot == std::string_view::npos) return static_cast<int64_t>(std::llround(*v * 1000));
  bool neg = t[0] == '-';
  std::string_view whole = t.substr(0, dot);
  if (!whole.empty() && (whole[0] == '-' || whole[0] == '+')) whole.remove_prefix(1);
  int64_t secs = 0;
  if (!whole.empty() && std::from_chars(whole.data(), whole.data() + whole.size(), secs).ec != std::errc())
    return std::nullopt;
  std::string frac(t.substr(dot + 1));
  frac.resize(4, '0');
  int64_t ms = secs * 1000 + (frac[0] - '0') * 100 + (frac[1] - '0') * 10 + (frac[2] - '0');
  if (frac[3] >= '5') ++ms;
  return neg ? -ms : ms;
}

// Sample-name suffixes that belong to a family of each type.
const std::vector<std::string_view>& suffixes(MetricType type) {
  static const std::vector<std::string_view> kCounter{"", "_total", "_created"};
  static const std::vector<std::string_view> kHistogram{"_bucket", "_count", "_sum", "_created"};
  static const std::vector<std::string_view> kGaugeHistogram{"_bucket", "_gcount", "_gsum"};
  static const std::vector<std::string_view> kSummary{"", "_count", "_sum", "_created"};
  static const std::vector<std::string_view> kInfo{"_info"};
  static const std::vector<std::string_view> kPlain{""};
  switch (type) {
    case MetricType::kCounter: return kCounter;
    case MetricType::kHistogram: return kHistogram;
    case MetricType::kGaugeHistogram: return kGaugeHistogram;
    case MetricType::kSummary: return kSummary;
    case MetricType::kInfo: return kInfo;
    default: return kPlain;
  }
}

bool belongs(const Family& f, std::string_view sample) {
  if (sample.size() < f.name.size() || sample.substr(0, f.name.size()) != f.name) return false;
  std::string_view suffix = sample.substr(f.name.size());
  for (auto s : suffixes(f.type)) {
    if (s == suffix) return true;
  }
  return false;
}

std::optional<MetricType> type_from_name(std::string_view t) {
  static const std::pair<std::string_view, MetricType> kTypes[] = {
      {"counter", MetricType::kCounter},     {"gauge", MetricType::kGauge},
      {"histogram", MetricType::kHistogram}, {"gaugehistogram", MetricType::kGaugeHistogram},
      {"summary", MetricType::kSummary},     {"untyped", MetricType::kUntyped},
      {"unknown", MetricType::kUnknown},     {"info", MetricType::kInfo},
      {"stateset", MetricType::kStateSet}};
  for (const auto& [n, type] : kTypes) {
    if (n == t) return type;
  }
  return std::nullopt;
}

class Parser {
 public:
  explicit Parser(Format format) : format_(format) {}

  // One line without its newline.
  Status line(std::string_view text) {
    LineReader r(text);
    r.skip_blanks();
    if (eof_) return r.fail("content after # EOF");
    if (r.done()) {
      if (format_ == Format::kOpenMetrics) return r.fail("blank line (not allowed in OpenMetrics)");
      return core::ok_status();
    }
    if (r.peek() == '#') return comment(r);
    return sample(r);
  }

  Result<std::vector<Family>> finish() {
    if (format_ == Format::kOpenMetrics && !eof_) {
      return make_error(ErrorCode::kParse, "missing '# EOF' at the end of an OpenMetrics exposition");
    }
    return std::move(families_);
  }

 private:
  MetricType default_type() const {
    return format_ == Format::kOpenMetrics ? MetricType::kUnknown : MetricType::kUntyped;
  }

  Status comment(LineReader& r) {
    r.consume('#');
    r.skip_blanks();
    std::string_view word = r.token();
    if (word == "EOF" && format_ == Format::kOpenMetrics) {
      r.skip_blanks();
      if (!r.done()) return r.fail("text after # EOF");
      eof_ = true;
      return core::ok_status();
    }
    if (word != "HELP" && word != "TYPE" && word != "UNIT") return core::ok_status();  // a comment
    if (!is_blank(r.peek())) return r.fail(fmt::format("expected a metric name after # {}", word));
    r.skip_blanks();
    SB_TRY_ASSIGN(std::string name, r.name(true, "metric name"));
    if (!r.done() && !is_blank(r.peek())) return r.fail("unexpected character in metric name");
    // OpenMetrics separates the text by exactly one space: further blanks belong to the text.
    if (format_ == Format::kOpenMetrics && word != "TYPE") {
      r.consume(' ');
    } else {
      r.skip_blanks();
    }
    Family& f = family_named(name);
    if (word == "HELP") return help(r, f);
    if (word == "UNIT") {
      f.unit = std::string(r.rest());
      return core::ok_status();
    }
    std::string_view t = r.token();
    auto type = type_from_name(t);
    if (!type) return r.fail(fmt::format("unknown metric type '{}'", printable(t)));
    r.skip_blanks();
    if (!r.done()) return r.fail("text after the metric type");
    if (typed_[current_]) return r.fail(fmt::format("second # TYPE line for '{}'", name));
    if (!f.samples.empty()) return r.fail(fmt::format("# TYPE for '{}' after its samples", name));
    f.type = *type;
    typed_[current_] = true;
    return core::ok_status();
  }

  Status help(LineReader& r, Family& f) {
    std::string_view raw = r.rest();
    std::string out;
    bool quote = format_ == Format::kOpenMetrics;
    for (size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] == '\\' && i + 1 < raw.size()) {
        append_escape(raw[++i], quote, &out);
      } else {
        out += raw[i];
      }
    }
    f.help = std::move(out);
    return core::ok_status();
  }

  Family& family_named(const std::string& name) {
    auto it = by_name_.find(name);
    if (it == by_name_.end()) {
      families_.push_back(Family{name, default_type(), "", "", {}});
      typed_.push_back(false);
      it = by_name_.emplace(name, families_.size() - 1).first;
    }
    current_ = it->second;
    return families_[current_];
  }

  // The family a sample name belongs to: the current one, one declared earlier, or a new one.
  Family& family_for(const std::string& sample) {
    if (current_ != kNone && belongs(families_[current_], sample)) return families_[current_];
    static const std::string_view kAll[] = {"_total", "_created", "_bucket", "_count", "_sum",
                                            "_gcount", "_gsum", "_info"};
    if (auto it = by_name_.find(sample); it != by_name_.end() && belongs(families_[it->second], sample)) {
      current_ = it->second;
      return families_[current_];
    }
    for (auto s : kAll) {
      if (sample.size() <= s.size() || sample.compare(sample.size() - s.size(), s.size(), s) != 0) continue;
      auto it = by_name_.find(sample.substr(0, sample.size() - s.size()));
      if (it != by_name_.end() && belongs(families_[it->second], sample)) {
        current_ = it->second;
        return families_[current_];
      }
    }
    return family_named(sample);
  }

  Status labels(LineReader& r, Sample& s) {
    r.consume('{');
    r.skip_blanks();
    bool first = true;
    while (!r.consume('}')) {
      if (r.done()) return r.fail("unterminated label set");
      bool quoted = r.peek() == '"';
      SB_TRY_ASSIGN(std::string key, r.name(false, "label name"));
      r.skip_blanks();
      if (quoted && first && s.name.empty() && (r.peek() == ',' || r.peek() == '}')) {
        s.name = std::move(key);  // {"metric.name", ...}: a quoted metric name
      } else {
        if (!r.consume('=')) return r.fail("expected '=' after a label name");
        r.skip_blanks();
        SB_TRY_ASSIGN(std::string value, r.quoted("label value"));
        for (const auto& [k, v] : s.labels) {
          if (k == key) return r.fail(fmt::format("duplicate label '{}'", key));
        }
        s.labels.emplace_back(std::move(key), std::move(value));
      }
      first = false;
      r.skip_blanks();
      if (r.consume(',')) {
        r.skip_blanks();
      } else if (r.peek() != '}') {
        return r.fail("expected ',' or '}' in a label set");
      }
    }
    return core::ok_status();
  }

  Status sample(LineReader& r) {
    Sample s;
    bool blank = false;
    if (r.peek() != '{') {
      SB_TRY_ASSIGN(s.name, r.name(true, "metric name"));
      blank = is_blank(r.peek());
      r.skip_blanks();
    }
    if (r.peek() == '{') {
      SB_TRY(labels(r, s));
      if (s.name.empty()) return r.fail("label set without a metric name");
      blank = is_blank(r.peek());
      r.skip_blanks();
    }
    if (!blank) return r.fail("expected a blank before the value");
    std::string_view value = r.token();
    auto v = parse_float(value);
    if (!v) return r.fail(fmt::format("bad value '{}'", printable(value)));
    s.value = *v;
    r.skip_blanks();
    if (!r.done() && r.peek() != '#') {
      std::string_view ts = r.token();
      s.timestamp_ms = format_ == Format::kOpenMetrics ? parse_seconds_as_ms(ts) : parse_ms(ts);
      if (!s.timestamp_ms) return r.fail(fmt::format("bad timestamp '{}'", printable(ts)));
      r.skip_blanks();
    }
    if (!r.done() && r.peek() != '#') return r.fail("unexpected text after the sample");
    // Anything after '#' is an exemplar: skipped.
    family_for(s.name).samples.push_back(std::move(s));
    return core::ok_status();
  }

  Format format_;
  std::vector<Family> families_;
  std::vector<bool> typed_;
  std::unordered_map<std::string, size_t> by_name_;
  size_t current_ = kNone;
  bool eof_ = false;
};

}  // namespace

Result<std::vector<Family>> parse_exposition(std::string_view text, Format format) {
  Parser parser(format);
  size_t line_no = 0;
  while (!text.empty()) {
    ++line_no;
    size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (auto st = parser.line(line); !st) {
      return make_error(ErrorCode::kParse, fmt::format("line {}: {}", line_no, st.error().message));
    }
  }
  return parser.finish();
}

const char* metric_type_name(MetricType type) {
  switch (type) {
    case MetricType::kUntyped: return "untyped";
    case MetricType::kCounter: return "counter";
    case MetricType::kGauge: return "gauge";
    case MetricType::kHistogram: return "histogram";
    case MetricType::kGaugeHistogram: return "gaugehistogram";
    case MetricType::kSummary: return "summary";
    case MetricType::kInfo: return "info";
    case MetricType::kStateSet: return "stateset";
    case MetricType::kUnknown: return "unknown";
  }
  return "unknown";
}

Format format_from_content_type(std::string_view content_type) {
  return content_type.find("application/openmetrics-text") != std::string_view::npos
             ? Format::kOpenMetrics
             : Format::kPrometheusText;
}

}  // namespace servebench::telemetry::prom
