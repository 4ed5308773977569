// The symbol embedding (bias, position, one dimension per symbol A..J, free dimensions) and the
// "random tokens, repeated" sequences it is used with.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>
#include <sstream>

#include "engine/assets.h"
#include "engine/document.h"
#include "engine/embedding.h"
#include "engine/lexicon.h"
#include "engine/model_file.h"
#include "engine/symbol_sequence.h"
#include "engine/tokenizer.h"

namespace headlab {
namespace {

std::vector<std::string> words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

TEST(SymbolSequence, ASegmentOfDistinctSymbolsWrittenTwiceTheSameOnEveryPlatform) {
  for (int length = kMinRepeatedLength; length <= kMaxRepeatedLength; ++length)
    for (std::uint32_t seed : {0u, 1u, 2u, 4000000000u}) {
      const std::vector<std::string> w = words(repeated_symbol_text(length, seed));
      ASSERT_EQ(w.size(), static_cast<std::size_t>(2 * length));
      for (int i = 0; i < length; ++i) {
        EXPECT_EQ(w[i], w[i + length]);
        EXPECT_GE(symbol_index(w[i]), 0);
        if (i > 0) {
          EXPECT_NE(w[i], w[i - 1]);
        }
      }
      if (length <= kSymbolCount) {
        EXPECT_EQ(std::set<std::string>(w.begin(), w.begin() + length).size(), std::size_t(length));
      }
    }
  // Pinned, so a change of generator (or a platform's std::shuffle sneaking in) shows here.
  EXPECT_EQ(repeated_symbol_text(4, 1), repeated_symbol_text(4, 1));
  EXPECT_NE(repeated_symbol_text(8, 1), repeated_symbol_text(8, 2));
}

TEST(SymbolEmbedding, OneDimensionPerSymbolAndFreeDimensionsLeftAtZero) {
  Model model = make_model(24, 1, 2, 1, Embedding::symbols);
  const std::vector<std::string> names = feature_names(model);
  EXPECT_EQ(names[kFeatureSymbolFirst], "A");
  EXPECT_EQ(names[kFeatureSymbolFirst + 9], "J");
  EXPECT_EQ(names[kFeatureFreeFirst], "free1");
  EXPECT_EQ(names[23], "free11");
  EXPECT_EQ(feature_index("C", Embedding::symbols), kFeatureSymbolFirst + 2);
  EXPECT_EQ(feature_index("free10", Embedding::symbols), kFeatureFreeFirst + 9);
  EXPECT_EQ(feature_index("free0", Embedding::symbols), -1);
  EXPECT_EQ(feature_index("noun", Embedding::symbols), -1);
  Tokens tokens;
  for (const char* text : {"c", "A", "dog", "J"}) {
    Token t;
    t.text = text;
    tokens.push_back(t);
  }
  const Matrix X = embed(tokens, model);
  ASSERT_EQ(X.rows(), 4);
  EXPECT_EQ(X(0, kFeatureBias), 1.0f);
  EXPECT_FLOAT_EQ(X(1, kFeaturePosition), kPositionScale);
  EXPECT_EQ(X(0, kFeatureSymbolFirst + 2), 1.0f);  // "c" is C
  EXPECT_EQ(X(1, kFeatureSymbolFirst + 0), 1.0f);
  EXPECT_EQ(X.row(2).segment(kFeatureSymbolFirst, kSymbolCount).sum(), 0.0f);  // not a symbol
  EXPECT_EQ(X.rightCols(24 - kFeatureFreeFirst).cwiseAbs().sum(), 0.0f);
}

// "A" and "I" are frequent English words and "J" a rare one; as symbols none is rarer than another,
// so the rare-word role has no target on a symbol sequence (for the symbol embedding and for a
// trained model whose vocabulary is single letters, the induction task's).
TEST(SymbolEmbedding, SymbolsHaveNoWordFrequencies) {
  std::string error;
  const Lexicon lexicon = load_lexicon(&error);
  ASSERT_TRUE(error.empty()) << error;
  Document document;
  document.model = make_model(24, 1, 2, 1, Embedding::symbols);
  document.input.text = "A I J C A I J C";
  const auto spread = [&](const Document& d) {
    const PreparedInput prepared = prepare_input(d, lexicon);
    float lo = 1e9f, hi = -1e9f;
    for (const Token& t : prepared.tokens)
      if (!t.is_special) lo = std::min(lo, t.zipf), hi = std::max(hi, t.zipf);
    return hi - lo;
  };
  EXPECT_EQ(spread(document), 0.0f);
  Document trained = document;
  trained.model = make_model(24, 1, 2, 1);
  trained.model.vocab = {"[UNK]", "[MASK]", "[CLS]", "[SEP]", "a", "b", "c", "i", "j"};
  trained.model.token_embedding = Matrix::Zero(9, 24);
  EXPECT_EQ(spread(trained), 0.0f);
  Document words = document;
  words.model = make_model(24, 1, 2, 1);  // named features: these are English words
  EXPECT_GT(spread(words), 1.0f);
}

TEST(SymbolEmbedding, ModelFilesSayAndCheckIt) {
  Document doc;
  doc.model = make_model(16, 1, 2, 1, Embedding::symbols);
  const std::string text = serialize_model_file(doc);
  EXPECT_EQ(nlohmann::json::parse(text)["embedding"], "symbols");
  Result<Document> back = parse_model_file(text);
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_EQ(back.value().model.embedding, Embedding::symbols);
  nlohmann::json narrow = nlohmann::json::parse(text);
  narrow["d_model"] = 12;
  EXPECT_NE(parse_model_file(narrow.dump()).error().find("the symbol embedding needs at least 13"), std::string::npos);
}

}  // namespace
}  // namespace headlab
