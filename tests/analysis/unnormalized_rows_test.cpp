// The analysis on heads whose rows need not sum to 1 (softmax + 1 and sigmoid, engine/model.h):
// masses stay masses, the entropy ("broad", the spreads) reads the row's shape, and the redundancy
// stays a finite distance. Logits are set exactly with the fixture's explicit documents.
#include <gtest/gtest.h>

#include <cmath>

#include "analysis_fixture.h"
#include "engine/analysis/attention_spread.h"
#include "engine/training/text_evaluation.h"

namespace headlab::analysis {
namespace {

const std::vector<std::string> kSentence = {"The", "quick", "brown", "fox", "jumps", "over", "the", "lazy", "dog", "."};

class UnnormalizedRows : public AnalysisTest {
 protected:
  // Head 0 with `logits` everywhere, under `kind`.
  static LabRun constant_logits(float logit, AttentionNormalization kind) {
    const int n = static_cast<int>(kSentence.size());
    Document doc = explicit_document(kSentence, 2);
    doc.model.attention = kind;
    set_logits(doc, 0, Matrix::Constant(n, n, logit));
    set_logits(doc, 1, Matrix::Constant(n, n, logit));
    return run(doc);
  }
};

TEST_F(UnnormalizedRows, BroadReadsTheShapeOfTheRowNotItsSum) {
  const float softmax_broad = constant_logits(0.0f, AttentionNormalization::softmax).head(0, 0).scores.broad;
  EXPECT_GT(softmax_broad, 0.9f);  // uniform attention
  // Sigmoid of equal scores is uniform too. Its rows sum to n / (n + 1) at scores 0 and to about n
  // at scores 20 (every weight near 1): the shape's entropy weighted by min(1, sum), so the first is
  // 10/11 as broad as softmax's, the second as broad.
  for (float logit : {0.0f, 20.0f}) {
    const LabRun sigmoid = constant_logits(logit, AttentionNormalization::sigmoid);
    const float row_sum = sigmoid.attention(0, 0).row(3).sum();
    EXPECT_FALSE(std::abs(row_sum - 1.0f) < 1e-3f) << logit;  // the case this test is about
    EXPECT_NEAR(sigmoid.head(0, 0).scores.broad, std::min(1.0f, row_sum) * softmax_broad, 1e-3f) << logit;
  }
  EXPECT_EQ(constant_logits(20.0f, AttentionNormalization::sigmoid).head(0, 0).label.text(), "broad");
}

TEST_F(UnnormalizedRows, AHeadThatAttendsToNothingIsNotBroadAndReadsAsNothing) {
  const LabRun nothing = constant_logits(-30.0f, AttentionNormalization::softmax_plus_one);
  const HeadAnalysis& head = nothing.head(0, 0);
  EXPECT_LT(nothing.attention(0, 0).sum(), 1e-6f);
  EXPECT_LT(head.scores.broad, 1e-6f);
  EXPECT_LT(head.scores.previous_token.mass, 1e-6f);
  EXPECT_NE(head.label.text(), "broad");
  EXPECT_TRUE(std::isfinite(head.importance));
  const AttentionSpread spread = attention_spread(nothing.attention(0, 0), false);
  EXPECT_LT(spread.entropy, 1e-9);
  EXPECT_LT(spread.distance, 1e-9);
}

TEST_F(UnnormalizedRows, APreviousTokenHeadKeepsItsLabelUnderEachNormalisation) {
  const int n = static_cast<int>(kSentence.size());
  Matrix logits = Matrix::Constant(n, n, -12.0f);
  for (int i = 1; i < n; ++i) logits(i, i - 1) = 12.0f;
  for (AttentionNormalization kind : {AttentionNormalization::softmax, AttentionNormalization::softmax_plus_one,
                                      AttentionNormalization::sigmoid}) {
    Document doc = explicit_document(kSentence, 1);
    doc.model.attention = kind;
    set_logits(doc, 0, logits);
    const LabRun r = run(doc);
    EXPECT_EQ(r.head(0, 0).label.text(), "previous_token") << enum_name(kAttentionNormalizationNames, kind);
    EXPECT_GT(r.head(0, 0).scores.previous_token.mass, 0.9f);
  }
}

TEST_F(UnnormalizedRows, RedundancyStaysAFiniteDistance) {
  // Two identical sigmoid heads: distance 0. One that attends to nothing (softmax + 1) against one
  // that attends everywhere: finite and not negative (each key's term of the Jensen-Shannon sum is
  // >= 0 for any non-negative weights, by the log-sum inequality).
  const LabRun twins = constant_logits(20.0f, AttentionNormalization::sigmoid);
  EXPECT_NEAR(redundancy_of(twins, 0).distance(0, 1), 0.0f, 1e-3f);
  const int n = static_cast<int>(kSentence.size());
  Document doc = explicit_document(kSentence, 2);
  doc.model.attention = AttentionNormalization::softmax_plus_one;
  set_logits(doc, 0, Matrix::Constant(n, n, -30.0f));
  set_logits(doc, 1, Matrix::Constant(n, n, 5.0f));
  const float distance = redundancy_of(run(doc), 0).distance(0, 1);
  EXPECT_TRUE(std::isfinite(distance));
  EXPECT_GE(distance, 0.0f);
  EXPECT_GT(distance, 0.1f);
}

TEST_F(UnnormalizedRows, SinkSharesAreSharesOfWhatTheRowHolds) {
  // Every query puts a large score on token 0 and nothing elsewhere: softmax and sigmoid put
  // nearly all of the row there; softmax + 1 with a score of 0 on token 0 and -30 elsewhere shares
  // it with the zero logit (1/2).
  const int n = static_cast<int>(kSentence.size());
  Matrix to_first = Matrix::Constant(n, n, -30.0f);
  to_first.col(0).setConstant(12.0f);
  Matrix half = Matrix::Constant(n, n, -30.0f);
  half.col(0).setZero();
  struct Case {
    AttentionNormalization kind;
    const Matrix* logits;
    float first_token;
  };
  for (const Case& c : {Case{AttentionNormalization::softmax, &to_first, 1.0f}, Case{AttentionNormalization::sigmoid, &to_first, 1.0f},
                        Case{AttentionNormalization::softmax_plus_one, &half, 0.5f}}) {
    Document doc = explicit_document(kSentence, 1);
    doc.model.attention = c.kind;
    set_logits(doc, 0, *c.logits);
    const LabRun r = run(doc);
    const std::vector<training::TextHeadScores> sinks = training::sink_shares(r.trace, r.input.tokens);
    ASSERT_EQ(sinks.size(), 1u);
    EXPECT_NEAR(sinks[0].first_token, c.first_token, 1e-3f) << enum_name(kAttentionNormalizationNames, c.kind);
    // "." is the last token: only the last query (of n - 1) sees it with any weight, and that weight is ~0.
    EXPECT_LT(sinks[0].punctuation, 1e-3f);
  }
}

}  // namespace
}  // namespace headlab::analysis
