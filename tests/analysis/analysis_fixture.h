#pragma once
// Shared set-up for the analysis tests: the lexicon, thresholds, gold parses and presets are
// loaded once; run() does prepare_input -> forward -> analyze like app::recompute.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "engine/analysis/analysis.h"
#include "engine/analysis/redundancy.h"
#include "engine/assets.h"
#include "engine/document.h"
#include "engine/forward.h"
#include "engine/presets.h"

namespace headlab::analysis {

struct LabRun {
  Document document;
  PreparedInput input;
  Trace trace;
  Analysis analysis;

  const HeadAnalysis& head(int layer, int h) const { return analysis.layers[layer].heads[h]; }
  const Matrix& attention(int layer, int h) const { return trace.layers[layer].heads[h].attention; }
};

inline Matrix test_random(int rows, int cols, std::mt19937& rng, float scale = 1.0f) {
  std::normal_distribution<float> normal(0.0f, scale);
  Matrix m(rows, cols);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) m(i, j) = normal(rng);
  return m;
}

class AnalysisTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    std::string error;
    lexicon_ = std::make_unique<Lexicon>(load_lexicon(&error));
    ASSERT_TRUE(error.empty()) << error;
    resources_ = std::make_unique<Resources>(load_resources());
    ASSERT_TRUE(resources_->errors.empty()) << resources_->errors.front();
    Result<std::vector<Preset>> presets = load_presets();
    ASSERT_TRUE(presets.ok()) << presets.error();
    presets_ = std::make_unique<std::vector<Preset>>(std::move(presets).value());
  }
  static void TearDownTestSuite() {
    lexicon_.reset();
    resources_.reset();
    presets_.reset();
  }

  static const Lexicon& lexicon() { return *lexicon_; }
  static const Resources& resources() { return *resources_; }
  static const std::vector<Preset>& presets() { return *presets_; }
  static const Preset& preset(const std::string& id) {
    const Preset* p = find_preset(*presets_, id);
    EXPECT_NE(p, nullptr) << id;
    return *p;
  }
  static std::string sentence_text(const std::string& id) {
    const GoldSentence* s = resources().gold.find(id);
    EXPECT_NE(s, nullptr) << id;
    return s ? s->text : std::string();
  }

  static LabRun run(Document document, AnalysisOptions options = {}) {
    LabRun r;
    r.document = std::move(document);
    r.input = prepare_input(r.document, lexicon());
    forward(r.document.model, r.input.X, r.trace);
    analyze(r.document.model, r.input.tokens, r.trace, resources(), options, r.analysis);
    return r;
  }

  // Layer `layer`'s redundancy in `r`, computed as the views and the API do (the analysis has none).
  static LayerRedundancy redundancy_of(const LabRun& r, int layer) {
    return layer_redundancy(r.trace.layers[layer], r.document.model.causal, resources().config);
  }

  // A document on `text` with a 1-layer, `heads`-head named-feature model (d_model 24).
  static Document text_document(const std::string& text, int heads = 4, std::uint32_t seed = 1) {
    Document d;
    d.model = make_model(24, 1, heads, seed);
    d.input.kind = InputKind::text;
    d.input.text = text;
    return d;
  }

  // An explicit-X document whose X is the identity (d_model = n >= 8 rows of one-hot positions;
  // extra columns are zero) and whose tokens supply the metadata. With W_K = identity and
  // W_Q = sqrt(d_k) L, head h's logits are exactly L: any attention pattern can be built.
  static Document explicit_document(const std::vector<std::string>& tokens, int heads) {
    const int n = static_cast<int>(tokens.size());
    const int d = std::max(8, n);
    Document doc;
    doc.model = make_model(d, 1, heads, 7, Embedding::random);
    Layer& layer = doc.model.layers[0];
    layer.d_k = layer.d_v = d;
    for (HeadWeights& w : layer.heads) {
      w.W_Q = Matrix::Zero(d, d);
      w.W_K = Matrix::Identity(d, d);
      w.W_V = Matrix::Identity(d, d);
    }
    layer.W_O = identity_like(heads * d, d);
    doc.input.kind = InputKind::matrix;
    doc.input.tokens = tokens;
    doc.input.X = Matrix::Zero(n, d);
    for (int i = 0; i < n; ++i) doc.input.X(i, i) = 1.0f;
    return doc;
  }

  // Sets head h of an explicit document to the logits L (n, n).
  static void set_logits(Document& doc, int h, const Matrix& logits) {
    Layer& layer = doc.model.layers[0];
    const int n = static_cast<int>(logits.rows());
    layer.heads[h].W_Q.setZero();
    layer.heads[h].W_Q.topLeftCorner(n, n) = logits * std::sqrt(static_cast<float>(layer.d_k));
  }

 private:
  static inline std::unique_ptr<Lexicon> lexicon_;
  static inline std::unique_ptr<Resources> resources_;
  static inline std::unique_ptr<std::vector<Preset>> presets_;
};

}  // namespace headlab::analysis
