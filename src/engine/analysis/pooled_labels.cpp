#include "engine/analysis/pooled_labels.h"

#include <algorithm>

#include "engine/analysis/syntactic.h"

namespace headlab::analysis {
namespace {

// A mean taken over `count` rows (or arcs), kept as sum and count. Sums are doubles: a float mean
// times its count and divided again comes back bit-equal, so one sentence pools to itself.
struct Pool {
  double sum = 0.0;
  int count = 0;
  void add(float mean, int n) {
    sum += static_cast<double>(mean) * n;
    count += n;
  }
  float mean() const { return count > 0 ? static_cast<float>(sum / count) : 0.0f; }
};

struct OffsetPool {
  Pool mass;
  int argmax_rows = 0;
  void add(const OffsetScore& s) {
    mass.add(s.mass, s.rows);
    argmax_rows += s.argmax_rows;
  }
  OffsetScore result() const {
    OffsetScore out;
    out.rows = mass.count;
    out.argmax_rows = argmax_rows;
    if (out.rows > 0) {
      out.mass = mass.mean();
      out.argmax_share = static_cast<float>(argmax_rows) / static_cast<float>(out.rows);
    }
    return out;
  }
};

struct RelationPool {
  RelationScore counts;  // hits and arcs summed
  Pool dependent_to_head_mass, head_to_dependent_mass;
};

// Everything one head's scores add up to over the sentences.
struct HeadPool {
  OffsetPool previous_token, next_token, self;
  Pool local_mass, local_uniform, delimiter, cls, broad;  // over informative rows
  int delimiter_keys = 0, cls_keys = 0;
  Pool content_share, content_off_diagonal;  // over rows with a related word
  Pool rare_mass, rare_uniform;              // over informative rows of sentences with a rare word
  Pool duplicate_mass, duplicate_key_mass, induction_mass, induction_key_mass;  // over repeated rows
  int rare_hits = 0, rare_token = -1, rare_tied = 0, rare_sentence = -1;
  bool evaluated = false;
  int confident_rows = 0, confident_on_arcs = 0, rows = 0, sink_rows = 0, sink_token = -1;
  std::vector<RelationPool> relations;  // in order of first appearance

  void add(const HeadScores& s, const SentenceContext& sentence, int sentence_index) {
    previous_token.add(s.previous_token);
    next_token.add(s.next_token);
    self.add(s.self);
    // score_head's informative rows: all but the first under the causal mask.
    const int rows_scored = sentence.n >= 2 ? sentence.n - (sentence.causal ? 1 : 0) : 0;
    local_mass.add(s.local.mass, rows_scored);
    local_uniform.add(s.local.uniform_share, rows_scored);
    delimiter.add(s.delimiter.mass, rows_scored);
    cls.add(s.cls.mass, rows_scored);
    broad.add(s.broad, rows_scored);
    delimiter_keys += s.delimiter.keys;
    cls_keys += s.cls.keys;
    content_share.add(s.content_similarity.related_share, s.content_similarity.rows);
    content_off_diagonal.add(s.content_similarity.off_diagonal_mass, s.content_similarity.rows);
    if (s.rare_word.rows > 0) {
      rare_mass.add(s.rare_word.mass, s.rare_word.rows);
      rare_uniform.add(s.rare_word.uniform_mass, s.rare_word.rows);
      rare_hits += s.rare_word.hits;
    }
    duplicate_mass.add(s.duplicate_token.mass, s.duplicate_token.rows);
    duplicate_key_mass.add(s.duplicate_token.key_mass, s.duplicate_token.rows);
    induction_mass.add(s.induction.mass, s.induction.rows);
    induction_key_mass.add(s.induction.key_mass, s.induction.rows);
    if (rare_sentence < 0 && s.rare_word.token >= 0) {
      rare_sentence = sentence_index;
      rare_token = s.rare_word.token;
      rare_tied = s.rare_word.tied;
    }
    const SyntacticScore& syntax = s.syntactic;
    if (!syntax.evaluated) return;
    evaluated = true;
    confident_rows += syntax.confident_rows;
    confident_on_arcs += syntax.confident_on_arcs;
    rows += syntax.rows;
    sink_rows += syntax.sink_rows;
    sink_token = syntax.sink_token;
    for (const RelationScore& r : syntax.relations) {
      auto it = std::find_if(relations.begin(), relations.end(),
                             [&](const RelationPool& p) { return p.counts.relation == r.relation; });
      if (it == relations.end()) {
        relations.push_back({});
        it = relations.end() - 1;
        it->counts.relation = r.relation;
        it->counts.baseline = r.baseline;
        it->counts.baseline_offset = r.baseline_offset;
      }
      RelationScore& c = it->counts;
      c.arcs += r.arcs;
      c.dependent_to_head_hits += r.dependent_to_head_hits;
      c.head_to_dependent_hits += r.head_to_dependent_hits;
      c.column_dependent_to_head_hits += r.column_dependent_to_head_hits;
      c.column_head_to_dependent_hits += r.column_head_to_dependent_hits;
      it->dependent_to_head_mass.add(r.dependent_to_head_mass, r.arcs);
      it->head_to_dependent_mass.add(r.head_to_dependent_mass, r.arcs);
    }
  }

