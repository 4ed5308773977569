#include "engine/bpe/bpe_files.h"

#include <nlohmann/json.hpp>
#include <vector>

#include "engine/json_reader.h"

namespace headlab::bpe {
namespace {

using json = nlohmann::json;

// "Ġ t" -> {"Ġ", "t"}; false unless the line is two non-empty tokens and one space.
bool split_merge(std::string_view line, Merge& merge) {
  const std::size_t space = line.find(' ');
  if (space == std::string_view::npos || space == 0 || space + 1 == line.size() ||
      line.find(' ', space + 1) != std::string_view::npos)
    return false;
  merge.left = std::string(line.substr(0, space));
  merge.right = std::string(line.substr(space + 1));
  return true;
}

std::string merge_shape_error(std::string_view line) {
  const std::string shown = json(std::string(line)).dump(-1, ' ', false, json::error_handler_t::replace);
  return "expected two tokens separated by one space (got " + shown + ")";
}

}  // namespace

Result<BpeTokenizer> read_gpt2_tokenizer(std::string_view encoder_json, std::string_view vocab_bpe, std::string name) {
  using R = Result<BpeTokenizer>;
  const json encoder = json::parse(encoder_json.begin(), encoder_json.end(), nullptr, false);
  if (encoder.is_discarded()) return R::failure("encoder.json: not valid JSON");
  if (!encoder.is_object()) return R::failure("encoder.json: expected a JSON object of token -> id");
  if (encoder.size() > kMaxBpeTokens)
    return R::failure("encoder.json: more than " + std::to_string(kMaxBpeTokens) + " tokens");
  std::vector<std::string> tokens(encoder.size());
  std::vector<bool> taken(encoder.size(), false);
  JsonReader reader;
  for (const auto& [token, value] : encoder.items()) {
    const std::string path = "encoder.json[" + json(token).dump() + "]";
    long long id = 0;
    if (!reader.integer(&value, path, 0, static_cast<long long>(encoder.size()) - 1, id)) return R::failure(reader.error());
    if (taken[id]) return R::failure(path + ": the id " + std::to_string(id) + " belongs to \"" + tokens[id] + "\" too");
    taken[id] = true;
    tokens[id] = token;
  }

  std::vector<Merge> merges;
  std::size_t line_number = 0;
  for (std::size_t start = 0; start < vocab_bpe.size();) {
    std::size_t end = vocab_bpe.find('\n', start);
    const bool last = end == std::string_view::npos;
    if (last) end = vocab_bpe.size();
    std::string_view line = vocab_bpe.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    start = end + 1;
    ++line_number;
    const std::string path = "vocab.bpe line " + std::to_string(line_number);
    if (line_number == 1) {
      if (line.substr(0, 8) != "#version") return R::failure(path + ": expected a version line (\"#version: 0.2\")");
      continue;
    }
    if (merges.size() >= kMaxBpeTokens)
      return R::failure("vocab.bpe: more than " + std::to_string(kMaxBpeTokens) + " merges");
    Merge merge;
    if (!split_merge(line, merge)) return R::failure(path + ": " + merge_shape_error(line));
    merges.push_back(std::move(merge));
  }
  if (line_number == 0) return R::failure("vocab.bpe line 1: expected a version line (\"#version: 0.2\")");
  const SourceNames names{[](std::size_t id) { return "encoder.json: the token of id " + std::to_string(id); },
                          [](std::size_t rank) { return "vocab.bpe line " + std::to_string(rank + 2); }};
  return make_bpe_tokenizer(std::move(name), PreTokenizer::Gpt2, std::move(tokens), merges, names);
}

Result<BpeTokenizer> parse_bpe_file(std::string_view json_text) {
  using R = Result<BpeTokenizer>;
  const json doc = json::parse(json_text.begin(), json_text.end(), nullptr, false);
  if (doc.is_discarded()) return R::failure("not valid JSON");
  if (!doc.is_object()) return R::failure("expected a JSON object");
  JsonReader r;
  std::string format, name;
  PreTokenizer pre_tokenizer = PreTokenizer::Gpt2;
  if (!r.string(r.field(doc, "", "format"), "format", format)) return R::failure(r.error());
  if (format != kBpeFileFormat)
    return R::failure(std::string("format: expected \"") + kBpeFileFormat + "\"" + JsonReader::shown(&doc["format"]));
  if (!r.string(r.field(doc, "", "name"), "name", name, true, 64) ||
      !r.one_of(r.field(doc, "", "pre_tokenizer"), "pre_tokenizer", kPreTokenizerNames, pre_tokenizer))
    return R::failure(r.error());
  const json* tokens_json = r.array(r.field(doc, "", "tokens"), "tokens", 256, kMaxBpeTokens, "tokens");
  const json* merges_json = tokens_json ? r.array(r.field(doc, "", "merges"), "merges", 0, kMaxBpeTokens, "merges") : nullptr;
  if (!merges_json) return R::failure(r.error());
  std::vector<std::string> tokens(tokens_json->size());
  for (std::size_t i = 0; i < tokens.size(); ++i)
    if (!r.string(&(*tokens_json)[i], json_path("tokens", i), tokens[i])) return R::failure(r.error());
  std::vector<Merge> merges(merges_json->size());
  for (std::size_t i = 0; i < merges.size(); ++i) {
    std::string line;
    const std::string path = json_path("merges", i);
    if (!r.string(&(*merges_json)[i], path, line)) return R::failure(r.error());
    if (!split_merge(line, merges[i])) return R::failure(path + ": " + merge_shape_error(line));
  }
  return make_bpe_tokenizer(std::move(name), pre_tokenizer, std::move(tokens), merges);
}

std::string serialize_bpe_file(const BpeTokenizer& tokenizer) {
  json merges = json::array();
  for (const auto& [left, right] : tokenizer.merges)
    merges.push_back(tokenizer.tokens[left] + " " + tokenizer.tokens[right]);
  const json doc = {{"format", kBpeFileFormat},
                    {"name", tokenizer.name},
                    {"pre_tokenizer", std::string(enum_name(kPreTokenizerNames, tokenizer.pre_tokenizer))},
                    {"tokens", tokenizer.tokens},
                    {"merges", std::move(merges)}};
  return doc.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace headlab::bpe
