#pragma once
// A small probabilistic dependency grammar with agreement features: the training language of
// HeadLab, with gold part-of-speech tags and dependency arcs. The grammar is data
// (assets/grammar.json, schema in docs/training.md); this file parses and checks it.
//
// A rule rewrites a symbol into items. Exactly one item is the head; every other item's head word
// becomes a dependent of the rule's head word with the item's relation (nsubj, det, ...). Items may
// be optional ("p") or repeated ("count": probabilities of 0, 1, 2, ... copies). Features (number,
// animacy, ...) flow top-down: an item's "set" gives the features of its child, as constants or as
// "$name", the value of a feature of the rule's own symbol or of a variable the rule "choose"s.
// A terminal category picks among its words whose features do not contradict the constraints
// (in proportion to their optional "weight"), which is how agreement (det/noun, subject/verb) is
// expressed; a word without a feature fits any value of it ("the" fits both numbers).
#include <string>
#include <vector>

#include "engine/result.h"
#include "engine/token.h"

namespace headlab::training {

inline constexpr int kMaxGrammarFeatures = 16;  // distinct feature and variable names
inline constexpr int kRelationRoot = -1;        // the sentence's head word
inline constexpr int kRelationNone = -2;        // [CLS] and [SEP]: no arc

// Fixed vocabulary ids of the special tokens; grammar words follow.
enum SpecialToken : int { kTokenUnknown = 0, kTokenMask = 1, kTokenCls = 2, kTokenSep = 3, kSpecialTokenCount = 4 };

struct FeatureSetting {
  int feature = 0;        // feature id (index into Grammar::feature_names)
  bool from_variable = false;
  int value = 0;          // value id, or a feature id to read when from_variable
};

struct GrammarItem {
  int symbol = 0;                  // index into Grammar::symbols
  bool head = false;
  int relation = kRelationNone;    // for non-head items: index into Grammar::relations
  std::vector<float> count;        // probability of 0, 1, 2, ... copies (presence p gives {1-p, p})
  std::vector<FeatureSetting> settings;
};

struct FeatureChoice {
  int feature = 0;
  std::vector<int> values;
  std::vector<float> weights;  // normalised to sum 1
};

struct GrammarRule {
  float weight = 1.0f;
  std::vector<FeatureChoice> choices;
  std::vector<GrammarItem> items;
};

struct GrammarWord {
  int token = 0;                                  // vocabulary id
  float weight = 1.0f;                            // relative probability among the fitting words
  std::vector<std::pair<int, int>> features;      // (feature id, value id)
};

struct Grammar {
  std::vector<std::string> vocabulary;       // [UNK], [MASK], [CLS], [SEP], then every word
  std::vector<PartOfSpeech> vocabulary_pos;  // per vocabulary id
  std::vector<std::string> relations;        // "nsubj", "det", ...
  std::vector<bool> control_relation;        // per relation: deliberately uninformative
  std::vector<std::string> symbols;          // nonterminals first, then categories
  int nonterminal_count = 0;
  std::vector<std::vector<GrammarRule>> rules;    // per nonterminal
  std::vector<std::vector<GrammarWord>> words;    // per category (symbol - nonterminal_count)
  std::vector<PartOfSpeech> category_pos;         // per category
  std::vector<std::string> feature_names;
  std::vector<std::string> value_names;
  int start = 0;

  int vocabulary_size() const { return static_cast<int>(vocabulary.size()); }
  bool is_category(int symbol) const { return symbol >= nonterminal_count; }
  // Name of a relation id, including "root" and "none".
  std::string relation_name(int relation) const;
  // Relation id by name ("root" and "none" included), or -3 when unknown.
  int relation_index(const std::string& name) const;
};

// Parses assets/grammar.json; errors name the JSON path ("rules.NP[0].rhs[2].symbol: unknown symbol").
Result<Grammar> parse_grammar(const std::string& json_text);
// Reads and parses assets/grammar.json.
Result<Grammar> load_grammar();

}  // namespace headlab::training
