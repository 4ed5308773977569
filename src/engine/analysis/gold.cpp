#include "engine/analysis/gold.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>
#include <nlohmann/json.hpp>

#include "engine/assets.h"

namespace headlab::analysis {
namespace {

using nlohmann::json;

bool string_array(const json& value, std::size_t expected, std::vector<std::string>& out) {
  if (!value.is_array() || (expected && value.size() != expected)) return false;
  out.clear();
  for (const json& v : value) {
    if (!v.is_string() || v.get<std::string>().empty()) return false;
    out.push_back(v.get<std::string>());
  }
  return true;
}

// Every token must reach the root by following heads, or the "tree" has a cycle.
bool is_tree(const std::vector<int>& head_of, int root) {
  const int n = static_cast<int>(head_of.size());
  for (int start = 0; start < n; ++start) {
    int t = start;
    for (int steps = 0; t != root; ++steps) {
      if (steps > n) return false;
      t = head_of[t];
    }
  }
  return true;
}

std::string read_parse(const json& s, const std::string& path, const GoldCorpus& corpus, GoldSentence& sentence) {
  const std::size_t n = sentence.tokens.size();
  std::vector<std::string> pos_names, relations;
  if (!string_array(s["pos"], n, pos_names))
    return path + ".pos: expected " + std::to_string(n) + " part-of-speech names, one per token";
  for (std::size_t k = 0; k < n; ++k) {
    const PartOfSpeech pos = part_of_speech_from_string(pos_names[k]);
    if (pos == PartOfSpeech::unknown || pos == PartOfSpeech::special)
      return path + ".pos[" + std::to_string(k) + "]: unknown part of speech \"" + pos_names[k] + "\"";
    sentence.pos.push_back(pos);
  }
  if (!s.contains("heads") || !s["heads"].is_array() || s["heads"].size() != n)
    return path + ".heads: expected " + std::to_string(n) + " head indices, one per token";
  if (!string_array(s["relations"], n, relations))
    return path + ".relations: expected " + std::to_string(n) + " relation names, one per token";
  std::vector<int> head_of(n, -1);
  for (std::size_t k = 0; k < n; ++k) {
    const std::string at = path + ".heads[" + std::to_string(k) + "]";
    const json& h = s["heads"][k];
    if (!h.is_number_integer() || h.get<long>() < 0 || h.get<long>() > static_cast<long>(n))
      return at + ": expected 1.." + std::to_string(n) + ", or 0 for the root";
    const int head = static_cast<int>(h.get<long>()) - 1;  // file: 1-based, 0 = root
    const std::string& rel = relations[k];
    const std::string rel_at = path + ".relations[" + std::to_string(k) + "]";
    if ((head < 0) != (rel == "root")) return rel_at + ": the root (head 0) and only the root has relation \"root\"";
    if (head == static_cast<int>(k)) return at + ": a token cannot be its own head";
    if (head < 0) {
      if (sentence.root >= 0) return at + ": a second root (the first is token " + std::to_string(sentence.root + 1) + ")";
      sentence.root = static_cast<int>(k);
      head_of[k] = -1;
      continue;
    }
    const auto known = std::find_if(corpus.relations.begin(), corpus.relations.end(),
                                    [&](const RelationInfo& r) { return r.id == rel; });
    if (known == corpus.relations.end()) return rel_at + ": relation \"" + rel + "\" is not listed in \"relations\"";
    head_of[k] = head;
    sentence.arcs.push_back({static_cast<int>(k), head, rel, static_cast<int>(known - corpus.relations.begin())});
  }
  if (sentence.root < 0) return path + ".heads: no root (one token needs head 0)";
  if (!is_tree(head_of, sentence.root)) return path + ".heads: the arcs form a cycle";
  sentence.has_parse = true;
  return {};
}

}  // namespace

// Ties go to the offset nearest to 0, then to the negative one, so the result is deterministic.
void compute_baselines(GoldCorpus& corpus) {
  const std::size_t relation_count = corpus.relations.size();
  std::vector<std::map<int, int>> hits(relation_count);  // relation -> offset -> arcs there
  corpus.baselines.assign(relation_count, {});
  for (std::size_t r = 0; r < relation_count; ++r) corpus.baselines[r].relation = corpus.relations[r].id;
  for (const GoldSentence& s : corpus.sentences)
    for (const Arc& arc : s.arcs) {
      ++hits[arc.relation_index][arc.head - arc.dependent];
      ++corpus.baselines[arc.relation_index].arcs;
    }
  for (std::size_t r = 0; r < relation_count; ++r) {
    FixedOffsetBaseline& best = corpus.baselines[r];
    int best_count = 0;
    for (const auto& [offset, count] : hits[r]) {
      const bool better = count > best_count ||
                          (count == best_count && std::abs(offset) < std::abs(best.offset));
      if (better) best.offset = offset, best_count = count;
    }
    best.accuracy = best.arcs ? static_cast<float>(best_count) / static_cast<float>(best.arcs) : 0.0f;
  }
}

const GoldSentence* GoldCorpus::find(const std::string& id) const {
  for (const GoldSentence& s : sentences)
    if (s.id == id) return &s;
  return nullptr;
}

const FixedOffsetBaseline* GoldCorpus::baseline(const std::string& relation) const {
  for (const FixedOffsetBaseline& b : baselines)
    if (b.relation == relation) return &b;
  return nullptr;
}

const std::string& GoldCorpus::relation_name(const std::string& relation) const {
  for (const RelationInfo& r : relations)
    if (r.id == relation) return r.name.en;
  return relation;
}

Result<GoldCorpus> parse_gold_corpus(const std::string& json_text) {
  using R = Result<GoldCorpus>;
  const json doc = json::parse(json_text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return R::failure("sentences: not a JSON object");
  if (!doc.contains("format") || doc["format"] != "headlab-sentences")
    return R::failure("sentences.format: expected \"headlab-sentences\"");
  GoldCorpus corpus;
  if (!doc.contains("relations") || !doc["relations"].is_object())
    return R::failure("sentences.relations: expected an object of relation id -> {\"en\", \"zh\"}");
  for (const auto& [id, name] : doc["relations"].items()) {
    const std::optional<Relation> relation = relation_from_id(id);
    if (!relation) return R::failure("sentences.relations." + id + ": not a relation HeadLab knows (analysis/relation.h)");
    RelationInfo info{id, {}, *relation};
    if (!read_localized_text(name, info.name))
      return R::failure("sentences.relations." + id + ": expected {\"en\": ..., \"zh\": ...}");
    corpus.relations.push_back(std::move(info));
  }
  if (!doc.contains("sentences") || !doc["sentences"].is_array())
    return R::failure("sentences.sentences: expected an array");
  for (std::size_t i = 0; i < doc["sentences"].size(); ++i) {
    const json& s = doc["sentences"][i];
    const std::string path = "sentences[" + std::to_string(i) + "]";
    if (!s.is_object()) return R::failure(path + ": expected an object");
    GoldSentence sentence;
    if (!s.contains("id") || !s["id"].is_string() || s["id"].get<std::string>().empty())
      return R::failure(path + ".id: expected a non-empty string");
    sentence.id = s["id"].get<std::string>();
    if (corpus.find(sentence.id)) return R::failure(path + ".id: \"" + sentence.id + "\" is used twice");
    if (!s.contains("text") || !s["text"].is_string()) return R::failure(path + ".text: expected a string");
    sentence.text = s["text"].get<std::string>();
    if (!s.contains("title") || !read_localized_text(s["title"], sentence.title))
      return R::failure(path + ".title: expected {\"en\": ..., \"zh\": ...}");
    if (!s.contains("tokens") || !string_array(s["tokens"], 0, sentence.tokens) || sentence.tokens.empty())
      return R::failure(path + ".tokens: expected a non-empty array of strings");
    const bool has_any = s.contains("pos") || s.contains("heads") || s.contains("relations");
    if (has_any) {
      if (auto error = read_parse(s, path, corpus, sentence); !error.empty()) return R::failure(error);
    }
    corpus.sentences.push_back(std::move(sentence));
  }
  compute_baselines(corpus);
  return corpus;
}

GoldCorpus load_gold_corpus() {
  const auto text = read_asset("sentences.json");
  if (!text) {
    GoldCorpus empty;
    empty.load_error = "assets/sentences.json could not be read from " + assets_root();
    return empty;
  }
  Result<GoldCorpus> parsed = parse_gold_corpus(*text);
  if (!parsed.ok()) {
    GoldCorpus empty;
    empty.load_error = parsed.error();
    return empty;
  }
  return std::move(parsed).value();
}

GoldMatch match_gold(const GoldCorpus& corpus, const Tokens& tokens) {
  GoldMatch match;
  std::vector<int> words;  // input indices of the non-special tokens
  for (std::size_t i = 0; i < tokens.size(); ++i)
    if (!tokens[i].is_special) words.push_back(static_cast<int>(i));
  for (const GoldSentence& s : corpus.sentences) {
    if (s.tokens.size() != words.size()) continue;
    bool same = true;
    for (std::size_t k = 0; k < words.size() && same; ++k) same = tokens[words[k]].text == s.tokens[k];
    if (!same) continue;
    match.sentence = &s;
    match.input_index = words;
    match.has_gold = s.has_parse;
    match.reason = s.has_parse ? "Hand-checked parse of example sentence \"" + s.id + "\"."
                               : "Example sentence \"" + s.id +
                                     "\" has no hand-checked parse, so syntactic scores are off.";
    return match;
  }
  if (!corpus.load_error.empty())
    match.reason = "Syntactic scores are off: the sentence annotations could not be loaded (" + corpus.load_error + ").";
  else
    match.reason = "Syntactic scores are off: this sentence has no hand-checked parse. Pick an annotated "
                   "example sentence to see them.";
  return match;
}

}  // namespace headlab::analysis
