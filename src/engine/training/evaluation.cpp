#include "evaluation.h"

#include <map>

#include "backprop.h"
#include "engine/embedding.h"

namespace headlab::training {
namespace {

bool excluded_key(const Sentence& s, int query, int key) {
  return key == query || s.pos[key] == PartOfSpeech::special;
}

// Row argmax of A (n, n) for `query`, excluding the query itself, [CLS] and [SEP].
int argmax_excluding(const Matrix& A, const Sentence& s, int query) {
  int best = -1;
  for (int j = 0; j < s.size(); ++j)
    if (!excluded_key(s, query, j) && (best < 0 || A(query, j) > A(query, best))) best = j;
  return best;
}

}  // namespace

std::vector<Sentence> held_out_sentences(const Grammar& grammar, std::uint32_t seed, int count, bool special_tokens) {
  return generate_sentences(grammar, stream_seed(seed, 0x4E1D0), count, special_tokens);
}

float held_out_loss(const Model& model, const Grammar& grammar, const std::vector<Sentence>& sentences,
                    Objective objective, const MaskingConfig& masking, std::uint32_t seed) {
  return held_out_loss(model, grammar.vocabulary_size(), sentences, objective, masking, seed);
}

float held_out_loss(const Model& model, int vocabulary_size, const std::vector<Sentence>& sentences,
                    Objective objective, const MaskingConfig& masking, std::uint32_t seed) {
  Rng rng(stream_seed(seed, 0x4E1D1));
  Batch batch;
  make_batch(sentences, objective, masking, vocabulary_size, rng, batch);
  Workspace ws;
  return forward_batch(model, batch, ws);
}

HeldOutSet evaluate_sentences(const Model& model, const Grammar& grammar, std::vector<Sentence> sentences) {
  HeldOutSet set;
  set.sentences = std::move(sentences);
  set.tokens.reserve(set.sentences.size());
  set.traces.resize(set.sentences.size());
  for (std::size_t i = 0; i < set.sentences.size(); ++i) {
    set.tokens.push_back(to_tokens(set.sentences[i], grammar));
    forward(model, embed(set.tokens.back(), model), set.traces[i]);
  }
  return set;
}

ArcReport arc_report(const HeldOutSet& held_out, const Grammar& grammar) {
  ArcReport report;
  report.relations = grammar.relations;
  report.control = grammar.control_relation;
  const int relation_count = static_cast<int>(grammar.relations.size());
  if (held_out.traces.empty()) return report;
  const Trace& first = held_out.traces.front();
  // Baselines: the most frequent offset partner - query per relation and direction.
  std::vector<std::map<int, int>> offsets[2];
  offsets[0].resize(relation_count);
  offsets[1].resize(relation_count);
  report.baselines.resize(relation_count);
  for (const Sentence& s : held_out.sentences)
    for (int d = 0; d < s.size(); ++d) {
      const int r = s.relation[d];
      if (r < 0 || s.head[d] < 0) continue;
      ++report.baselines[r].arcs;
      ++offsets[kDependentToHead][r][s.head[d] - d];
      ++offsets[kHeadToDependent][r][d - s.head[d]];
    }
  for (int r = 0; r < relation_count; ++r)
    for (int dir = 0; dir < 2; ++dir) {
      int best_count = 0;
      for (const auto& [offset, count] : offsets[dir][r])
        if (count > best_count) {
          best_count = count;
          report.baselines[r].offset[dir] = offset;
        }
      if (report.baselines[r].arcs > 0)
        report.baselines[r].accuracy[dir] = static_cast<float>(best_count) / report.baselines[r].arcs;
    }

  for (std::size_t l = 0; l < first.layers.size(); ++l)
    for (std::size_t h = 0; h < first.layers[l].heads.size(); ++h) {
      HeadArcScores scores;
      scores.layer = static_cast<int>(l);
      scores.head = static_cast<int>(h);
      std::vector<int> correct[2] = {std::vector<int>(relation_count), std::vector<int>(relation_count)};
      double previous = 0, previous_argmax = 0, next = 0, next_argmax = 0, self = 0, cls = 0, delimiter = 0;
      long rows = 0, rows_with_previous = 0, rows_with_next = 0;
      for (std::size_t i = 0; i < held_out.sentences.size(); ++i) {
        const Sentence& s = held_out.sentences[i];
        const Matrix& A = held_out.traces[i].layers[l].heads[h].attention;  // (n, n)
        const int n = s.size();
        for (int q = 0; q < n; ++q) {
          Eigen::Index argmax = 0;
          A.row(q).maxCoeff(&argmax);
          ++rows;
          self += A(q, q);
          if (q > 0) {
            ++rows_with_previous;
            previous += A(q, q - 1);
            previous_argmax += argmax == q - 1 ? 1 : 0;
          }
          if (q + 1 < n) {
            ++rows_with_next;
            next += A(q, q + 1);
            next_argmax += argmax == q + 1 ? 1 : 0;
          }
          for (int k = 0; k < n; ++k) {
            if (s.tokens[k] == kTokenCls) cls += A(q, k);
            if (s.tokens[k] == kTokenSep || s.pos[k] == PartOfSpeech::punct) delimiter += A(q, k);
          }
          const int r = s.relation[q];
          if (r >= 0 && s.head[q] >= 0) {
            const int head = s.head[q];
            if (argmax_excluding(A, s, q) == head) ++correct[kDependentToHead][r];
            if (argmax_excluding(A, s, head) == q) ++correct[kHeadToDependent][r];
          }
        }
      }
      for (int dir = 0; dir < 2; ++dir) {
        scores.arc_accuracy[dir].resize(relation_count);
        for (int r = 0; r < relation_count; ++r)
          scores.arc_accuracy[dir][r] = report.baselines[r].arcs > 0
              ? static_cast<float>(correct[dir][r]) / report.baselines[r].arcs : 0.0f;
      }
      scores.previous_token = rows_with_previous ? static_cast<float>(previous / rows_with_previous) : 0.0f;
      scores.previous_argmax = rows_with_previous ? static_cast<float>(previous_argmax / rows_with_previous) : 0.0f;
      scores.next_token = rows_with_next ? static_cast<float>(next / rows_with_next) : 0.0f;
      scores.next_argmax = rows_with_next ? static_cast<float>(next_argmax / rows_with_next) : 0.0f;
      scores.self = rows ? static_cast<float>(self / rows) : 0.0f;
      scores.cls = rows ? static_cast<float>(cls / rows) : 0.0f;
      scores.delimiter = rows ? static_cast<float>(delimiter / rows) : 0.0f;
      report.heads.push_back(std::move(scores));
    }
  return report;
}

BestHead best_head(const ArcReport& report, int relation) {
  BestHead best;
  for (const HeadArcScores& h : report.heads)
    for (int dir = 0; dir < 2; ++dir)
      if (best.layer < 0 || h.arc_accuracy[dir][relation] > best.accuracy) {
        best.layer = h.layer;
        best.head = h.head;
        best.direction = static_cast<ArcDirection>(dir);
        best.accuracy = h.arc_accuracy[dir][relation];
        best.baseline = report.baselines[relation].accuracy[dir];
        best.baseline_offset = report.baselines[relation].offset[dir];
      }
  return best;
}

BestHead best_previous_token_head(const ArcReport& report) {
  BestHead best;
  for (const HeadArcScores& h : report.heads)
    if (best.layer < 0 || h.previous_token > best.accuracy) {
      best.layer = h.layer;
      best.head = h.head;
      best.accuracy = h.previous_token;
      best.baseline = 0.5f;
      best.baseline_offset = -1;
    }
  return best;
}

}  // namespace headlab::training
