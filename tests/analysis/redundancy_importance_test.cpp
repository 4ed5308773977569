// Redundancy (Jensen-Shannon distance between heads) against a naive double-precision reference,
// importance by ablation against re-running the model with the head pruned, and pruning.
#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "analysis_fixture.h"

namespace headlab::analysis {
namespace {

// Mean over rows of sqrt(JS) with natural log and Clark's smoothing, in double, written apart
// from the engine's fast-log path.
double reference_distance(const Matrix& a, const Matrix& b, bool causal, double smoothing) {
  const int n = static_cast<int>(a.rows());
  double total = 0;
  for (int i = 0; i < n; ++i) {
    const int k = causal ? i + 1 : n;
    double js = 0;
    for (int j = 0; j < k; ++j) {
      const double p = (1 - smoothing) * a(i, j) + smoothing / k;
      const double q = (1 - smoothing) * b(i, j) + smoothing / k;
      const double m = 0.5 * (p + q);
      js += 0.5 * p * std::log(p / m) + 0.5 * q * std::log(q / m);
    }
    total += std::sqrt(std::max(0.0, js));
  }
  return total / n;
}

class RedundancyImportanceTest : public AnalysisTest {};

// Within the 1e-4 the lab promises, and the 2e-5 redundancy.h states. Trials 12 and later have
// peaked heads, with keys between 0 and 1e-9 that redundancy takes as at the smoothing floor, and a
// head that nearly copies another, where sqrt(JS) magnifies any error.
TEST_F(RedundancyImportanceTest, MatchesTheReferenceOnRandomHeads) {
  std::mt19937 rng(5);
  double worst = 0.0;
  int negligible_keys = 0;
  for (int trial = 0; trial < 20; ++trial) {
    const bool causal = trial % 3 == 0, peaked = trial >= 12;
    Document doc = text_document(sentence_text(trial % 2 ? "fox" : "two_pets"), 4, 100 + trial);
    doc.model.causal = causal;
    for (HeadWeights& w : doc.model.layers[0].heads) w.W_Q = test_random(24, 6, rng, peaked ? 12.0f : 1.5f);
    if (peaked) {
      doc.model.layers[0].heads[3] = doc.model.layers[0].heads[0];
      doc.model.layers[0].heads[3].W_Q *= 1.0f + 1e-4f * static_cast<float>(trial - 11);
    }
    const LabRun r = run(doc);
    const Matrix D = redundancy_of(r, 0).distance;
    ASSERT_EQ(D.rows(), 4);
    for (int a = 0; a < 4; ++a) {
      EXPECT_EQ(D(a, a), 0.0f);
      for (int b = 0; b < 4; ++b) {
        EXPECT_EQ(D(a, b), D(b, a));
        if (a == b) continue;
        const double expected = reference_distance(r.attention(0, a), r.attention(0, b), causal, 1e-4);
        EXPECT_NEAR(D(a, b), expected, 1e-4) << "trial " << trial << " heads " << a << "," << b;
        EXPECT_LE(D(a, b), std::sqrt(std::log(2.0)) + 1e-5);
        worst = std::max(worst, std::fabs(D(a, b) - expected));
      }
      if (peaked) negligible_keys += (r.attention(0, a).array() > 0.0f && r.attention(0, a).array() < 1e-9f).count();
    }
  }
  EXPECT_LT(worst, 2e-5);
  EXPECT_GT(negligible_keys, 0);
}

// At the size the analysis budget is set for (4 layers x 16 heads, 32 tokens, rows peaked as in
// api::AnalysisWorkload), with and without the causal mask: the same bounds on all 960 pairs.
// Peaked rows hold keys more than 87 below the row's largest score: the softmax writes exactly 0 for
// them (forward.h), where e^x would be a denormal, and redundancy reads them as 0.
TEST_F(RedundancyImportanceTest, MatchesTheReferenceAtTheBudgetSize) {
  const std::vector<std::string> words = {"The", "quick", "brown", "fox", "jumps", "over", "the", "lazy", "dog", ".",
                                          "The", "dog", "with", "the", "red", "ball", "sleeps", ".", "The", "cat",
                                          "chased", "the", "mouse", ",", "and", "the", "aardvark", "ate", "the", "apple",
                                          "slowly", "."};
  double worst = 0.0;
  int vanished_keys = 0;  // visible keys whose weight is exactly 0
  for (const bool causal : {false, true}) {
    Document doc;
    doc.model = make_model(64, 4, 16, causal ? 2u : 1u);
    doc.model.causal = causal;
    for (Layer& layer : doc.model.layers)
      for (HeadWeights& w : layer.heads) w.W_Q *= 4.0f;
    doc.input.kind = InputKind::tokens;
    doc.input.tokens = words;
    const LabRun r = run(doc);
    for (int l = 0; l < 4; ++l) {
      const Matrix D = redundancy_of(r, l).distance;
      for (int a = 0; a < 16; ++a) {
        const Matrix& A = r.attention(l, a);
        for (Eigen::Index i = 0; i < A.rows(); ++i)
          for (Eigen::Index j = 0; j < (causal ? i + 1 : A.cols()); ++j) {
            vanished_keys += A(i, j) == 0.0f;
            EXPECT_NE(std::fpclassify(A(i, j)), FP_SUBNORMAL);
          }
        for (int b = a + 1; b < 16; ++b) {
          const double expected = reference_distance(A, r.attention(l, b), causal, 1e-4);
          EXPECT_NEAR(D(a, b), expected, 1e-4) << "causal " << causal << " layer " << l << " heads " << a << "," << b;
          worst = std::max(worst, std::fabs(D(a, b) - expected));
        }
      }
    }
  }
  EXPECT_LT(worst, 2e-5);
  EXPECT_GT(vanished_keys, 0);
}

TEST_F(RedundancyImportanceTest, IdenticalHeadsAreZeroApartAndFlagged) {
  Document doc = text_document(sentence_text("fox"), 4);
  ASSERT_EQ(apply_preset(doc.model, 0, 0, preset("previous_token")), "");
  ASSERT_EQ(apply_preset(doc.model, 0, 1, preset("next_token")), "");
  doc.model.layers[0].heads[3] = doc.model.layers[0].heads[0];
  const LabRun r = run(doc);
  const LayerRedundancy layer = redundancy_of(r, 0);
  EXPECT_NEAR(layer.distance(0, 3), 0.0f, 1e-3f);
  EXPECT_GT(layer.distance(0, 1), 0.5f);  // previous vs next token: nearly disjoint rows
  const auto& pairs = layer.near_duplicates;
  EXPECT_NE(std::find(pairs.begin(), pairs.end(), std::make_pair(0, 3)), pairs.end());
  EXPECT_EQ(std::find(pairs.begin(), pairs.end(), std::make_pair(0, 1)), pairs.end());
}

// importance_h = ||out - out_without_h|| / ||out||, measured by pruning the head and re-running.
void expect_importance_matches_ablation(const LabRun& r, int layer) {
  const Layer& l = r.document.model.layers[layer];
  const Matrix& out = r.trace.layers[layer].output;
  for (int h = 0; h < l.head_count(); ++h) {
    Model ablated = r.document.model;
    const bool was_pruned = ablated.layers[layer].heads[h].pruned;
    ablated.layers[layer].heads[h].pruned = true;
    Trace t;
    forward(ablated, r.trace.X, t);
    const double expected = was_pruned ? 0.0 : (out - t.layers[layer].output).norm() / out.norm();
    EXPECT_NEAR(r.head(layer, h).importance, expected, 1e-4 + 1e-3 * expected) << "layer " << layer << " head " << h;
  }
}

TEST_F(RedundancyImportanceTest, ImportanceIsTheRelativeChangeWhenMasked) {
  std::mt19937 rng(9);
  Document doc = text_document(sentence_text("fox"), 4, 3);
  set_layer_count(doc.model, 3, 4);
  doc.model.layers[0].W_O = test_random(24, 24, rng, 0.3f);  // linear layer: closed form
  Layer& mid = doc.model.layers[1];                            // residual + post-norm + FFN
  mid.residual = true;
  mid.norm = Norm::post;
  set_ffn(doc.model, 1, true);
  Layer& last = doc.model.layers[2];                           // pre-norm + residual
  last.residual = true;
  last.norm = Norm::pre;
  last.heads[2].pruned = true;
  const LabRun r = run(doc);
  for (int layer = 0; layer < 3; ++layer) expect_importance_matches_ablation(r, layer);
  EXPECT_EQ(r.head(2, 2).importance, 0.0f);
  EXPECT_EQ(r.head(2, 2).importance_rank, -1);
  EXPECT_EQ(r.analysis.layers[2].importance_ranking.size(), 3u);
}

// A GPT-2 block: pre-norm, GELU (tanh) MLP with biases. Ablation must run the layer's own
// activation, not the toy models' ReLU.
TEST_F(RedundancyImportanceTest, ImportanceOfAGeluBlockIsTheChangeWhenMasked) {
  std::mt19937 rng(4);
  Document doc = text_document(sentence_text("fox"), 4, 3);
  set_layer_count(doc.model, 2, 4);
  for (int l = 0; l < 2; ++l) {
    Layer& layer = doc.model.layers[l];
    layer.residual = true;
    layer.norm = Norm::pre;
    set_ffn(doc.model, l, true);
    layer.ffn.activation = Activation::gelu_tanh;
    layer.ffn.b_1 = test_random(1, layer.ffn.W_1.cols(), rng, 0.5f);
    layer.b_O = test_random(1, 24, rng, 0.2f);
  }
  const LabRun r = run(doc);
  for (int layer = 0; layer < 2; ++layer) expect_importance_matches_ablation(r, layer);
}

TEST_F(RedundancyImportanceTest, PruneLeastImportantMarksExactlyK) {
  Document doc = text_document(sentence_text("fox"), 6, 4);
  std::mt19937 rng(2);
  doc.model.layers[0].d_v = 4;
  for (HeadWeights& w : doc.model.layers[0].heads) w.W_V = test_random(24, 4, rng);
  doc.model.layers[0].W_O = test_random(24, 24, rng);
  const LabRun r = run(doc);
  std::vector<float> importance;
  for (const HeadAnalysis& h : r.analysis.layers[0].heads) importance.push_back(h.importance);
  const std::vector<int> ranking = r.analysis.layers[0].importance_ranking;
  ASSERT_EQ(ranking.size(), 6u);
  for (std::size_t k = 1; k < ranking.size(); ++k) EXPECT_LE(importance[ranking[k - 1]], importance[ranking[k]]);

  Model model = doc.model;
  Result<std::vector<int>> pruned = prune_least_important(model, 0, 2, importance);
  ASSERT_TRUE(pruned.ok()) << pruned.error();
  EXPECT_EQ(pruned.value(), std::vector<int>(ranking.begin(), ranking.begin() + 2));
  int count = 0;
  for (const HeadWeights& w : model.layers[0].heads) count += w.pruned;
  EXPECT_EQ(count, 2);
  // Already pruned heads are skipped: 4 remain, so 3 more is the most allowed.
  EXPECT_FALSE(prune_least_important(model, 0, 4, importance).ok());
  EXPECT_FALSE(prune_least_important(model, 0, 0, importance).ok());
  EXPECT_FALSE(prune_least_important(model, 5, 1, importance).ok());
  EXPECT_FALSE(prune_least_important(model, 0, 1, {1.0f}).ok());
  Result<std::vector<int>> more = prune_least_important(model, 0, 3, importance);
  ASSERT_TRUE(more.ok()) << more.error();
  count = 0;
  for (const HeadWeights& w : model.layers[0].heads) count += w.pruned;
  EXPECT_EQ(count, 5);
  // Measuring importance on an input in the same call gives the same choice.
  Model measured = doc.model;
  Result<std::vector<int>> by_input = prune_least_important(measured, r.input.X, 0, 2);
  ASSERT_TRUE(by_input.ok()) << by_input.error();
  EXPECT_EQ(by_input.value(), pruned.value());
  EXPECT_FALSE(prune_least_important(measured, Matrix::Zero(3, 5), 0, 1).ok());
}

}  // namespace
}  // namespace headlab::analysis

