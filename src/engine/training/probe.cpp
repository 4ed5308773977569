#include "probe.h"

#include "rng.h"

namespace headlab::training {
namespace {

constexpr int kPosClassCount = static_cast<int>(PartOfSpeech::unknown) + 1;

int attended(const Matrix& A, int query) {
  Eigen::Index best = 0;
  A.row(query).maxCoeff(&best);
  return static_cast<int>(best);
}

// Relation label of (query, key): 0 none, 1 + r the query's head with relation r, 1 + R + r the
// query heads the key with relation r.
int relation_label(const Sentence& s, int query, int key, int relation_count) {
  if (s.head[query] == key && s.relation[query] >= 0) return 1 + s.relation[query];
  if (s.head[key] == query && s.relation[key] >= 0) return 1 + relation_count + s.relation[key];
  return 0;
}

// Draws one label per slot from the empirical distribution `counts`.
std::vector<int> control_labels(const std::vector<long>& counts, std::size_t slots, Rng& rng) {
  long total = 0;
  for (long c : counts) total += c;
  std::vector<int> labels(slots, 0);
  for (int& label : labels) {
    long u = total > 0 ? static_cast<long>(rng.next_u64() % static_cast<std::uint64_t>(total)) : 0;
    label = 0;
    while (label + 1 < static_cast<int>(counts.size()) && u >= counts[label]) u -= counts[label++];
  }
  return labels;
}

struct Examples {
  Matrix X;  // (N, d_v) Z rows
  std::vector<int> pos, pos_control, relation, relation_control;
  std::vector<int> pair;  // query id * V + attended id, for the relation control
};

Examples examples(const ProbeData& data, const HeldOutSet& set, int layer, int head, int relation_count) {
  Examples e;
  long rows = 0;
  for (const Sentence& s : set.sentences)
    for (int q = 0; q < s.size(); ++q) rows += s.pos[q] != PartOfSpeech::special ? 1 : 0;
  const int d_v = set.traces.empty() ? 0 : static_cast<int>(set.traces[0].layers[layer].heads[head].Z.cols());
  e.X.resize(rows, d_v);
  long row = 0;
  for (std::size_t i = 0; i < set.sentences.size(); ++i) {
    const Sentence& s = set.sentences[i];
    const HeadTrace& trace = set.traces[i].layers[layer].heads[head];
    for (int q = 0; q < s.size(); ++q) {
      if (s.pos[q] == PartOfSpeech::special) continue;
      const int key = attended(trace.attention, q);
      e.X.row(row++) = trace.Z.row(q);
      e.pos.push_back(static_cast<int>(s.pos[q]));
      e.pos_control.push_back(data.pos_control[s.tokens[q]]);
      e.relation.push_back(relation_label(s, q, key, relation_count));
      e.pair.push_back(s.tokens[q] * data.vocabulary_size + s.tokens[key]);
    }
  }
  return e;
}

}  // namespace

ProbeData prepare_probes(const Model& model, const Grammar& grammar, const ProbeConfig& config) {
  ProbeData data;
  const bool special = model.special_tokens;
  data.train = evaluate_sentences(model, grammar,
                                  generate_sentences(grammar, stream_seed(config.seed, 0x960B), config.train_sentences, special));
  data.test = evaluate_sentences(model, grammar,
                                 generate_sentences(grammar, stream_seed(config.seed, 0x960C), config.test_sentences, special));
  data.relation_labels.push_back("none");
  for (const std::string& r : grammar.relations) data.relation_labels.push_back(r);
  for (const std::string& r : grammar.relations) data.relation_labels.push_back(r + "^-1");
  data.vocabulary_size = grammar.vocabulary_size();
  // Control POS labels: one per word type, from the empirical POS distribution of the training set.
  std::vector<long> pos_counts(kPosClassCount, 0);
  for (const Sentence& s : data.train.sentences)
    for (int q = 0; q < s.size(); ++q)
      if (s.pos[q] != PartOfSpeech::special) ++pos_counts[static_cast<int>(s.pos[q])];
  Rng rng(stream_seed(config.seed, 0xC047));
  data.pos_control = control_labels(pos_counts, data.vocabulary_size, rng);
  return data;
}

HeadProbe probe_head(const ProbeData& data, int layer, int head, const ProbeConfig& config) {
  const int relation_count = static_cast<int>((data.relation_labels.size() - 1) / 2);
  Examples train = examples(data, data.train, layer, head, relation_count);
  Examples test = examples(data, data.test, layer, head, relation_count);
  // Control relation labels: one per (query type, attended type) pair, from this head's empirical
  // relation-label distribution on the training sentences.
  std::vector<long> counts(data.relation_labels.size(), 0);
  for (int label : train.relation) ++counts[label];
  Rng rng(stream_seed(config.seed, 0xC048 + 97 * layer + head));
  const std::vector<int> control =
      control_labels(counts, static_cast<std::size_t>(data.vocabulary_size) * data.vocabulary_size, rng);
  for (Examples* e : {&train, &test})
    for (int pair : e->pair) e->relation_control.push_back(control[pair]);
  const int relation_classes = static_cast<int>(data.relation_labels.size());
  const auto score = [&](const std::vector<int>& train_labels, const std::vector<int>& test_labels, int classes) {
    return accuracy(fit_logistic_regression(train.X, train_labels, classes, config.regression), test.X, test_labels);
  };
  HeadProbe p;
  p.layer = layer;
  p.head = head;
  p.pos_accuracy = score(train.pos, test.pos, kPosClassCount);
  p.pos_control_accuracy = score(train.pos_control, test.pos_control, kPosClassCount);
  p.pos_selectivity = p.pos_accuracy - p.pos_control_accuracy;
  p.relation_accuracy = score(train.relation, test.relation, relation_classes);
  p.relation_control_accuracy = score(train.relation_control, test.relation_control, relation_classes);
  p.relation_selectivity = p.relation_accuracy - p.relation_control_accuracy;
  return p;
}

std::vector<HeadProbe> probe_heads(const Model& model, const Grammar& grammar, const ProbeConfig& config) {
  const ProbeData data = prepare_probes(model, grammar, config);
  std::vector<HeadProbe> probes;
  for (int l = 0; l < static_cast<int>(model.layers.size()); ++l)
    for (int h = 0; h < model.layers[l].head_count(); ++h) probes.push_back(probe_head(data, l, h, config));
  return probes;
}

}  // namespace headlab::training
