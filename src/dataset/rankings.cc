#include "dataset/rankings.h"

#include <fmt/format.h>

#include "core/interrupt.h"
#include "core/rng.h"
#include "dataset/synthetic_prompts.h"

namespace servebench::dataset {
namespace {

tl::unexpected<Error> bad(std::string message) {
  return tl::unexpected(Error{ErrorCode::kInvalidArgument, std::move(message)});
}

Status validate(const RankingsOptions& o) {
  if (o.num_entries < 0) return bad("--num-dataset-entries must be >= 0");
  if (o.passages_mean < 1) return bad("--rankings-passages-mean must be at least 1");
  if (o.passage_tokens_mean < 1)
    return bad("--rankings-passages-prompt-token-mean must be at least 1 token");
  if (o.query_tokens_mean < 1)
    return bad("--rankings-query-prompt-token-mean must be at least 1 token");
  if (o.passages_stddev < 0 || o.passage_tokens_stddev < 0 || o.query_tokens_stddev < 0)
    return bad("--rankings-*-stddev values must be >= 0");
  return core::ok_status();
}

int64_t draw(core::Rng& rng, int64_t mean, int64_t stddev) {
  return draw_length_tokens(rng, static_cast<double>(mean), static_cast<double>(stddev), -1,
                            RangeRatioStyle::kVllm);
}

// A row's query and passages from its named texts.
Result<RankingsEntry> entry_of(const FileTurn& t, const tokenizer::Tokenizer& tok,
                               const std::string& name, const std::string& id) {
  RankingsEntry e;
  e.id = id;
  bool has_query = false;
  for (size_t i = 0; i < t.texts.size(); ++i) {
    const std::string_view n = i < t.text_names.size() ? t.text_names[i] : std::string_view();
    if ((n == "query" || n == "queries") && !has_query) {
      e.query = t.texts[i];
      e.query_tokens = static_cast<int64_t>(tok.count(e.query));
      has_query = true;
    } else if (n == "passages") {
      e.passages.push_back(t.texts[i]);
      e.passage_tokens.push_back(static_cast<int64_t>(tok.count(t.texts[i])));
    }
  }
  const std::string where = t.line > 0 ? fmt::format("{}:{}", name, t.line) : name;
  const char* shape =
      R"({"texts":[{"name":"query","contents":["..."]},{"name":"passages","contents":["...",...]}]})";
  if (!has_query)
    return bad(fmt::format("--input-file '{}': a rankings row needs a text named 'query', e.g. {}",
                           where, shape));
  if (e.passages.empty())
    return bad(fmt::format(
        "--input-file '{}': a rankings row needs a text named 'passages' with at least one "
        "passage, e.g. {}",
        where, shape));
  e.extra_json = t.extra_json;
  return e;
}

}  // namespace

int64_t RankingsEntry::input_tokens() const {
  int64_t n = query_tokens;
  for (int64_t p : passage_tokens) n += p;
  return n;
}

Result<std::vector<RankingsEntry>> build_synthetic_rankings(const ExactPromptBuilder& builder,
                                                            const RankingsOptions& o) {
  SB_TRY(validate(o));
  auto stream = [&](std::string_view name) { return core::Rng::stream(o.seed, name); };
  core::Rng passages_rng = stream("rankings.passages");
  core::Rng passage_tokens_rng = stream("rankings.passages.tokens");
  core::Rng query_tokens_rng = stream("rankings.query.tokens");
  core::Rng prompt_rng = stream("rankings.prompt");
  std::vector<RankingsEntry> out;
  out.reserve(static_cast<size_t>(o.num_entries));
  for (int64_t i = 0; i < o.num_entries; ++i) {
    if (core::interrupt_requested())
      return make_error(ErrorCode::kInterrupted, "interrupted while building rankings queries");
    RankingsEntry e;
    e.id = fmt::format("synthetic-{}", i);
    const int64_t passages = draw(passages_rng, o.passages_mean, o.passages_stddev);
    auto query = builder.build(draw(query_tokens_rng, o.query_tokens_mean, o.query_tokens_stddev),
                               prompt_rng);
    e.query = std::move(query.text);
    e.query_tokens = query.tokens;
    e.passages.reserve(static_cast<size_t>(passages));
    for (int64_t p = 0; p < passages; ++p) {
      auto passage = builder.build(
          draw(passage_tokens_rng, o.passage_tokens_mean, o.passage_tokens_stddev), prompt_rng);
      e.passages.push_back(std::move(passage.text));
      e.passage_tokens.push_back(passage.tokens);
    }
    out.push_back(std::move(e));
  }
  return out;
}

Result<std::vector<RankingsEntry>> rankings_from_file(const DatasetFile& file,
                                                      const tokenizer::Tokenizer& tok,
                                                      const std::string& name) {
  if (file.format != FileFormat::kSingleTurn && file.format != FileFormat::kRandomPool)
    return bad(fmt::format(
        "--input-file '{}': rankings read single_turn rows with named 'query' and 'passages' "
        "texts, not {}; use --custom-dataset-type single_turn",
        name, file_format_name(file.format)));
  std::vector<RankingsEntry> out;
  out.reserve(file.conversations.size());
  for (const FileConversation& conv : file.conversations) {
    if (core::interrupt_requested())
      return make_error(ErrorCode::kInterrupted, "interrupted while reading rankings queries");
    if (conv.turns.size() > 1)
      return bad(
          fmt::format("--input-file '{}': session '{}' has {} rows, but rankings requests carry no "
                      "sessions; drop its session_id",
                      name, conv.session_id, conv.turns.size()));
    for (const FileTurn& t : conv.turns) {
      SB_TRY_ASSIGN(RankingsEntry e, entry_of(t, tok, name, conv.session_id));
      out.push_back(std::move(e));
    }
  }
  return out;
}

}  // namespace servebench::dataset
