// forward() keeps the trace of a head whose input, weights and mask did not change, and redoes only
// what an edit touched (a W_V edit keeps the attention; forward.h).
// The promise under test: whatever the trace held before, the result is bit-equal to a fresh
// trace's. A table of edits, each applied in turn to one model and checked against a fresh forward.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "engine/forward.h"
#include "engine/model.h"
#include "test_util.h"

namespace headlab {
namespace {

bool bit_equal(const Matrix& a, const Matrix& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         (a.size() == 0 || std::memcmp(a.data(), b.data(), sizeof(float) * a.size()) == 0);
}

// Every matrix a learner sees, bit for bit.
void expect_same_trace(const Trace& reused, const Trace& fresh, const std::string& step) {
  ASSERT_EQ(reused.layers.size(), fresh.layers.size()) << step;
  for (std::size_t l = 0; l < fresh.layers.size(); ++l) {
    const LayerTrace& a = reused.layers[l];
    const LayerTrace& b = fresh.layers[l];
    ASSERT_EQ(a.heads.size(), b.heads.size()) << step;
    for (std::size_t h = 0; h < b.heads.size(); ++h) {
      const std::string where = step + ", layer " + std::to_string(l) + ", head " + std::to_string(h);
      EXPECT_TRUE(bit_equal(a.heads[h].Q, b.heads[h].Q)) << where;
      EXPECT_TRUE(bit_equal(a.heads[h].K, b.heads[h].K)) << where;
      EXPECT_TRUE(bit_equal(a.heads[h].V, b.heads[h].V)) << where;
      EXPECT_TRUE(bit_equal(a.heads[h].logits, b.heads[h].logits)) << where;
      EXPECT_TRUE(bit_equal(a.heads[h].attention, b.heads[h].attention)) << where;
      EXPECT_TRUE(bit_equal(a.heads[h].Z, b.heads[h].Z)) << where;
    }
    const std::string where = step + ", layer " + std::to_string(l);
    EXPECT_TRUE(bit_equal(a.input, b.input)) << where;
    EXPECT_TRUE(bit_equal(a.mean_attention, b.mean_attention)) << where;
    EXPECT_TRUE(bit_equal(a.concat, b.concat)) << where;
    EXPECT_TRUE(bit_equal(a.attention_output, b.attention_output)) << where;
    EXPECT_TRUE(bit_equal(a.hidden, b.hidden)) << where;
    EXPECT_TRUE(bit_equal(a.output, b.output)) << where;
  }
}

struct Step {
  const char* name;
  std::function<void(Model&, Matrix&)> edit;
};

TEST(ForwardReuse, EveryEditGivesTheFreshTrace) {
  std::mt19937 rng(7);
  Model model = make_model(32, 3, 4, 3, Embedding::random);
  Matrix X = test_util::random_matrix(6, 32, rng);
  const std::vector<Step> steps = {
      {"nothing changed", [](Model&, Matrix&) {}},
      {"one W_Q cell, layer 0", [](Model& m, Matrix&) { m.layers[0].heads[1].W_Q(3, 2) += 0.5f; }},
      {"one W_K cell, last layer", [](Model& m, Matrix&) { m.layers[2].heads[3].W_K(0, 0) -= 1.0f; }},
      {"one W_V cell, middle layer", [](Model& m, Matrix&) { m.layers[1].heads[0].W_V(5, 7) = 2.0f; }},
      {"W_Q and W_V of one head", [](Model& m, Matrix&) { m.layers[0].heads[3].W_Q(1, 0) = 1.5f; m.layers[0].heads[3].W_V(2, 2) = -1.0f; }},
      {"one W_V cell, last layer", [](Model& m, Matrix&) { m.layers[2].heads[1].W_V(0, 3) += 0.75f; }},
      {"W_O", [](Model& m, Matrix&) { m.layers[1].W_O(4, 4) = -3.0f; }},
      {"prune a head", [](Model& m, Matrix&) { m.layers[0].heads[2].pruned = true; }},
      {"a pruned head's weights", [](Model& m, Matrix&) { m.layers[0].heads[2].W_Q(1, 1) = 4.0f; }},
      {"unprune it", [](Model& m, Matrix&) { m.layers[0].heads[2].pruned = false; }},
      {"causal", [](Model& m, Matrix&) { m.causal = true; }},
      {"not causal", [](Model& m, Matrix&) { m.causal = false; }},
      {"causal and a W_K cell", [](Model& m, Matrix&) { m.causal = true; m.layers[1].heads[2].W_K(3, 1) = 0.5f; }},
      {"not causal and a W_V cell", [](Model& m, Matrix&) { m.causal = false; m.layers[1].heads[2].W_V(3, 1) = 0.5f; }},
      {"one input row", [](Model&, Matrix& x) { x(2, 3) += 1.0f; }},
      {"a longer input", [&rng](Model&, Matrix& x) { x = test_util::random_matrix(9, 32, rng); }},
      {"more heads", [](Model& m, Matrix&) { set_head_count(m, 1, 6); }},
      {"fewer heads", [](Model& m, Matrix&) { set_head_count(m, 0, 2); }},
      {"other d_k", [](Model& m, Matrix&) { set_head_dims(m, 2, 5, 3); }},
      {"residual", [](Model& m, Matrix&) { m.layers[0].residual = true; }},
      {"FFN", [](Model& m, Matrix&) { set_ffn(m, 1, true); }},
      {"pre-norm", [](Model& m, Matrix&) { m.layers[1].norm = Norm::pre; }},
      {"pre-norm gamma", [](Model& m, Matrix&) { m.layers[1].ln_gamma(0) = 2.0f; }},
      {"post-norm", [](Model& m, Matrix&) { m.layers[2].norm = Norm::post; set_ffn(m, 2, true); }},
      {"a weight under pre-norm", [](Model& m, Matrix&) { m.layers[1].heads[0].W_K(2, 1) = 0.25f; }},
      {"NaN weight", [](Model& m, Matrix&) { m.layers[2].heads[0].W_Q(0, 0) = std::nanf(""); }},
      {"NaN kept", [](Model&, Matrix&) {}},
      {"NaN gone", [](Model& m, Matrix&) { m.layers[2].heads[0].W_Q(0, 0) = 0.0f; }},
      {"negative zero", [](Model& m, Matrix&) { m.layers[0].heads[0].W_V.setZero(); m.layers[0].heads[0].W_V(0, 0) = -0.0f; }},
      {"fewer layers", [](Model& m, Matrix&) { set_layer_count(m, 2, 4); }},
      {"empty input", [](Model&, Matrix& x) { x.resize(0, 32); }},
      {"input again", [&rng](Model&, Matrix& x) { x = test_util::random_matrix(4, 32, rng); }},
  };
  Trace reused;
  for (const Step& step : steps) {
    step.edit(model, X);
    forward(model, X, reused);
    Trace fresh;
    forward(model, X, fresh);
    expect_same_trace(reused, fresh, step.name);
  }
}

// A drag shows only the layers it needs (forward_layers) and catches up on the rest later: the
// layers it skipped keep their old trace meanwhile, and whatever mix of partial passes came before,
// the layers a pass reaches have a fresh trace's bits.
TEST(ForwardReuse, LayersLeftBehindCatchUpToTheFreshTrace) {
  std::mt19937 rng(11);
  Model model = make_model(32, 4, 4, 5, Embedding::random);
  const Matrix X = test_util::random_matrix(7, 32, rng);
  Trace lagging;
  forward(model, X, lagging);
  const Trace before = lagging;
  for (int drag = 0; drag < 3; ++drag) {  // three steps of one drag in layer 0, each drawing layer 0 only
    model.layers[0].heads[1].W_Q(2, drag) += 0.5f;
    forward_layers(model, X, lagging, 1);
  }
  Trace fresh;
  forward(model, X, fresh);
  EXPECT_TRUE(bit_equal(lagging.layers[0].attention_output, fresh.layers[0].attention_output));
  EXPECT_TRUE(bit_equal(lagging.layers[0].heads[1].attention, fresh.layers[0].heads[1].attention));
  EXPECT_FALSE(bit_equal(lagging.layers[0].heads[1].attention, before.layers[0].heads[1].attention));
  for (std::size_t l = 1; l < 4; ++l) {
    EXPECT_TRUE(bit_equal(lagging.layers[l].input, before.layers[l].input)) << "layer " << l << " was left as it was";
    EXPECT_TRUE(bit_equal(lagging.layers[l].output, before.layers[l].output)) << "layer " << l;
  }
  // Catching up one layer at a time, as the frames after the drag do.
  for (std::size_t through = 2; through <= 4; ++through) {
    forward_layers(model, X, lagging, through);
    for (std::size_t l = 0; l < through; ++l)
      EXPECT_TRUE(bit_equal(lagging.layers[l].output, fresh.layers[l].output)) << "through " << through << ", layer " << l;
  }
  expect_same_trace(lagging, fresh, "caught up");
  // Asking for more layers than the model has is the whole pass.
  model.layers[3].heads[0].W_V(1, 1) = -2.0f;
  forward_layers(model, X, lagging, 99);
  Trace fresh_again;
  forward(model, X, fresh_again);
  expect_same_trace(lagging, fresh_again, "more layers than the model has");
}

}  // namespace
}  // namespace headlab