  // The pooled scores, finished with the same formulas as score_head and score_syntactic.
  void result(const LabelConfig& config, const AnalysisOptions& options, int sentences, HeadScores& out) const {
    out.previous_token = previous_token.result();
    out.next_token = next_token.result();
    out.self = self.result();
    LocalScore& local = out.local;
    local.window = std::max(0, options.local_window);
    local.mass = local_mass.mean();
    local.uniform_share = local_uniform.mean();
    local.ratio = local.uniform_share > 0.0f ? local.mass / local.uniform_share : 0.0f;
    local.required_mass = std::min(config.local_ratio * local.uniform_share, config.local_mass_cap);
    out.delimiter = {delimiter.mean(), delimiter_keys};
    out.cls = {cls.mean(), cls_keys};
    out.broad = broad.mean();
    ContentScore& content = out.content_similarity;
    content = {};
    content.rows = content_share.count;
    if (content.rows > 0) {
      content.related_share = content_share.mean();
      content.off_diagonal_mass = content_off_diagonal.mean();
      content.score = content.related_share * std::min(1.0f, 2.0f * content.off_diagonal_mass);
    }
    RareWordScore& rare = out.rare_word;
    rare = {};
    rare.token = rare_token;
    rare.tied = rare_tied;
    if (rare_mass.count > 0) {
      rare.rows = rare_mass.count;
      rare.hits = rare_hits;
      rare.share = static_cast<float>(rare_hits) / static_cast<float>(rare.rows);
      rare.mass = rare_mass.mean();
      rare.uniform_mass = rare_uniform.mean();
    }
    out.duplicate_token = {duplicate_mass.mean(), duplicate_key_mass.mean(), duplicate_mass.count};
    out.induction = {induction_mass.mean(), induction_key_mass.mean(), induction_mass.count};
    SyntacticScore& syntax = out.syntactic;
    syntax.evaluated = evaluated;
    syntax.relations.clear();
    for (const RelationPool& p : relations) {
      syntax.relations.push_back(p.counts);
      syntax.relations.back().dependent_to_head_mass = p.dependent_to_head_mass.mean();
      syntax.relations.back().head_to_dependent_mass = p.head_to_dependent_mass.mean();
    }
    syntax.confident_rows = confident_rows;
    syntax.confident_on_arcs = confident_on_arcs;
    syntax.rows = rows;
    syntax.sink_rows = sink_rows;
    syntax.sink_token = sentences == 1 ? sink_token : -1;  // a token index means nothing across sentences
    decide_syntactic(config, syntax);
    out.argmax.clear();
    out.column_mass.resize(0);
  }
};

// The sentence whose tokens the explanation quotes: one with an arc of the claimed relation, the
// one the rare word was taken from, else the first.
int example_sentence(const HeadScores& scores, const HeadPool& pool, const std::vector<SentenceContext>& sentences) {
  if (const RelationScore* best = scores.syntactic.best_relation())
    for (std::size_t s = 0; s < sentences.size(); ++s) {
      if (!sentences[s].gold.has_gold) continue;
      for (const Arc& arc : sentences[s].gold.sentence->arcs)
        if (arc.relation_index == best->relation) return static_cast<int>(s);
    }
  if (pool.rare_sentence >= 0) return pool.rare_sentence;
  return 0;
}

}  // namespace

std::vector<PooledHead> label_heads_pooled(const std::vector<Tokens>& inputs, const std::vector<Trace>& traces,
                                           bool causal, const Resources& resources, const AnalysisOptions& options) {
  const std::size_t count = std::min(inputs.size(), traces.size());
  std::vector<PooledHead> out;
  if (count == 0) return out;
  std::vector<SentenceContext> sentences(count);
  for (std::size_t s = 0; s < count; ++s) make_sentence_context(inputs[s], causal, resources.gold, sentences[s]);
  HeadScores scores;  // one sentence's, reused
  for (std::size_t l = 0; l < traces[0].layers.size(); ++l)
    for (std::size_t h = 0; h < traces[0].layers[l].heads.size(); ++h) {
      HeadPool pool;
      for (std::size_t s = 0; s < count; ++s) {
        const Matrix& attention = traces[s].layers[l].heads[h].attention;  // (n, n), row = query
        score_head(attention, sentences[s], resources.config, options, scores);
        score_syntactic(attention, sentences[s], resources.gold, resources.config, scores.syntactic);
        pool.add(scores, sentences[s], static_cast<int>(s));
      }
      PooledHead head;
      pool.result(resources.config, options, static_cast<int>(count), head.scores);
      const int example = example_sentence(head.scores, pool, sentences);
      label_head(head.scores, sentences[example], resources.gold, inputs[example], resources.config, head.label);
      out.push_back(std::move(head));
    }
  return out;
}

}  // namespace headlab::analysis
