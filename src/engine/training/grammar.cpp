#include "grammar.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "engine/analysis/relation.h"
#include "engine/assets.h"
#include "engine/json_reader.h"

namespace headlab::training {
namespace {

using nlohmann::json;

// Builds a Grammar; the JSON reader keeps the first error with its path.
class GrammarReader : public JsonReader {
 public:
  Grammar grammar;

  int intern(std::vector<std::string>& names, const std::string& name) {
    for (std::size_t i = 0; i < names.size(); ++i)
      if (names[i] == name) return static_cast<int>(i);
    names.push_back(name);
    return static_cast<int>(names.size()) - 1;
  }

  bool feature_id(const std::string& name, const std::string& path, int& out) {
    out = intern(grammar.feature_names, name);
    if (out >= kMaxGrammarFeatures)
      return fail(path, "more than " + std::to_string(kMaxGrammarFeatures) + " feature names");
    return true;
  }

  bool probability(const json& v, const std::string& path, float& out) { return number(&v, path, 0.0, 1.0, out); }

  bool symbols(const json& doc) {
    if (!doc.contains("rules") || !doc["rules"].is_object() || doc["rules"].empty())
      return fail("rules", "expected an object of nonterminals");
    if (!doc.contains("categories") || !doc["categories"].is_object() || doc["categories"].empty())
      return fail("categories", "expected an object mapping categories to parts of speech");
    for (const auto& [name, rules] : doc["rules"].items()) grammar.symbols.push_back(name);
    grammar.nonterminal_count = static_cast<int>(grammar.symbols.size());
    for (const auto& [name, pos] : doc["categories"].items()) {
      const std::string path = "categories." + name;
      if (doc["rules"].contains(name)) return fail(path, "is also a nonterminal");
      if (!pos.is_string() || part_of_speech_from_string(pos.get<std::string>()) == PartOfSpeech::unknown)
        return fail(path, "expected a part of speech (\"det\", \"noun\", ...)");
      grammar.symbols.push_back(name);
      grammar.category_pos.push_back(part_of_speech_from_string(pos.get<std::string>()));
    }
    return true;
  }

  int symbol_index(const std::string& name) const {
    for (std::size_t i = 0; i < grammar.symbols.size(); ++i)
      if (grammar.symbols[i] == name) return static_cast<int>(i);
    return -1;
  }

  bool item(const json& v, const std::string& path, GrammarItem& out) {
    if (!v.is_object()) return fail(path, "expected an object");
    std::string symbol;
    if (!string(field(v, path, "symbol"), path + ".symbol", symbol)) return false;
    out.symbol = symbol_index(symbol);
    if (out.symbol < 0) return fail(path + ".symbol", "unknown symbol \"" + symbol + "\"");
    if (const json* head = optional_field(v, "head"); head && !boolean(head, path + ".head", out.head)) return false;
    if (!out.head) {
      if (!v.contains("rel") || !v["rel"].is_string()) return fail(path + ".rel", "a dependent needs a relation");
      out.relation = grammar.relation_index(v["rel"].get<std::string>());
      if (out.relation < 0) return fail(path + ".rel", "unknown relation \"" + v["rel"].get<std::string>() + "\"");
    }
    out.count = {0.0f, 1.0f};
    if (v.contains("p")) {
      float p = 1.0f;
      if (!probability(v["p"], path + ".p", p)) return false;
      out.count = {1.0f - p, p};
    }
    if (v.contains("count")) {
      if (v.contains("p")) return fail(path + ".count", "give either \"p\" or \"count\"");
      if (!v["count"].is_array() || v["count"].empty() || v["count"].size() > 8)
        return fail(path + ".count", "expected 1 to 8 probabilities (of 0, 1, ... copies)");
      out.count.clear();
      float sum = 0.0f;
      for (std::size_t i = 0; i < v["count"].size(); ++i) {
        float p = 0.0f;
        if (!probability(v["count"][i], path + ".count[" + std::to_string(i) + "]", p)) return false;
        out.count.push_back(p);
        sum += p;
      }
      if (std::abs(sum - 1.0f) > 1e-3f) return fail(path + ".count", "probabilities must sum to 1");
    }
    if (out.head && out.count != std::vector<float>{0.0f, 1.0f}) return fail(path, "the head item cannot be optional");
    if (v.contains("set")) {
      if (!v["set"].is_object()) return fail(path + ".set", "expected an object of features");
      for (const auto& [name, value] : v["set"].items()) {
        const std::string at = path + ".set." + name;
        if (!value.is_string() || value.get<std::string>().empty()) return fail(at, "expected a value or \"$name\"");
        FeatureSetting s;
        if (!feature_id(name, at, s.feature)) return false;
        const std::string text = value.get<std::string>();
        s.from_variable = text[0] == '$';
        if (s.from_variable && !feature_id(text.substr(1), at, s.value)) return false;
        if (!s.from_variable) s.value = intern(grammar.value_names, text);
        out.settings.push_back(s);
      }
    }
    return true;
  }

