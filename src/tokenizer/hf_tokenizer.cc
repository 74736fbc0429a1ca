#include "tokenizer/hf_tokenizer.h"

#include <algorithm>

#include "tokenizer/unicode.h"

namespace servebench::tokenizer {

HfTokenizer::HfTokenizer(HfParts p)
    : normalizer_(std::move(p.normalizer)),
      pre_tokenizer_(std::move(p.pre_tokenizer)),
      model_(std::move(p.model)),
      post_processor_(std::move(p.post_processor)),
      decoder_(std::move(p.decoder)),
      added_(std::move(p.added_tokens), normalizer_.get()),
      name_(std::move(p.name)) {
  vocab_size_ = model_->vocab_size();
  for (const auto& t : added_.tokens()) vocab_size_ = std::max<size_t>(vocab_size_, t.id + 1);
}

void HfTokenizer::encode_into(std::string_view text, std::vector<TokenId>* ids) const {
  Arena arena;
  // Scratch vectors reused per thread (encode is never re-entered on one thread).
  thread_local std::vector<AddedSplit> raw, norm;
  thread_local std::vector<Piece> pieces;
  raw.clear();
  added_.split(text, false, &raw);
  for (const AddedSplit& r : raw) {
    if (r.id >= 0) {
      ids->push_back(static_cast<TokenId>(r.id));
      continue;
    }
    bool origin = r.text.data() == text.data();
    std::string_view normalized = r.text;
    if (normalizer_) normalized = arena.keep(normalizer_->normalize(r.text));
    norm.clear();
    added_.split(normalized, true, &norm);
    for (const AddedSplit& n : norm) {
      if (n.id >= 0) {
        ids->push_back(static_cast<TokenId>(n.id));
        continue;
      }
      pieces.clear();
      pieces.push_back(Piece{n.text, origin && n.text.data() == normalized.data()});
      if (pre_tokenizer_) pre_tokenizer_->split(&pieces, &arena);
      for (const Piece& p : pieces) model_->tokenize(p.text, ids);
    }
  }
}

void HfTokenizer::encode_checked(std::string_view text, bool add_special_tokens,
                                 std::vector<TokenId>* ids) const {
  if (is_valid_utf8(text)) {
    encode_into(text, ids);
  } else {
    bool changed;
    std::string clean = sanitize_utf8(text, &changed);
    encode_into(clean, ids);
  }
  if (post_processor_) post_processor_->process(ids, add_special_tokens);
}

std::vector<TokenId> HfTokenizer::encode(std::string_view text, bool add_special_tokens) const {
  std::vector<TokenId> ids;
  ids.reserve(text.size() / 3 + 4);
  encode_checked(text, add_special_tokens, &ids);
  return ids;
}

size_t HfTokenizer::count(std::string_view text) const {
  // Record processing counts every chunk and every output: the ids themselves are not needed.
  thread_local std::vector<TokenId> ids;
  ids.clear();
  encode_checked(text, false, &ids);
  return ids.size();
}

const std::string* HfTokenizer::id_to_token(TokenId id) const {
  if (const AddedToken* t = added_.by_id(id)) return &t->content;
  const std::string* s = model_->id_to_token(id);
  return s && !s->empty() ? s : nullptr;
}

std::string HfTokenizer::decode(const std::vector<TokenId>& ids, bool skip_special_tokens) const {
  std::vector<std::string> tokens;
  tokens.reserve(ids.size());
  for (TokenId id : ids) {
    if (const AddedToken* t = added_.by_id(id)) {
      if (skip_special_tokens && t->special) continue;
      tokens.push_back(t->content);
      continue;
    }
    if (const std::string* s = model_->id_to_token(id); s && !s->empty()) tokens.push_back(*s);
  }
  if (!decoder_) {
    std::string out;
    for (size_t i = 0; i < tokens.size(); ++i) {
      if (i) out += ' ';
      out += tokens[i];
    }
    return out;
  }
  decoder_->decode_chain(&tokens);
  std::string out;
  for (const auto& t : tokens) out += t;
  return out;
}

}  // namespace servebench::tokenizer
