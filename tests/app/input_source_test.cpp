// recompute() prepares the input again only when something prepare_input reads changed
// (engine/document.h, InputSource). A table of edits through the Controller: after each, the kept
// input must equal a freshly prepared one, and a weight edit must not prepare it again.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "app/actions.h"
#include "app/controller.h"
#include "app/model_actions.h"
#include "engine/assets.h"

namespace headlab::app {
namespace {

void expect_current_input(const AppState& state, const Lexicon& lexicon, const std::string& step) {
  const PreparedInput fresh = prepare_input(state.document, lexicon);
  ASSERT_EQ(state.input.tokens.size(), fresh.tokens.size()) << step;
  for (std::size_t i = 0; i < fresh.tokens.size(); ++i) {
    EXPECT_EQ(state.input.tokens[i].text, fresh.tokens[i].text) << step;
    EXPECT_EQ(state.input.tokens[i].pos, fresh.tokens[i].pos) << step;
    EXPECT_EQ(state.input.tokens[i].is_special, fresh.tokens[i].is_special) << step;
  }
  ASSERT_EQ(state.input.X.rows(), fresh.X.rows()) << step;
  ASSERT_EQ(state.input.X.cols(), fresh.X.cols()) << step;
  EXPECT_EQ(std::memcmp(state.input.X.data(), fresh.X.data(), sizeof(float) * fresh.X.size()), 0) << step;
  EXPECT_EQ(state.input.truncated, fresh.truncated) << step;
}

struct Step {
  const char* name;
  Edit edit;
};

TEST(InputSource, KeptInputIsAlwaysTheFreshOne) {
  std::string error;
  const Lexicon lexicon = load_lexicon(&error);
  AppState state;
  Controller controller(state, lexicon);
  const std::vector<Step> steps = {
      {"a weight", [](AppState& s) { return set_weight(s, 0, 1, WeightMatrix::W_K, 2, 0, 1.5); }},
      {"new text", [](AppState& s) { return set_text(s, "The cat sat on the mat."); }},
      {"special tokens", [](AppState& s) { return set_special_tokens(s, true); }},
      {"d_model", [](AppState& s) { return set_d_model(s, 40); }},
      {"positional none", [](AppState& s) { return set_positional(s, Positional::none); }},
      {"random embedding", [](AppState& s) { return set_embedding(s, Embedding::random); }},
      {"learned positions", [](AppState& s) { return set_positional(s, Positional::learned); }},
      {"a positional table entry", [](AppState& s) { s.document.model.positional_table(1, 2) += 1.0f; return std::string(); }},
      {"another seed", [](AppState& s) { return randomize_model(s, 99); }},
      {"explicit tokens", [](AppState& s) {
         s.document.input.kind = InputKind::tokens;
         s.document.input.tokens = {"dogs", "bark", "."};
         return std::string();
       }},
      {"explicit X", [](AppState& s) {
         s.document.input.kind = InputKind::matrix;
         s.document.input.X = Matrix::Ones(3, s.document.model.d_model);
         return std::string();
       }},
      {"one entry of X", [](AppState& s) { s.document.input.X(1, 1) = 2.0f; return std::string(); }},
      {"back to text", [](AppState& s) { s.document.input.kind = InputKind::text; return std::string(); }},
      {"a learned vocabulary", [](AppState& s) {
         s.document.model.vocab = {"[UNK]", "the", "cat"};
         s.document.model.token_embedding = Matrix::Constant(3, s.document.model.d_model, 0.5f);
         return std::string();
       }},
      {"one embedding entry", [](AppState& s) { s.document.model.token_embedding(1, 0) = -1.0f; return std::string(); }},
      {"a weight again", [](AppState& s) { return set_weight(s, 0, 0, WeightMatrix::W_Q, 0, 0, -2.0); }},
  };
  for (const Step& step : steps) {
    ASSERT_EQ(controller.apply(step.edit), "") << step.name;
    expect_current_input(state, lexicon, step.name);
  }
  while (controller.undo()) expect_current_input(state, lexicon, "undo");
  while (controller.redo()) expect_current_input(state, lexicon, "redo");
}

TEST(InputSource, AWeightEditKeepsThePreparedInput) {
  std::string error;
  const Lexicon lexicon = load_lexicon(&error);
  AppState state;
  Controller controller(state, lexicon);
  const float* before = state.input.X.data();
  state.input.X(0, 0) = 123.0f;  // a marker a fresh prepare_input would overwrite
  ASSERT_EQ(controller.apply([](AppState& s) { return set_weight(s, 0, 0, WeightMatrix::W_Q, 0, 0, 0.5); }), "");
  EXPECT_EQ(state.input.X.data(), before);
  EXPECT_EQ(state.input.X(0, 0), 123.0f) << "the input was prepared again after a weight edit";
}

}  // namespace
}  // namespace headlab::app