  bool choice(const std::string& name, const json& v, const std::string& path, FeatureChoice& out) {
    if (!feature_id(name, path, out.feature)) return false;
    if (v.is_array() && !v.empty()) {
      for (const json& value : v) {
        if (!value.is_string()) return fail(path, "expected an array of values");
        out.values.push_back(intern(grammar.value_names, value.get<std::string>()));
        out.weights.push_back(1.0f / static_cast<float>(v.size()));
      }
      return true;
    }
    if (!v.is_object() || v.empty()) return fail(path, "expected an array of values or an object of value weights");
    float sum = 0.0f;
    for (const auto& [value, weight] : v.items()) {
      if (!weight.is_number() || weight.get<double>() <= 0.0) return fail(path + "." + value, "expected a positive weight");
      out.values.push_back(intern(grammar.value_names, value));
      out.weights.push_back(weight.get<float>());
      sum += weight.get<float>();
    }
    for (float& w : out.weights) w /= sum;
    return true;
  }

  bool rules(const json& doc) {
    grammar.rules.resize(grammar.nonterminal_count);
    for (int s = 0; s < grammar.nonterminal_count; ++s) {
      const std::string path = "rules." + grammar.symbols[s];
      const json& list = doc["rules"][grammar.symbols[s]];
      if (!list.is_array() || list.empty()) return fail(path, "expected a non-empty array of rules");
      for (std::size_t r = 0; r < list.size(); ++r) {
        const std::string rp = path + "[" + std::to_string(r) + "]";
        const json& v = list[r];
        GrammarRule rule;
        if (!v.is_object()) return fail(rp, "expected an object");
        if (v.contains("weight")) {
          if (!v["weight"].is_number() || v["weight"].get<double>() <= 0.0) return fail(rp + ".weight", "expected a positive number");
          rule.weight = v["weight"].get<float>();
        }
        if (v.contains("choose")) {
          if (!v["choose"].is_object()) return fail(rp + ".choose", "expected an object of variables");
          for (const auto& [name, values] : v["choose"].items()) {
            FeatureChoice c;
            if (!choice(name, values, rp + ".choose." + name, c)) return false;
            rule.choices.push_back(std::move(c));
          }
        }
        if (!v.contains("rhs") || !v["rhs"].is_array() || v["rhs"].empty()) return fail(rp + ".rhs", "expected a non-empty array of items");
        int heads = 0;
        for (std::size_t i = 0; i < v["rhs"].size(); ++i) {
          GrammarItem it;
          if (!item(v["rhs"][i], rp + ".rhs[" + std::to_string(i) + "]", it)) return false;
          heads += it.head ? 1 : 0;
          rule.items.push_back(std::move(it));
        }
        if (heads != 1) return fail(rp + ".rhs", "expected exactly one item with \"head\": true, got " + std::to_string(heads));
        grammar.rules[s].push_back(std::move(rule));
      }
    }
    return true;
  }