namespace headlab::analysis {
namespace {

// The analysis of an edit rescores only the heads whose attention changed, with the result of a
// fresh analysis.
TEST_F(RedundancyImportanceTest, IncrementalRecomputeEqualsAFreshOne) {
  Document doc = text_document(sentence_text("fox"), 8, 11);
  std::mt19937 rng(4);
  for (HeadWeights& w : doc.model.layers[0].heads) w.W_Q = test_random(24, 3, rng, 1.5f);
  LabRun r = run(doc);
  Analysis& incremental = r.analysis;
  EXPECT_EQ(incremental.heads_scored, 8);
  // Edit one head (and W_O, which changes importance but no attention): only it is rescored.
  r.document.model.layers[0].heads[5].W_Q *= 2.0f;
  r.document.model.layers[0].W_O(3, 4) = 0.5f;
  forward(r.document.model, r.input.X, r.trace);
  analyze(r.document.model, r.input.tokens, r.trace, resources(), {}, incremental);
  EXPECT_EQ(incremental.heads_scored, 1);
  Analysis fresh;
  analyze(r.document.model, r.input.tokens, r.trace, resources(), {}, fresh);
  for (int h = 0; h < 8; ++h) {
    const HeadAnalysis& a = incremental.layers[0].heads[h];
    const HeadAnalysis& b = fresh.layers[0].heads[h];
    EXPECT_EQ(a.importance, b.importance);
    EXPECT_EQ(a.label.text(), b.label.text());
    EXPECT_EQ(a.label.explanation, b.label.explanation);
    for (int role = 0; role < kRoleCount; ++role)
      EXPECT_EQ(a.scores.score(static_cast<Role>(role)), b.scores.score(static_cast<Role>(role))) << role;
  }
  // Nothing changed: nothing rescored.
  analyze(r.document.model, r.input.tokens, r.trace, resources(), {}, incremental);
  EXPECT_EQ(incremental.heads_scored, 0);
  // A different sentence length starts over.
  r.document.input.text = "The cat sat.";
  r.input = prepare_input(r.document, lexicon());
  forward(r.document.model, r.input.X, r.trace);
  analyze(r.document.model, r.input.tokens, r.trace, resources(), {}, incremental);
  EXPECT_EQ(incremental.heads_scored, 8);
  // Same attention, other options: every head is rescored.
  AnalysisOptions wide;
  wide.local_window = 3;
  analyze(r.document.model, r.input.tokens, r.trace, resources(), wide, incremental);
  EXPECT_EQ(incremental.heads_scored, 8);
  EXPECT_EQ(incremental.layers[0].heads[0].scores.local.window, 3);
  // Another head count in the same layer: every head is rescored.
  set_head_count(r.document.model, 0, 6);
  forward(r.document.model, r.input.X, r.trace);
  analyze(r.document.model, r.input.tokens, r.trace, resources(), wide, incremental);
  EXPECT_EQ(incremental.heads_scored, 6);
  // An empty input analyses to nothing without tripping over the remembered state.
  r.document.input.text = "";
  r.input = prepare_input(r.document, lexicon());
  forward(r.document.model, r.input.X, r.trace);
  analyze(r.document.model, r.input.tokens, r.trace, resources(), {}, incremental);
  EXPECT_EQ(incremental.layers[0].heads.size(), 6u);
}

// A workspace that saw the layer before an edit redoes only the pairs of the edited head, with the
// numbers of a fresh one (the Labels tab keeps one per layer).
TEST_F(RedundancyImportanceTest, IncrementalRedundancyEqualsAFreshOne) {
  Document doc = text_document(sentence_text("fox"), 8, 11);
  std::mt19937 rng(4);
  for (HeadWeights& w : doc.model.layers[0].heads) w.W_Q = test_random(24, 3, rng, 1.5f);
  doc.model.layers[0].heads[6] = doc.model.layers[0].heads[2];  // one near-duplicate pair
  LabRun r = run(doc);
  RedundancyWorkspace workspace;
  LayerRedundancy incremental;
  layer_redundancy(r.trace.layers[0], false, resources().config, workspace, incremental);
  EXPECT_EQ(workspace.pairs_computed, 28);
  EXPECT_EQ(incremental.near_duplicates, (std::vector<std::pair<int, int>>{{2, 6}}));
  r.document.model.layers[0].heads[5].W_Q *= 2.0f;
  forward(r.document.model, r.input.X, r.trace);
  layer_redundancy(r.trace.layers[0], false, resources().config, workspace, incremental);
  EXPECT_EQ(workspace.pairs_computed, 7);
  const LayerRedundancy fresh = layer_redundancy(r.trace.layers[0], false, resources().config);
  EXPECT_EQ(incremental.distance, fresh.distance);
  EXPECT_EQ(incremental.near_duplicates, fresh.near_duplicates);
  layer_redundancy(r.trace.layers[0], false, resources().config, workspace, incremental);
  EXPECT_EQ(workspace.pairs_computed, 0);
  EXPECT_EQ(incremental.distance, fresh.distance);
}

// layer_redundancy is redundancy() with the lab's thresholds, bit for bit: the numbers the analysis
// of every edit used to carry, on a causal and a bidirectional model of the budget's size.
TEST_F(RedundancyImportanceTest, OnDemandRedundancyIsTheEngineFunctionsWithTheLabsThresholds) {
  for (const bool causal : {false, true}) {
    Document doc;
    doc.model = make_model(64, 4, 16, 3);
    doc.model.causal = causal;
    for (Layer& layer : doc.model.layers)
      for (HeadWeights& w : layer.heads) w.W_Q *= 4.0f;
    doc.model.layers[1].heads[9] = doc.model.layers[1].heads[4];
    doc.input.text = sentence_text("fox");
    const LabRun r = run(doc);
    const LabelConfig& config = resources().config;
    RedundancyWorkspace shared;  // one for every layer, as the per-edit analysis used
    for (int l = 0; l < 4; ++l) {
      Matrix distance;
      std::vector<std::pair<int, int>> pairs;
      analysis::redundancy(r.trace.layers[l], causal, config.redundancy_smoothing, config.near_duplicate_distance, shared,
                           distance, pairs);
      const LayerRedundancy on_demand = layer_redundancy(r.trace.layers[l], causal, config);
      EXPECT_EQ(on_demand.distance, distance) << "layer " << l;
      EXPECT_EQ(on_demand.near_duplicates, pairs) << "layer " << l;
      if (l == 1) {
        EXPECT_NE(std::find(pairs.begin(), pairs.end(), std::make_pair(4, 9)), pairs.end()) << "the copied head";
      }
    }
  }
}

// The analysis of an edit carries no redundancy: LayerAnalysis has no such member, so nothing that
// reads it per frame can pay for it by accident.
template <class T, class = void>
struct HasRedundancy : std::false_type {};
template <class T>
struct HasRedundancy<T, std::void_t<decltype(std::declval<T>().redundancy)>> : std::true_type {};
template <class T, class = void>
struct HasNearDuplicates : std::false_type {};
template <class T>
struct HasNearDuplicates<T, std::void_t<decltype(std::declval<T>().near_duplicates)>> : std::true_type {};
static_assert(!HasRedundancy<LayerAnalysis>::value && !HasNearDuplicates<LayerAnalysis>::value,
              "the redundancy is computed on demand (layer_redundancy), not with every analysis");
static_assert(HasNearDuplicates<LayerRedundancy>::value, "the detector sees members");

}  // namespace
}  // namespace headlab::analysis
