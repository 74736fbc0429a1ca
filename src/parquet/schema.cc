#include "parquet/schema.h"

#include <fmt/format.h>

namespace servebench::parquet {
namespace {

struct Walker {
  const std::vector<SchemaElement>& s;
  size_t next = 1;   // schema index of the next node
  size_t leaves = 0;
  bool ok = true;

  // Skips the subtree at `next`, counting its leaves; returns the number of leaves under it.
  size_t skip_subtree(int depth) {
    if (next >= s.size() || depth > 64) {
      ok = false;
      return 0;
    }
    const SchemaElement& e = s[next++];
    if (e.num_children <= 0) {
      ++leaves;
      return 1;
    }
    size_t n = 0;
    for (int32_t i = 0; i < e.num_children && ok; ++i) n += skip_subtree(depth + 1);
    return n;
  }
};

bool is_leaf(const SchemaElement& e) { return e.num_children <= 0 && e.type.has_value(); }

int16_t def_of(const SchemaElement& e) { return e.repetition == Repetition::kRequired ? 0 : 1; }

void set_leaf(const SchemaElement& e, ColumnInfo* c) {
  c->type = *e.type;
  c->type_length = e.type_length;
  c->logical = e.logical;
  if (e.type == PhysicalType::kInt96) c->unsupported = "INT96 timestamps are not supported";
  if (e.type == PhysicalType::kFixedLenByteArray && e.type_length <= 0)
    c->unsupported = "FIXED_LEN_BYTE_ARRAY without a length";
}

// A group at schema[i]: a list of one primitive in the 3-level or 2-level form, or unsupported.
void describe_group(const std::vector<SchemaElement>& s, size_t i, ColumnInfo* c) {
  const SchemaElement& g = s[i];
  c->optional = g.repetition == Repetition::kOptional;
  if (g.logical == LogicalKind::kMap) {
    c->unsupported = "MAP types are not supported";
    return;
  }
  if (g.logical != LogicalKind::kList || g.num_children != 1 || i + 1 >= s.size() ||
      g.repetition == Repetition::kRepeated) {
    c->unsupported = g.logical == LogicalKind::kList ? "nested LIST types are not supported"
                                                     : "struct (group) columns are not supported";
    return;
  }
  const SchemaElement& rep = s[i + 1];
  if (rep.repetition != Repetition::kRepeated) {
    c->unsupported = "nested LIST types are not supported";
    return;
  }
  c->is_list = true;
  c->max_rep = 1;
  c->list_def = static_cast<int16_t>(def_of(g) + 1);
  if (is_leaf(rep)) {  // 2-level: the repeated field is the element
    set_leaf(rep, c);
    c->max_def = c->list_def;
    return;
  }
  if (rep.num_children != 1 || i + 2 >= s.size() || !is_leaf(s[i + 2]) ||
      s[i + 2].repetition == Repetition::kRepeated) {
    c->unsupported = "nested LIST types are not supported";
    return;
  }
  set_leaf(s[i + 2], c);
  c->max_def = static_cast<int16_t>(c->list_def + def_of(s[i + 2]));
}

}  // namespace

Result<std::vector<ColumnInfo>> build_columns(const FileMetaData& meta) {
  const auto& s = meta.schema;
  Walker w{s};
  std::vector<ColumnInfo> out;
  for (int32_t f = 0; f < s[0].num_children; ++f) {
    if (w.next >= s.size()) {
      w.ok = false;
      break;
    }
    const size_t at = w.next;
    const SchemaElement& e = s[at];
    ColumnInfo c;
    c.name = e.name;
    c.leaf = w.leaves;
    if (is_leaf(e)) {
      set_leaf(e, &c);
      if (e.repetition == Repetition::kRepeated) {  // legacy bare repeated field = list
        c.is_list = true;
        c.max_rep = 1;
        c.max_def = c.list_def = 1;
      } else {
        c.optional = e.repetition == Repetition::kOptional;
        c.max_def = def_of(e);
      }
      w.next++;
      w.leaves++;
    } else if (e.num_children > 0) {
      describe_group(s, at, &c);
      if (w.skip_subtree(0) != 1 && c.unsupported.empty())
        c.unsupported = "nested LIST types are not supported";
    } else {
      c.unsupported = "a column without a type";
      w.next++;
      w.leaves++;
    }
    if (!w.ok) break;
    out.push_back(std::move(c));
  }
  if (!w.ok || w.next != s.size())
    return make_error(ErrorCode::kParse, "corrupt footer (schema child counts do not add up)");
  for (const auto& g : meta.row_groups)
    if (g.columns.size() != w.leaves)
      return make_error(ErrorCode::kParse,
                        fmt::format("corrupt footer (a row group has {} column chunks, the schema "
                                    "{} leaves)",
                                    g.columns.size(), w.leaves));
  return out;
}

}  // namespace servebench::parquet
