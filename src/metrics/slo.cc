#include "metrics/slo.h"

#include <fmt/format.h>

#include "core/units.h"
#include "metrics/stats.h"

namespace servebench::metrics {
namespace {

std::vector<std::string_view> split_tokens(std::string_view text) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() &&
           (text[i] == ' ' || text[i] == ',' || text[i] == '\t' || text[i] == '\n')) {
      ++i;
    }
    size_t j = i;
    while (j < text.size() && text[j] != ' ' && text[j] != ',' && text[j] != '\t' &&
           text[j] != '\n') {
      ++j;
    }
    if (j > i) out.push_back(text.substr(i, j - i));
    i = j;
  }
  return out;
}

}  // namespace

Result<std::vector<Slo>> parse_goodput(std::string_view text) {
  std::vector<Slo> out;
  for (std::string_view tok : split_tokens(text)) {
    size_t sep = tok.find_first_of(":=");
    if (sep == std::string_view::npos || sep == 0 || sep + 1 >= tok.size()) {
      return make_error(ErrorCode::kInvalidArgument,
                        fmt::format("--goodput: '{}' is not tag:value (e.g. "
                                    "time_to_first_token:100 inter_token_latency:10)",
                                    tok));
    }
    Slo slo;
    slo.tag = std::string(tok.substr(0, sep));
    slo.info = find_metric(slo.tag);
    if (slo.info == nullptr || slo.info->kind != MetricKind::kRecord || slo.info->has(kAdjusted) ||
        slo.info->has(kErrorOnly)) {
      return make_error(ErrorCode::kInvalidArgument,
                        fmt::format("--goodput: '{}' is not a per-request metric tag (use e.g. "
                                    "time_to_first_token, inter_token_latency, request_latency)",
                                    slo.tag));
    }
    auto value = core::parse_double(tok.substr(sep + 1));
    if (!value || *value < 0) {
      return make_error(ErrorCode::kInvalidArgument,
                        fmt::format("--goodput: threshold in '{}' must be a non-negative number "
                                    "in {}",
                                    tok, slo.info->display_unit));
    }
    slo.threshold_display = *value;
    slo.threshold_base = slo.info->from_display(*value);
    slo.larger_is_better = slo.info->has(kLargerIsBetter);
    out.push_back(std::move(slo));
  }
  return out;
}

Result<std::vector<Gate>> parse_fail_on(std::string_view text) {
  std::vector<Gate> out;
  for (std::string_view tok : split_tokens(text)) {
    size_t op_pos = tok.find_first_of("<>");
    auto bad = [&](const std::string& why) {
      return make_error(ErrorCode::kInvalidArgument,
                        fmt::format("--fail-on: '{}' {} (write tag[.stat]>value, e.g. "
                                    "request_error_rate>1 time_to_first_token.p99>500)",
                                    tok, why));
    };
    if (op_pos == std::string_view::npos || op_pos == 0) return bad("has no > or < condition");
    Gate g;
    g.text = std::string(tok);
    std::string_view lhs = tok.substr(0, op_pos);
    std::string_view rest = tok.substr(op_pos);
    if (rest.size() >= 2 && rest[1] == '=') {
      g.op = rest[0] == '>' ? GateOp::kGreaterEqual : GateOp::kLessEqual;
      rest.remove_prefix(2);
    } else {
      g.op = rest[0] == '>' ? GateOp::kGreater : GateOp::kLess;
      rest.remove_prefix(1);
    }
    size_t dot = lhs.find('.');
    g.tag = std::string(lhs.substr(0, dot));
    g.stat = dot == std::string_view::npos ? "avg" : std::string(lhs.substr(dot + 1));
    if (find_metric(g.tag) == nullptr) {
      return bad(fmt::format("names an unknown metric '{}'", g.tag));
    }
    if (!is_stat_name(g.stat.c_str())) {
      return bad(
          fmt::format("names an unknown statistic '{}' (avg min max sum std count "
                      "p1 p5 p10 p25 p50 p75 p90 p95 p99)",
                      g.stat));
    }
    auto value = core::parse_double(rest);
    if (!value) return bad("has no numeric threshold");
    g.threshold = *value;
    out.push_back(std::move(g));
  }
  return out;
}

bool gate_holds(const Gate& gate, double value) {
  switch (gate.op) {
    case GateOp::kGreater:
      return value > gate.threshold;
    case GateOp::kGreaterEqual:
      return value >= gate.threshold;
    case GateOp::kLess:
      return value < gate.threshold;
    case GateOp::kLessEqual:
      return value <= gate.threshold;
  }
  return false;
}

const char* gate_op_text(GateOp op) {
  switch (op) {
    case GateOp::kGreater:
      return ">";
    case GateOp::kGreaterEqual:
      return ">=";
    case GateOp::kLess:
      return "<";
    case GateOp::kLessEqual:
      return "<=";
  }
  return "?";
}

}  // namespace servebench::metrics
