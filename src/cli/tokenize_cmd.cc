// servebench tokenize: encode, count or decode text with any tokenizer servebench can load.
//
//   servebench tokenize --tokenizer T [--text S | --file F | stdin] [--count] [--jsonl]
//                       [--decode] [--add-special-tokens] [--skip-special-tokens]
//
// Without --jsonl the whole input is one text and the output is one JSON array of ids (or one
// integer with --count, or the decoded text with --decode, whose input is a JSON array or
// whitespace/comma separated ids). With --jsonl every input line is a JSON string (--decode: a
// JSON array of ids) and every output line is the JSON array (count, JSON string).
// Logs and errors go to stderr; exit 2 on bad input or a tokenizer that cannot be loaded.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "tokenizer/tokenizer.h"
#include "tokenizer/unicode.h"

namespace servebench::cli {
namespace {

using tokenizer::TokenId;

// Minimal JSON string reader: s must be one JSON string literal (surrounding blanks allowed).
bool parse_json_string(std::string_view s, std::string* out) {
  size_t i = 0;
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r')) ++i;
  if (i >= s.size() || s[i] != '"') return false;
  ++i;
  out->clear();
  auto hex4 = [&](size_t at, uint32_t* v) {
    if (at + 4 > s.size()) return false;
    *v = 0;
    for (size_t k = 0; k < 4; ++k) {
      char c = s[at + k];
      int d = (c >= '0' && c <= '9') ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10 : (c >= 'A' && c <= 'F') ? c - 'A' + 10 : -1;
      if (d < 0) return false;
      *v = *v * 16 + static_cast<uint32_t>(d);
    }
    return true;
  };
  auto put = [&](uint32_t cp) { tokenizer::append_utf8(out, static_cast<char32_t>(cp)); };
  while (i < s.size()) {
    char c = s[i++];
    if (c == '"') {
      while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r')) ++i;
      return i == s.size();
    }
    if (c != '\\') {
      out->push_back(c);
      continue;
    }
    if (i >= s.size()) return false;
    char e = s[i++];
    switch (e) {
      case '"': out->push_back('"'); break;
      case '\\': out->push_back('\\'); break;
      case '/': out->push_back('/'); break;
      case 'b': out->push_back('\b'); break;
      case 'f': out->push_back('\f'); break;
      case 'n': out->push_back('\n'); break;
      case 'r': out->push_back('\r'); break;
      case 't': out->push_back('\t'); break;
      case 'u': {
        uint32_t cp;
        if (!hex4(i, &cp)) return false;
        i += 4;
        if (cp >= 0xD800 && cp < 0xDC00) {
          uint32_t lo;
          if (i + 6 <= s.size() && s[i] == '\\' && s[i + 1] == 'u' && hex4(i + 2, &lo) && lo >= 0xDC00 && lo < 0xE000) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            i += 6;
          } else {
            cp = 0xFFFD;  // lone surrogate, as JavaScript's TextEncoder does
          }
        } else if (cp >= 0xDC00 && cp < 0xE000) {
          cp = 0xFFFD;
        }
        put(cp);
        break;
      }
      default: return false;
    }
  }
  return false;
}

std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\u%04x", c);
          out += buf;
        } else {
          out.push_back(static_cast<char>(c));
        }
    }
  }
  return out + "\"";
}

std::string json_ids(const std::vector<TokenId>& ids) {
  std::string out = "[";
  for (size_t i = 0; i < ids.size(); ++i) {
    if (i) out += ',';
    out += std::to_string(ids[i]);
  }
  return out + "]";
}

// Ids as a JSON array or separated by blanks/commas.
bool parse_ids(std::string_view s, std::vector<TokenId>* ids) {
  ids->clear();
  size_t i = 0;
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) ++i;
  bool bracket = i < s.size() && s[i] == '[';
  if (bracket) ++i;
  bool closed = !bracket;
  while (i < s.size()) {
    char c = s[i];
    if (c == ' ' || c == ',' || c == '\t' || c == '\n' || c == '\r') {
      ++i;
    } else if (c >= '0' && c <= '9') {
      uint64_t v = 0;
      while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
        v = v * 10 + static_cast<uint64_t>(s[i++] - '0');
        if (v > 0xFFFFFFFFull) return false;
      }
      ids->push_back(static_cast<TokenId>(v));
    } else if (c == ']' && bracket && !closed) {
      closed = true;
      ++i;
    } else {
      return false;
    }
  }
  return closed;
}

}  // namespace

