#include "engine/analysis/syntactic.h"

#include <algorithm>
#include <cmath>

namespace headlab::analysis {
namespace {

// Argmax over keys of row i, skipping i itself and special tokens (Clark et al. 2019, sec. 4.2).
int row_partner(const Matrix& attention, const SentenceContext& s, int i) {
  return unique_argmax(attention, i, s.visible(i), [&](int j) { return j != i && !s.is_special[j]; });
}

// Argmax over queries attending to key i (the column), with the same exclusions; under the causal
// mask only later queries can see key i.
int column_partner(const Matrix& attention, const SentenceContext& s, int i) {
  int best = -1;
  float best_value = -1.0f, second_value = -1.0f;
  for (int q = s.causal ? i : 0; q < s.n; ++q) {
    if (q == i || s.is_special[q]) continue;
    const float v = attention(q, i);
    if (v > best_value) {
      second_value = best_value;
      best_value = v;
      best = q;
    } else if (v > second_value) {
      second_value = v;
    }
  }
  if (best >= 0 && second_value >= 0.0f && best_value - second_value <= 1e-5f * best_value) return -1;
  return best;
}

}  // namespace

void score_syntactic(const Matrix& attention, const SentenceContext& sentence, const GoldCorpus& corpus,
                     const LabelConfig& config, SyntacticScore& out) {
  out.relations.clear();  // keeps capacity: no allocation once sizes settle
  out.best = out.column_best = -1;
  out.column_accuracy = 0.0f;
  out.column_head_to_dependent = false;
  out.confident_rows = out.confident_on_arcs = out.rows = out.sink_rows = 0;
  out.sink_token = -1;
  out.selectivity = 0.0f;
  out.evaluated = sentence.gold.has_gold;
  if (!out.evaluated) return;
  const GoldSentence& gold = *sentence.gold.sentence;
  const std::vector<int>& at = sentence.gold.input_index;
  // Selectivity: does the head's sharp attention follow the parse, or land anywhere? And is there
  // a sink, one word most rows look at?
  int confident = 0, on_arcs = 0, rows = 0;
  std::vector<int>& looked_at = out.looked_at;  // (n) rows whose other-word argmax is each word
  looked_at.assign(sentence.n, 0);
  for (int i = 0; i < sentence.n; ++i) {
    if (sentence.is_special[i] || sentence.visible(i) < 2) continue;
    ++rows;
    const int partner = row_partner(attention, sentence, i);
    if (partner < 0) continue;
    ++looked_at[partner];
    if (attention(i, partner) < config.syntactic_confident_row_mass) continue;
    ++confident;
    on_arcs += sentence.is_gold_neighbour(i, partner);
  }
  out.confident_rows = confident;
  out.confident_on_arcs = on_arcs;
  out.rows = rows;
  out.sink_token = -1;
  out.sink_rows = 0;
  for (int j = 0; j < sentence.n; ++j) {
    if (looked_at[j] > config.syntactic_max_sink_share * rows) out.sink_token = j;
    out.sink_rows = std::max(out.sink_rows, looked_at[j]);
  }
  const auto& excluded = config.syntactic_excluded_relations;
  for (const Arc& arc : gold.arcs) {
    if (std::find(excluded.begin(), excluded.end(), arc.relation) != excluded.end()) continue;
    RelationScore* score = nullptr;
    for (RelationScore& r : out.relations)
      if (r.relation == arc.relation_index) score = &r;
    if (!score) {
      out.relations.push_back({});
      score = &out.relations.back();
      score->relation = arc.relation_index;
      const FixedOffsetBaseline& baseline = corpus.baselines[arc.relation_index];
      score->baseline = baseline.accuracy;
      score->baseline_offset = baseline.offset;
    }
    const int dependent = at[arc.dependent], head = at[arc.head];
    ++score->arcs;
    score->dependent_to_head_hits += row_partner(attention, sentence, dependent) == head;
    score->head_to_dependent_hits += row_partner(attention, sentence, head) == dependent;
    // Under the causal mask a word cannot see later words: that attention is 0, honestly a miss.
    score->dependent_to_head_mass += attention(dependent, head);
    score->head_to_dependent_mass += attention(head, dependent);
    score->column_dependent_to_head_hits += column_partner(attention, sentence, dependent) == head;
    score->column_head_to_dependent_hits += column_partner(attention, sentence, head) == dependent;
  }
  for (RelationScore& r : out.relations) {
    r.dependent_to_head_mass /= static_cast<float>(r.arcs);
    r.head_to_dependent_mass /= static_cast<float>(r.arcs);
  }
  decide_syntactic(config, out);
}

void decide_syntactic(const LabelConfig& config, SyntacticScore& out) {
  out.best = out.column_best = -1;
  out.column_accuracy = 0.0f;
  out.column_head_to_dependent = false;
  const int confident = out.confident_rows;
  out.selectivity = confident > 0 ? static_cast<float>(out.confident_on_arcs) / static_cast<float>(confident) : 0.0f;
  const bool sink = out.sink_rows > config.syntactic_max_sink_share * out.rows;
  const bool selective = confident > 0 && out.selectivity >= config.syntactic_min_selectivity && !sink;
  float best_margin = -2.0f;
  for (std::size_t k = 0; k < out.relations.size(); ++k) {
    RelationScore& r = out.relations[k];
    const float arcs = static_cast<float>(r.arcs);
    const float forward = r.dependent_to_head_hits / arcs, backward = r.head_to_dependent_hits / arcs;
    r.head_to_dependent = backward > forward || (backward == forward && r.head_to_dependent_mass > r.dependent_to_head_mass);
    r.accuracy = r.head_to_dependent ? backward : forward;
    // Both ways: the two directions about equally accurate, or the weaker one on its own clearing the
    // bar a relation is claimed by.
    const float weaker = std::min(forward, backward);
    const float weaker_mass = r.head_to_dependent ? r.dependent_to_head_mass : r.head_to_dependent_mass;
    r.both_ways = std::abs(forward - backward) <= config.syntactic_direction_tie + 1e-6f ||
                  (weaker >= r.baseline + config.syntactic_margin - 1e-6f && weaker_mass >= config.syntactic_min_target_mass);
    r.partner_mass = r.head_to_dependent ? r.head_to_dependent_mass : r.dependent_to_head_mass;
    r.claimed = r.accuracy >= r.baseline + config.syntactic_margin - 1e-6f &&
                r.partner_mass >= config.syntactic_min_target_mass && selective;
    // Claimed relations first, then the largest gain over the baseline, then more arcs.
    const float margin = r.accuracy - r.baseline + (r.claimed ? 2.0f : 0.0f);
    if (margin > best_margin || (margin == best_margin && r.arcs > out.relations[out.best].arcs)) {
      best_margin = margin;
      out.best = static_cast<int>(k);
    }
    const float column_forward = r.column_dependent_to_head_hits / arcs;
    const float column_backward = r.column_head_to_dependent_hits / arcs;
    const float column = std::max(column_forward, column_backward);
    if (column > out.column_accuracy) {
      out.column_accuracy = column;
      out.column_best = static_cast<int>(k);
      out.column_head_to_dependent = column_backward > column_forward;
    }
  }
}

}  // namespace headlab::analysis
