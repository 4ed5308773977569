// recompute() prepares the input again only when something prepare_input reads changed
// (engine/document.h, InputSource). A table of edits through the Controller: after each, the kept
// input must equal a freshly prepared one, and a weight edit must not prepare it again.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "app/controller.h"
#include "engine/model_file.h"
#include "test_resources.h"

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

// Edits the model file format carries but no control offers (one entry of X, of the positional
// table, of a learned vocabulary) arrive as a whole document: LoadModel of the edited copy.
using MakeAction = std::function<Action(const AppState&)>;

MakeAction plain(Action action) {
  return [action](const AppState&) { return action; };
}

MakeAction edited_document(std::function<void(Document&)> edit) {
  return [edit](const AppState& state) {
    Document document = state.document;
    edit(document);
    return Action(LoadModel{serialize_model_file(document)});
  };
}

struct Step {
  const char* name;
  MakeAction make;
};

TEST(InputSource, KeptInputIsAlwaysTheFreshOne) {
  const Resources& resources = test_resources();
  const Lexicon& lexicon = resources.lexicon;
  AppState state;
  Controller controller(state, resources);
  const std::vector<Step> steps = {
      {"a weight", plain(SetWeight{0, 1, WeightMatrix::W_K, 2, 0, 1.5})},
      {"new text", plain(SetText{"The cat sat on the mat."})},
      {"special tokens", plain(SetSpecialTokens{true})},
      {"d_model", plain(SetDModel{40})},
      {"positional none", plain(SetPositional{Positional::none})},
      {"random embedding", plain(SetEmbedding{Embedding::random})},
      {"learned positions", plain(SetPositional{Positional::learned})},
      {"a positional table entry", edited_document([](Document& d) { d.model.positional_table(1, 2) += 1.0f; })},
      {"another seed", plain(Randomize{99})},
      {"explicit tokens", edited_document([](Document& d) {
         d.input.kind = InputKind::tokens;
         d.input.tokens = {"dogs", "bark", "."};
       })},
      {"explicit X", edited_document([](Document& d) {
         d.input.kind = InputKind::matrix;
         d.input.X = Matrix::Ones(3, d.model.d_model);
       })},
      {"one entry of X", edited_document([](Document& d) { d.input.X(1, 1) = 2.0f; })},
      {"back to text", plain(SetText{"The cat sat on the mat."})},
      {"a learned vocabulary", edited_document([](Document& d) {
         d.model.vocab = {"[UNK]", "the", "cat"};
         d.model.token_embedding = Matrix::Constant(3, d.model.d_model, 0.5f);
       })},
      {"one embedding entry", edited_document([](Document& d) { d.model.token_embedding(1, 0) = -1.0f; })},
      {"a weight again", plain(SetWeight{0, 0, WeightMatrix::W_Q, 0, 0, -2.0})},
  };
  for (const Step& step : steps) {
    ASSERT_EQ(controller.apply(step.make(state)).error, "") << step.name;
    expect_current_input(state, lexicon, step.name);
  }
  while (controller.undo()) expect_current_input(state, lexicon, "undo");
  while (controller.redo()) expect_current_input(state, lexicon, "redo");
}

TEST(InputSource, AWeightEditKeepsThePreparedInput) {
  AppState state;
  Controller controller(state, test_resources());
  const float* before = state.input.X.data();
  state.input.X(0, 0) = 123.0f;  // a marker a fresh prepare_input would overwrite
  ASSERT_EQ(controller.apply(SetWeight{0, 0, WeightMatrix::W_Q, 0, 0, 0.5}).error, "");
  EXPECT_EQ(state.input.X.data(), before);
  EXPECT_EQ(state.input.X(0, 0), 123.0f) << "the input was prepared again after a weight edit";
}

}  // namespace
}  // namespace headlab::app

namespace headlab::app {
namespace {

// The "text was cut" notice describes the current input: it goes when a short text comes back,
// and comes again for the next long one. Other notices stay.
TEST(InputSource, TheCutTextNoticeGoesWithItsCause) {
  AppState state;
  Controller controller(state, test_resources());
  const auto cut_notices = [&] {
    int count = 0;
    for (const Notice& n : state.notices) count += n.cause == NoticeCause::truncated_input;
    return count;
  };
  std::string long_text;
  for (int i = 0; i < 100; ++i) long_text += "word ";
  controller.notify(NoticeLevel::info, "unrelated");
  ASSERT_TRUE(controller.apply(SetText{long_text}).ok());
  EXPECT_EQ(cut_notices(), 1);
  ASSERT_TRUE(controller.apply(SetText{"The dog sleeps."}).ok());
  EXPECT_EQ(cut_notices(), 0);
  EXPECT_EQ(state.notices.size(), 1u);  // "unrelated" stays
  ASSERT_TRUE(controller.apply(SetText{long_text}).ok());
  EXPECT_EQ(cut_notices(), 1);
  ASSERT_TRUE(controller.undo());
  EXPECT_EQ(cut_notices(), 0) << "undo back to a short text also ends it";
}

}  // namespace
}  // namespace headlab::app
