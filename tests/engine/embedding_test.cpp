#include <gtest/gtest.h>

#include "engine/assets.h"
#include "engine/document.h"
#include "engine/embedding.h"

namespace headlab {
namespace {

class EmbeddingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string error;
    lexicon = load_lexicon(&error);
    ASSERT_TRUE(error.empty()) << error;
  }
  Lexicon lexicon;
};

TEST_F(EmbeddingTest, NamedFeaturesOfTheExampleSentence) {
  const Document document = default_document();
  const PreparedInput input = prepare_input(document, lexicon);
  ASSERT_EQ(input.tokens.size(), 10u);
  const Matrix& X = input.X;
  EXPECT_EQ(X.cols(), kNamedFeatureCount);
  EXPECT_EQ(X(0, kFeatureDet), 1.0f);       // The
  EXPECT_EQ(X(3, kFeatureNoun), 1.0f);      // fox
  EXPECT_EQ(X(3, feature_index("animal")), 1.0f);
  EXPECT_EQ(X(8, feature_index("animal")), 1.0f);  // dog
  EXPECT_EQ(X(4, kFeatureVerb), 1.0f);      // jumps
  EXPECT_EQ(X(9, kFeaturePunct), 1.0f);     // .
  EXPECT_FLOAT_EQ(X(4, kFeaturePosition), 4 * kPositionScale);
  EXPECT_FLOAT_EQ(X(4, kFeaturePositionSquared), 16 * kPositionScale * kPositionScale);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(X(i, kFeatureBias), 1.0f);
  EXPECT_GT(X(3, kFeatureRarity), X(0, kFeatureRarity));  // fox is rarer than the
}

TEST_F(EmbeddingTest, UnknownWordsFallBack) {
  Document document = default_document();
  document.input.text = "Zorblax 42 !";
  const PreparedInput input = prepare_input(document, lexicon);
  ASSERT_EQ(input.tokens.size(), 3u);
  EXPECT_FALSE(input.tokens[0].in_lexicon);
  EXPECT_EQ(input.tokens[0].pos, PartOfSpeech::unknown);
  EXPECT_EQ(input.X(0, kFeatureUnknown), 1.0f);
  EXPECT_EQ(input.tokens[1].pos, PartOfSpeech::num);
  EXPECT_TRUE(input.tokens[2].is_punctuation);
}

TEST_F(EmbeddingTest, SpecialTokensWrapTheSentence) {
  Document document = default_document();
  document.model.special_tokens = true;
  const PreparedInput input = prepare_input(document, lexicon);
  ASSERT_EQ(input.tokens.size(), 12u);
  EXPECT_EQ(input.tokens.front().text, "[CLS]");
  EXPECT_EQ(input.tokens.back().text, "[SEP]");
  EXPECT_EQ(input.X(0, kFeatureCls), 1.0f);
  EXPECT_EQ(input.X(11, kFeatureSep), 1.0f);
}

TEST_F(EmbeddingTest, ExtraDimensionsAreUnitWordIdentities) {
  Document document = default_document();
  document.model = make_model(40, 1, 4, 1);
  const PreparedInput input = prepare_input(document, lexicon);
  EXPECT_EQ(feature_names(document.model)[kNamedFeatureCount], "id 1");
  EXPECT_NEAR(input.X.row(0).tail(16).norm(), 1.0f, 1e-5f);
  EXPECT_EQ(input.X.row(0).tail(16), input.X.row(6).tail(16));  // "The" and "the"
}

TEST_F(EmbeddingTest, SinusoidalPositionsInRandomMode) {
  Document document = default_document();
  document.model = make_model(16, 1, 2, 1, Embedding::random);
  document.input.text = "a a";
  const PreparedInput input = prepare_input(document, lexicon);
  // Same word, different position: rows differ by PE(1) - PE(0); dim 0 is sin(1) - sin(0).
  EXPECT_NEAR(input.X(1, 0) - input.X(0, 0), std::sin(1.0), 1e-5);
}

}  // namespace
}  // namespace headlab