int run_tokenize(int argc, char** argv) {
  CLI::App app{"Encode, count or decode text with a tokenizer", "servebench tokenize"};
  std::string spec, text, file, revision = "main";
  bool count = false, jsonl = false, decode = false, add_special = false, skip_special = false;
  bool have_text = false;
  app.add_option("--tokenizer", spec,
                 "tokenizer.json file, folder holding one, tiktoken file, Hugging Face hub id, or 'builtin'")
      ->required();
  app.add_option("--tokenizer-revision", revision, "hub revision (branch, tag or commit)");
  auto* text_opt = app.add_option("--text", text, "input text (default: --file or stdin)");
  app.add_option("--file", file, "read the input from this file")->excludes(text_opt);
  app.add_flag("--count", count, "print the number of tokens instead of the ids");
  app.add_flag("--jsonl", jsonl, "one JSON string per input line; one result per output line");
  app.add_flag("--decode", decode, "input is token ids; print the text");
  app.add_flag("--add-special-tokens", add_special, "apply the post-processor (BOS/EOS)");
  app.add_flag("--skip-special-tokens", skip_special, "with --decode: drop special tokens");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "servebench tokenize: %s (see --help)\n", e.what());
    return 2;
  }
  have_text = text_opt->count() > 0;
  if (count && decode) {
    std::fprintf(stderr, "servebench tokenize: --count and --decode cannot be combined\n");
    return 2;
  }
  tokenizer::LoadOptions opts;
  opts.revision = revision;
  auto tok = tokenizer::load_tokenizer(spec, opts);
  if (!tok) {
    std::fprintf(stderr, "servebench tokenize: %s\n", tok.error().message.c_str());
    return 2;
  }
  const tokenizer::Tokenizer& t = **tok;

  std::string input;
  if (have_text) {
    input = text;
  } else if (!file.empty()) {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "servebench tokenize: cannot read --file '%s'; check the path\n", file.c_str());
      return 2;
    }
    std::stringstream ss;
    ss << in.rdbuf();
    input = ss.str();
  } else {
    std::stringstream ss;
    ss << std::cin.rdbuf();
    input = ss.str();
  }

  auto process = [&](std::string_view item, std::string* out, size_t line_no) -> bool {
    if (decode) {
      std::vector<TokenId> ids;
      if (!parse_ids(item, &ids)) {
        std::fprintf(stderr, "servebench tokenize: input%s is not a list of token ids\n",
                     line_no ? (" line " + std::to_string(line_no)).c_str() : "");
        return false;
      }
      std::string s = t.decode(ids, skip_special);
      *out = jsonl ? json_string(s) : s;
      return true;
    }
    std::string owned;
    if (jsonl) {
      if (!parse_json_string(item, &owned)) {
        std::fprintf(stderr, "servebench tokenize: --jsonl line %zu is not a JSON string\n", line_no);
        return false;
      }
      item = owned;
    }
    auto ids = t.encode(item, add_special);
    *out = count ? std::to_string(ids.size()) : json_ids(ids);
    return true;
  };

  std::string out;
  if (!jsonl) {
    if (!process(input, &out, 0)) return 2;
    std::fwrite(out.data(), 1, out.size(), stdout);
    if (!decode) std::fputc('\n', stdout);
    return 0;
  }
  std::string all;
  size_t line_no = 0;
  for (size_t pos = 0; pos < input.size();) {
    size_t nl = input.find('\n', pos);
    if (nl == std::string::npos) nl = input.size();
    std::string_view line(input.data() + pos, nl - pos);
    pos = nl + 1;
    ++line_no;
    if (line.empty() || line == "\r") continue;
    if (!process(line, &out, line_no)) return 2;
    all += out;
    all += '\n';
  }
  std::fwrite(all.data(), 1, all.size(), stdout);
  return 0;
}

}  // namespace servebench::cli