  bool words(const json& doc) {
    if (!doc.contains("words") || !doc["words"].is_object()) return fail("words", "expected an object of categories");
    grammar.words.resize(grammar.symbols.size() - grammar.nonterminal_count);
    for (const auto& [category, list] : doc["words"].items()) {
      const std::string path = "words." + category;
      const int symbol = symbol_index(category);
      if (symbol < 0 || !grammar.is_category(symbol)) return fail(path, "not a category");
      if (!list.is_array()) return fail(path, "expected an array of words");
      for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string wp = path + "[" + std::to_string(i) + "]";
        const json& w = list[i];
        if (!w.is_object() || !w.contains("w") || !w["w"].is_string() || w["w"].get<std::string>().empty())
          return fail(wp, "expected {\"w\": word, feature: value, ...}");
        GrammarWord word;
        const std::string text = w["w"].get<std::string>();
        const std::size_t before = grammar.vocabulary.size();
        word.token = intern(grammar.vocabulary, text);
        if (grammar.vocabulary.size() > before) grammar.vocabulary_pos.push_back(grammar.category_pos[symbol - grammar.nonterminal_count]);
        for (const auto& [name, value] : w.items()) {
          if (name == "w") continue;
          if (name == "weight") {
            if (!value.is_number() || value.get<double>() <= 0.0) return fail(wp + ".weight", "expected a positive number");
            word.weight = value.get<float>();
            continue;
          }
          if (!value.is_string()) return fail(wp + "." + name, "expected a string value");
          int feature = 0;
          if (!feature_id(name, wp + "." + name, feature)) return false;
          word.features.emplace_back(feature, intern(grammar.value_names, value.get<std::string>()));
        }
        grammar.words[symbol - grammar.nonterminal_count].push_back(std::move(word));
      }
    }
    for (std::size_t c = 0; c < grammar.words.size(); ++c)
      if (grammar.words[c].empty()) return fail("words." + grammar.symbols[grammar.nonterminal_count + c], "no words");
    return true;
  }
};

}  // namespace

std::string Grammar::relation_name(int relation) const {
  if (relation == kRelationRoot) return "root";
  if (relation >= 0 && relation < static_cast<int>(relations.size())) return relations[relation];
  return "none";
}

int Grammar::relation_index(const std::string& name) const {
  if (name == "root") return kRelationRoot;
  if (name == "none") return kRelationNone;
  for (std::size_t r = 0; r < relations.size(); ++r)
    if (relations[r] == name) return static_cast<int>(r);
  return -3;
}

Result<Grammar> parse_grammar(const std::string& json_text) {
  using R = Result<Grammar>;
  const json doc = json::parse(json_text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return R::failure("not a JSON object");
  if (!doc.contains("format") || doc["format"] != "headlab-grammar") return R::failure("format: expected \"headlab-grammar\"");
  GrammarReader reader;
  Grammar& g = reader.grammar;
  g.vocabulary = {"[UNK]", "[MASK]", kClsToken, kSepToken};
  g.vocabulary_pos = {PartOfSpeech::unknown, PartOfSpeech::special, PartOfSpeech::special, PartOfSpeech::special};
  if (!doc.contains("relations") || !doc["relations"].is_array() || doc["relations"].empty())
    return R::failure("relations: expected an array of relation names");
  for (const json& r : doc["relations"]) {
    if (!r.is_string() || r == "root" || r == "none") return R::failure("relations: expected names other than \"root\" and \"none\"");
    if (!analysis::relation_from_id(r.get<std::string>()))
      return R::failure("relations: \"" + r.get<std::string>() + "\" is not a relation HeadLab knows (analysis/relation.h)");
    g.relations.push_back(r.get<std::string>());
  }
  g.control_relation.assign(g.relations.size(), false);
  if (doc.contains("control_relations")) {
    if (!doc["control_relations"].is_array()) return R::failure("control_relations: expected an array");
    for (const json& r : doc["control_relations"]) {
      const int index = r.is_string() ? g.relation_index(r.get<std::string>()) : -3;
      if (index < 0) return R::failure("control_relations: unknown relation");
      g.control_relation[index] = true;
    }
  }
  if (!reader.symbols(doc) || !reader.rules(doc) || !reader.words(doc)) return R::failure(reader.error());
  if (!doc.contains("start") || !doc["start"].is_string()) return R::failure("start: expected a nonterminal name");
  g.start = reader.symbol_index(doc["start"].get<std::string>());
  if (g.start < 0 || g.is_category(g.start)) return R::failure("start: unknown nonterminal");
  return std::move(reader.grammar);
}

Result<Grammar> load_grammar() {
  const std::optional<std::string> text = read_asset("grammar.json");
  if (!text) return Result<Grammar>::failure("cannot read assets/grammar.json");
  Result<Grammar> grammar = parse_grammar(*text);
  if (!grammar.ok()) return Result<Grammar>::failure("grammar.json: " + grammar.error());
  return grammar;
}

}  // namespace headlab::training
