#include "gold_corpus.h"

#include <algorithm>

namespace headlab::training {

analysis::GoldCorpus gold_corpus(const std::vector<Sentence>& sentences, const Grammar& grammar) {
  analysis::GoldCorpus corpus;
  // parse_grammar refused relations outside analysis::Relation.
  for (const std::string& relation : grammar.relations)
    corpus.relations.push_back({relation, {relation, relation}, analysis::relation_from_id(relation).value_or(analysis::Relation::nsubj)});
  corpus.sentences.reserve(sentences.size());
  for (std::size_t i = 0; i < sentences.size(); ++i) {
    const Sentence& s = sentences[i];
    analysis::GoldSentence gold;
    gold.id = "generated-" + std::to_string(i);
    gold.text = sentence_text(s, grammar);
    gold.title = {gold.text, gold.text};
    std::vector<int> word_index(s.size(), -1);  // sentence position -> position among the words
    for (int t = 0; t < s.size(); ++t) {
      if (s.pos[t] == PartOfSpeech::special) continue;
      word_index[t] = static_cast<int>(gold.tokens.size());
      gold.tokens.push_back(grammar.vocabulary[s.tokens[t]]);
      gold.pos.push_back(s.pos[t]);
    }
    for (int t = 0; t < s.size(); ++t) {
      if (word_index[t] < 0) continue;
      if (s.relation[t] == kRelationRoot || s.head[t] < 0) {
        gold.root = word_index[t];
        continue;
      }
      if (s.relation[t] < 0 || word_index[s.head[t]] < 0) continue;
      gold.arcs.push_back({word_index[t], word_index[s.head[t]], grammar.relations[s.relation[t]], s.relation[t]});
    }
    gold.has_parse = gold.root >= 0;
    corpus.sentences.push_back(std::move(gold));
  }
  analysis::compute_baselines(corpus);
  return corpus;
}

analysis::LabelConfig label_config_for(const analysis::LabelConfig& lab, const Grammar& grammar) {
  analysis::LabelConfig config = lab;
  std::vector<std::string>& excluded = config.syntactic_excluded_relations;
  for (std::size_t r = 0; r < grammar.relations.size(); ++r)
    if (grammar.control_relation[r] && std::find(excluded.begin(), excluded.end(), grammar.relations[r]) == excluded.end())
      excluded.push_back(grammar.relations[r]);
  return config;
}

}  // namespace headlab::training
