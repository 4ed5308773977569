#include "app/held_out_labels.h"

#include "engine/training/gold_corpus.h"

namespace headlab::app {

HeadRole head_role(const analysis::PooledHead& head, const analysis::LabelConfig& config) {
  HeadRole role;
  const analysis::HeadLabel& label = head.label;
  if (label.mixed()) return role;
  role.label = label;
  role.score = head.scores.score(*label.role);
  if (const analysis::RelationScore* relation = head.scores.syntactic.best_relation();
      relation && label.is(analysis::Role::syntactic)) {
    role.baseline = relation->baseline;
    role.direction = relation->both_ways           ? kBothWays
                     : relation->head_to_dependent ? training::kHeadToDependent
                                                   : training::kDependentToHead;
  } else {
    role.baseline = analysis::role_status(head.scores, config)[static_cast<int>(*label.role)].threshold;
  }
  return role;
}

HeldOutLabeller HeldOutLabeller::make(const training::Grammar& grammar, const analysis::LabelConfig& lab,
                                      bool special_tokens, int count) {
  HeldOutLabeller labeller;
  labeller.sentences = training::held_out_sentences(grammar, kHeldOutSeed, count, special_tokens);
  labeller.resources.config = training::label_config_for(lab, grammar);
  labeller.resources.gold = training::gold_corpus(labeller.sentences, grammar);
  return labeller;
}

namespace {

std::vector<const Trace*> pointers(const training::HeldOutSet& set) {
  std::vector<const Trace*> traces;
  for (const Trace& trace : set.traces) traces.push_back(&trace);
  return traces;
}

}  // namespace

float held_out_model_loss(const Model& model, const training::Grammar& grammar, const std::vector<training::Sentence>& sentences) {
  const training::Objective objective = model.causal ? training::Objective::next_token : training::Objective::masked_token;
  return training::held_out_loss(model, grammar, sentences, objective, training::MaskingConfig{}, kHeldOutSeed);
}

lessons::HeldOutMeasures measure_held_out(const Model& model, const training::Grammar& grammar,
                                          const std::vector<training::Sentence>& sentences) {
  lessons::HeldOutMeasures measures;
  measures.loss = held_out_model_loss(model, grammar, sentences);
  measures.spreads = analysis::layer_spreads(model, pointers(training::evaluate_sentences(model, grammar, sentences)));
  return measures;
}

HeldOutReading read_held_out(const Model& model, const training::Grammar& grammar, const HeldOutLabeller& labeller) {
  HeldOutReading reading;
  const training::HeldOutSet set = training::evaluate_sentences(model, grammar, labeller.sentences);
  reading.spreads = analysis::layer_spreads(model, pointers(set));
  for (const analysis::PooledHead& head : analysis::label_heads_pooled(set.tokens, set.traces, model.causal, labeller.resources))
    reading.heads.push_back(head_role(head, labeller.resources.config));
  return reading;
}

bool trained_on_grammar(const Model& model, const training::Grammar& grammar) {
  return !model.vocab.empty() && model.vocab == grammar.vocabulary;
}

}  // namespace headlab::app
