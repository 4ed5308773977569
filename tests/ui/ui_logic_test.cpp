// UI logic that needs no GPU: layout maths, hit-testing, colormap, dash patterns, weight parsing,
// the undo history, and whole frames of the lab drawn headlessly (as ImGui's example_null does).
#include <gtest/gtest.h>

#include <set>
#include <utility>

#include "../app/test_resources.h"
#include "app/controller.h"
#include "app/dispatcher.h"
#include "app/lesson_runner.h"
#include "headless_imgui.h"
#include "imgui.h"
#include "ui/arc_geometry.h"
#include "ui/colormap.h"
#include "ui/goal_number_text.h"
#include "ui/heatmap_layout.h"
#include "ui/action_sink.h"
#include "ui/lab_window.h"
#include "ui/panels.h"
#include "ui/weight_entry.h"
#include "ui/widget_ids.h"

namespace headlab::ui {
namespace {

TEST(HeatmapLayout, CellsAreSquareAndHitTestingMatches) {
  const HeatmapGeometry g = fit_heatmap(10, 20, 300, 200, 10, 10, 40, 30, 100);
  EXPECT_FLOAT_EQ(g.cell, 17.0f);  // min((300-40)/10, (200-30)/10)
  EXPECT_EQ(g.row_at(20 + 30 + 0.5f), 0);
  EXPECT_EQ(g.row_at(20 + 30 + 17 * 3 + 1), 3);
  EXPECT_EQ(g.col_at(10 + 40 + 17 * 9 + 16), 9);
  EXPECT_EQ(g.col_at(10 + 40 + 17 * 10 + 1), -1);
  EXPECT_EQ(g.row_at(10), -1);
  EXPECT_FLOAT_EQ(fit_heatmap(0, 0, 1000, 1000, 2, 2, 0, 0, 48).cell, 48.0f);
  EXPECT_EQ(fit_heatmap(0, 0, 100, 100, 0, 0, 0, 0, 48).row_at(5), -1);
}

TEST(Colormap, ViridisEndsAndMonotoneLightness) {
  const Rgb lo = viridis(0.0f), hi = viridis(1.0f);
  EXPECT_NEAR(lo.r, 68 / 255.0f, 1e-6);
  EXPECT_NEAR(hi.g, 231 / 255.0f, 1e-6);
  float previous = -1;
  for (int i = 0; i <= 64; ++i) {
    const Rgb c = viridis(i / 64.0f);
    const float lightness = 0.2126f * c.r + 0.7152f * c.g + 0.0722f * c.b;
    EXPECT_GT(lightness, previous);  // readable in grey scale
    previous = lightness;
  }
  EXPECT_NEAR(viridis(std::nanf("")).r, lo.r, 1e-6);
  EXPECT_NEAR(viridis(7.0f).g, hi.g, 1e-6);
}

TEST(ArcGeometry, DashPatternsDiffer) {
  const std::vector<Point> line{{0, 0}, {100, 0}};
  EXPECT_EQ(dash(line, LineStyle::solid, 1).size(), 1u);
  const auto dashed = dash(line, LineStyle::dashed, 1), dotted = dash(line, LineStyle::dotted, 1);
  EXPECT_EQ(dashed.size(), 10u);  // 6 on + 4 off = 10 px period
  EXPECT_GT(dotted.size(), dashed.size());
  for (int h = 0; h < 4; ++h) EXPECT_EQ(static_cast<int>(line_style_for_head(h)), h);
  // Sixteen heads, sixteen different (colour, style) pairs: colours repeat every 8 heads.
  std::set<std::pair<int, int>> pairs;
  for (int h = 0; h < 16; ++h) pairs.insert({h % 8, static_cast<int>(line_style_for_head(h))});
  EXPECT_EQ(pairs.size(), 16u);
}

TEST(ArcGeometry, ASharpHeadDoesNotCrowdTheOthersOut) {
  // Head 0 has 10 strong arcs, heads 1 and 2 two weak ones each: with room for 6, heads 1 and 2
  // keep both of theirs and head 0 its two strongest.
  std::vector<Arc> arcs;
  for (int k = 0; k < 10; ++k) arcs.push_back({0.9f - 0.01f * k, 0, k, 0});
  arcs.push_back({0.2f, 1, 0, 1});
  arcs.push_back({0.3f, 1, 1, 1});
  arcs.push_back({0.25f, 2, 0, 2});
  arcs.push_back({0.15f, 2, 1, 2});
  keep_strongest_per_head(arcs, 6);
  ASSERT_EQ(arcs.size(), 6u);
  int per_head[3] = {0, 0, 0};
  for (const Arc& arc : arcs) ++per_head[arc.head];
  EXPECT_EQ(per_head[0], 2);
  EXPECT_EQ(per_head[1], 2);
  EXPECT_EQ(per_head[2], 2);
  EXPECT_FLOAT_EQ(arcs[0].weight, 0.9f);  // head 0's strongest, in the original order
  EXPECT_FLOAT_EQ(arcs[1].weight, 0.89f);
  // Fewer arcs than room: all stay.
  std::vector<Arc> few{{0.1f, 0, 0, 0}, {0.3f, 1, 0, 1}};
  keep_strongest_per_head(few, 6);
  EXPECT_EQ(few.size(), 2u);
}

TEST(ArcGeometry, ArcsRiseAboveTheRowAndEndAtTheKey) {
  const auto points = arc_points(10, 110, 200, 80, 20);
  EXPECT_FLOAT_EQ(points.front().x, 10);
  EXPECT_FLOAT_EQ(points.back().x, 110);
  float top = 200;
  for (const Point& p : points) top = std::min(top, p.y);
  EXPECT_LT(top, 200 - 40);
  EXPECT_GE(top, 200 - 80 - 1e-3);
}

// The arc view of the largest model at a low threshold: thousands of arcs pass it, the figure
// draws the 200 strongest and says so.
TEST(ArcView, ALowThresholdOnTheLargestModelDrawsAReadableNumberOfArcs) {
  app::AppState state;
  app::Controller controller(state, app::test_resources());
  ASSERT_TRUE(controller.apply(app::SetDModel{512}).ok());
  ASSERT_TRUE(controller.apply(app::SetHeadCount{16, 0}).ok());
  std::string text;
  for (int i = 0; i < 64; ++i) text += "word" + std::to_string(i % 13) + " ";
  ASSERT_TRUE(controller.apply(app::SetText{text}).ok());
  HeadlessImGui imgui;
  LabUiState ui;
  ui.detail = DetailView::arcs;
  ui.arc_threshold = 0.0f;
  const auto vertices = [&] {
    ImGui::GetIO().DeltaTime = 1.0f / 60.0f;
    ImGui::NewFrame();
    draw_lab_window(controller, ui);
    ImGui::Render();
    return ImGui::GetDrawData()->TotalVtxCount;
  };
  const int at_zero = vertices();
  ui.arc_threshold = 0.9f;  // few or no arcs
  const int at_high = vertices();
  EXPECT_LT(at_zero - at_high, 200 * 600) << "16 x 64 x 64 = 65,536 arcs pass a zero threshold";
}

TEST(WeightEntry, ParsesNumbersAndRefusesTheRest) {
  const Words en{app::test_resources(), app::Language::en};
  double v = 0;
  std::string error;
  EXPECT_TRUE(parse_weight_text(" 1.5 ", v, error, en));
  EXPECT_DOUBLE_EQ(v, 1.5);
  EXPECT_TRUE(parse_weight_text("-2e-3", v, error, en));
  EXPECT_DOUBLE_EQ(v, -2e-3);
  for (const char* bad : {"", "abc", "1.5x", "nan", "inf", "-Infinity", "1e31"}) {
    EXPECT_FALSE(parse_weight_text(bad, v, error, en)) << bad;
    EXPECT_FALSE(error.empty());
  }
  EXPECT_EQ(error, "Weights must be at most 1e30 in size.");
  EXPECT_FALSE(parse_weight_text("1.5x", v, error, Words{app::test_resources(), app::Language::zh}));
  EXPECT_EQ(error, "“1.5x”不是数字。");
}

// Chinese has no spaces: ImGui's word wrap (with scripts/patches/imgui-cjk-line-breaks.patch) breaks
// between any two characters, but never puts closing punctuation at the start of a line.
TEST(WordWrap, ChineseBreaksBetweenCharactersButNotBeforeClosingPunctuation) {
  HeadlessImGui imgui;
  const ImFont* font = ImGui::GetIO().Fonts->Fonts[0];
  const float ten_and_a_half = font->FallbackAdvanceX * 10.5f;  // the test font has no Chinese glyphs
  const auto first_line_bytes = [&](const std::string& text) {
    return font->CalcWordWrapPositionA(1.0f, text.data(), text.data() + text.size(), ten_and_a_half) - text.data();
  };
  EXPECT_EQ(first_line_bytes("一二三四五六七八九十甲乙丙"), 30);    // ten characters of three bytes
  EXPECT_EQ(first_line_bytes("一二三四五六七八九十，甲乙"), 27);    // "，" takes "十" along
  EXPECT_EQ(first_line_bytes("一二三四五六七八九（十甲乙"), 27);    // "（" goes along with "十"
  const std::string english = "aaaa bbbb cccc dddd";                // and Latin text still wraps at spaces
  const float width = font->CalcTextSizeA(font->FontSize, FLT_MAX, 0.0f, "aaaa bbbb c").x;
  EXPECT_EQ(font->CalcWordWrapPositionA(1.0f, english.data(), english.data() + english.size(), width) - english.data(), 9);
  // A number keeps its decimal point: "0.6" is not cut into "0." and "6" (it was, in a Chinese goal);
  // a full stop still ends a word.
  const std::string number = "ab 0.6 cd";
  const float to_the_six = font->CalcTextSizeA(font->FontSize, FLT_MAX, 0.0f, "ab 0.").x + 1.0f;
  EXPECT_EQ(font->CalcWordWrapPositionA(1.0f, number.data(), number.data() + number.size(), to_the_six) - number.data(), 2);
  const std::string sentence = "ab.cd ef";
  const float to_the_c = font->CalcTextSizeA(font->FontSize, FLT_MAX, 0.0f, "ab.c").x;
  EXPECT_EQ(font->CalcWordWrapPositionA(1.0f, sentence.data(), sentence.data() + sentence.size(), to_the_c) - sentence.data(), 3);
}

// A lesson goal's number names its role in words, never by its id "previous_token".
TEST(GoalNumberText, NamesRolesInTheLearnersLanguage) {
  lessons::Goal goal;
  goal.kind = lessons::GoalKind::score;
  goal.role = analysis::Role::previous_token;
  goal.layer = 0;
  goal.min = 0.5;
  const app::Resources& resources = app::test_resources();
  const lessons::GoalNumber number{&goal, 1, 0.25, false};
  const std::string zh = goal_number_text(number, resources, app::Language::zh);
  const std::string zh_role = app::localized(resources.role_names[static_cast<int>(analysis::Role::previous_token)], app::Language::zh);
  EXPECT_NE(zh.find(zh_role), std::string::npos) << zh;
  EXPECT_EQ(zh.find("previous_token"), std::string::npos) << zh;
  const std::string en = goal_number_text(number, resources, app::Language::en);
  EXPECT_NE(en.find("L0H1 previous token score"), std::string::npos) << en;
}

class ControllerTest : public ::testing::Test {
 protected:
  const app::Resources& resources = app::test_resources();
  app::AppState state;
};

TEST_F(ControllerTest, UndoRedoAtLeast200Steps) {
  app::Controller controller(state, resources);
  for (int i = 1; i <= 220; ++i)
    controller.apply(app::SetWeight{0, 0, app::WeightMatrix::W_K, 0, 0, static_cast<double>(i)});
  EXPECT_EQ(state.document.model.layers[0].heads[0].W_K(0, 0), 220.0f);
  for (int i = 0; i < 200; ++i) ASSERT_TRUE(controller.undo());
  EXPECT_EQ(state.document.model.layers[0].heads[0].W_K(0, 0), 20.0f);
  ASSERT_TRUE(controller.redo());
  EXPECT_EQ(state.document.model.layers[0].heads[0].W_K(0, 0), 21.0f);
  // A new edit drops the redo branch.
  controller.apply(app::SetWeight{0, 0, app::WeightMatrix::W_K, 0, 0, -1.0});
  EXPECT_FALSE(controller.can_redo());
}

TEST_F(ControllerTest, DragStepsMergeIntoOneUndoStep) {
  app::Controller controller(state, resources);
  const float original = state.document.model.layers[0].heads[1].W_Q(2, 3);
  for (int i = 0; i < 30; ++i)
    controller.apply(app::SetWeight{0, 1, app::WeightMatrix::W_Q, 2, 3, i * 0.1}, 77);
  controller.end_merge();
  ASSERT_TRUE(controller.undo());
  EXPECT_EQ(state.document.model.layers[0].heads[1].W_Q(2, 3), original);
  EXPECT_FALSE(controller.can_undo());
}

TEST_F(ControllerTest, RefusedEditChangesNothingAndPostsANotice) {
  app::Controller controller(state, resources);
  const Document before = state.document;
  EXPECT_FALSE(controller.apply(app::SetHeadCount{99, 0}).ok());
  EXPECT_EQ(state.document.model.layers[0].head_count(), before.model.layers[0].head_count());
  EXPECT_FALSE(controller.can_undo());
  ASSERT_FALSE(state.notices.empty());
  EXPECT_EQ(state.notices.back().level, app::NoticeLevel::error);
}

// Draws whole frames of the lab with no GPU at several screen sizes: ImGui asserts (ID clashes,
// unbalanced Begin/End) fail the test.
TEST_F(ControllerTest, LabDrawsHeadlesslyAtEverySize) {
  app::Controller controller(state, resources);
  controller.apply(app::SetLayerCount{2});
  HeadlessImGui imgui;
  ImGuiIO& io = ImGui::GetIO();
  LabUiState ui;
  for (const ImVec2 size : {ImVec2(1280, 720), ImVec2(390, 844), ImVec2(3840, 2160)}) {
    io.DisplaySize = size;
    for (const DetailView view : {DetailView::heatmap, DetailView::arcs, DetailView::concat, DetailView::circuits, DetailView::query_key}) {
      ui.detail = view;
      ui.side = view == DetailView::arcs ? SidePanel::labels : SidePanel::weights;
      io.DeltaTime = 1.0f / 60.0f;
      ImGui::NewFrame();
      draw_lab_window(controller, ui);
      ImGui::Render();
      EXPECT_GT(ImGui::GetDrawData()->TotalVtxCount, 1000);
    }
  }
  EXPECT_TRUE(ui.widget_rects.count("heads/plus"));
  EXPECT_TRUE(ui.widget_rects.count("editor/cell/0/0"));
}

// Every text the lab asks the table for exists, in every view, both languages, with the help
// overlay, the summary overview and a lesson open.
TEST_F(ControllerTest, EveryViewFindsItsTextsInBothLanguages) {
  app::Controller controller(state, resources);
  controller.apply(app::SetLayerCount{2});
  ASSERT_EQ(app::start_step(controller, 0, 0), "");
  HeadlessImGui imgui;
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(1280, 720);
  LabUiState ui;
  ui.show_help = true;
  ui.reveal_pruning = true;
  for (const app::Language language : {app::Language::en, app::Language::zh}) {
    app::set_language(controller, language);
    for (const bool summary : {false, true}) {
      ui.overview_summary = summary;
      for (const DetailView view : {DetailView::heatmap, DetailView::arcs, DetailView::concat, DetailView::circuits, DetailView::query_key}) {
        for (const SidePanel side : {SidePanel::weights, SidePanel::labels}) {
          ui.detail = view;
          ui.side = side;
          for (int frame = 0; frame < 2; ++frame) {
            io.DeltaTime = 1.0f / 60.0f;
            ImGui::NewFrame();
            draw_lab_window(controller, ui);
            ImGui::Render();
          }
        }
      }
    }
  }
  EXPECT_EQ(resources.ui_text.missing(), std::set<std::string>{});
}

// The circuits tab shows the engine's circuits of the selected head and the composition of its
// layer pair, recomputed when the selection or the model changes and not otherwise.
// The weight grid and the circuits tab name features in the learner's language: in Chinese the
// Chinese word, then the id lessons and goals use ("名词 noun"); every named feature has one.
TEST_F(ControllerTest, FeatureNamesAreChineseInAChineseLab) {
  app::Controller controller(state, resources);
  HeadlessImGui imgui;
  LabUiState ui;
  app::Dispatcher dispatcher(controller, nullptr);
  ActionSink sink(dispatcher);
  PanelContext context{sink, ui, resources.example_sentences, resources.presets};
  const std::vector<std::string> english = context.feature_names();
  ASSERT_GE(english.size(), 24u);
  EXPECT_EQ(english[5], "noun");
  app::set_language(controller, app::Language::zh);
  const std::vector<std::string> chinese = context.feature_names();
  ASSERT_EQ(chinese.size(), english.size());
  EXPECT_EQ(chinese[5], "\xE5\x90\x8D\xE8\xAF\x8D noun");  // 名词 noun
  for (std::size_t d = 0; d < 24; ++d) {
    EXPECT_NE(chinese[d], english[d]) << english[d] << " has no Chinese name";
    EXPECT_EQ(chinese[d].substr(chinese[d].size() - english[d].size()), english[d]) << "the id stays: " << chinese[d];
  }
  app::set_language(controller, app::Language::en);
  EXPECT_EQ(context.feature_names(), english);
}

TEST_F(ControllerTest, CircuitsTabFollowsTheSelectionAndTheModel) {
  app::Controller controller(state, resources);
  HeadlessImGui imgui;
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(1280, 720);
  LabUiState ui;
  ui.detail = DetailView::circuits;
  const auto frame = [&] {
    io.DeltaTime = 1.0f / 60.0f;
    ImGui::NewFrame();
    draw_lab_window(controller, ui);
    ImGui::Render();
  };
  frame();
  EXPECT_EQ(ui.circuits.layer_a, -1);  // one layer: no composition
  controller.apply(app::SetLayerCount{2});
  controller.apply(app::SelectHead{1, 2});
  frame();
  const Model& model = state.document.model;
  EXPECT_EQ(ui.circuits.layer, 1);
  EXPECT_EQ(ui.circuits.head, 2);
  EXPECT_TRUE(ui.circuits.qk.isApprox(analysis::qk_circuit(model, 1, 2)));
  EXPECT_TRUE(ui.circuits.ov.isApprox(analysis::ov_circuit(model, 1, 2)));
  EXPECT_EQ(ui.circuits.layer_a, 0);
  EXPECT_EQ(ui.circuits.layer_b, 1);
  EXPECT_TRUE(ui.circuits.composition.k.isApprox(analysis::composition_scores(model, 0, 1).k));
  // An edit of that head's W_K changes its QK circuit on the next frame.
  controller.apply(app::SetWeight{1, 2, app::WeightMatrix::W_K, 0, 0, 3.0});
  frame();
  EXPECT_TRUE(ui.circuits.qk.isApprox(analysis::qk_circuit(state.document.model, 1, 2)));
}

// Panels change the model only through actions: the weight editor's "pruned" checkbox and its
// preset menu, clicked headlessly, are each one undo step of the Controller.
TEST_F(ControllerTest, WeightEditorControlsAreUndoableActions) {
  app::Controller controller(state, resources);
  HeadlessImGui imgui(ImVec2(1280, 900));
  LabUiState ui;
  const auto frame = [&] {
    ImGui::GetIO().DeltaTime = 1.0f / 60.0f;
    ImGui::NewFrame();
    draw_lab_window(controller, ui);
    ImGui::Render();
  };
  const auto click = [&](const std::string& name) { click_widget(ui, name, frame); };
  ASSERT_TRUE(controller.apply(app::SelectHead{0, 1}).ok());
  click(ids::kEditorPruned);
  EXPECT_TRUE(state.document.model.layers[0].heads[1].pruned);
  ASSERT_TRUE(controller.undo());
  EXPECT_FALSE(state.document.model.layers[0].heads[1].pruned);
  EXPECT_FALSE(controller.can_undo());

  const Matrix before = state.document.model.layers[0].heads[1].W_K;
  click(ids::kPresetCombo);
  click("editor/preset/previous_token");
  EXPECT_NE(state.document.model.layers[0].heads[1].W_K, before);
  EXPECT_EQ(state.analysis.layers[0].heads[1].label.text(), "previous_token");
  ASSERT_TRUE(controller.undo());
  EXPECT_EQ(state.document.model.layers[0].heads[1].W_K, before);
}

}  // namespace
}  // namespace headlab::ui

namespace headlab::ui {
namespace {

// GPT-2 small's shape in heads (12 x 12) at a small width: a checkpoint-shaped model (final norm,
// a learned embedding read through the text vocabulary, learned positions).
Model checkpoint_shaped_model() {
  Model model = make_model(48, 12, 12, 3, Embedding::random);
  model.positional = Positional::learned;
  model.causal = true;
  model.positional_table = Matrix::Random(16, 48) * 0.1f;
  model.tokenizer = "text";
  const int vocab = static_cast<int>(app::test_resources().subword_tokenizer("text")->tokens.size());
  model.token_embedding = Matrix::Random(vocab, 48) * 0.5f;
  model.final_gamma = RowVector::Ones(48);
  model.final_beta = RowVector::Zero(48);
  return model;
}

TEST(CheckpointInTheLab, TheOverviewDrawsAll144HeadsOneRowALayerAndThePredictionsTabListsTheTop5) {
  app::AppState state;
  state.document.input.text = "The cat sat on the mat because it was warm.";
  app::Controller controller(state, app::test_resources());
  controller.open_checkpoint(checkpoint_shaped_model(), "test.safetensors");
  ASSERT_EQ(state.predictions.size(), state.input.tokens.size());
  ASSERT_EQ(state.predictions.front().size(), static_cast<std::size_t>(app::kPredictionCount));
  HeadlessImGui imgui;
  LabUiState ui;
  ui.detail = DetailView::predictions;
  for (int frame = 0; frame < 3; ++frame) {
    ImGui::GetIO().DeltaTime = 1.0f / 60.0f;
    ImGui::NewFrame();
    draw_lab_window(controller, ui);
    ImGui::Render();
  }
  const Rect overview = ui.widget_rects.at(ids::kOverview);
  for (int l = 0; l < 12; ++l) {
    const Rect first = ui.widget_rects.at(std::string(ids::kOverviewHead) + "/" + std::to_string(l) + "/0");
    for (int h = 0; h < 12; ++h) {
      const Rect r = ui.widget_rects.at(std::string(ids::kOverviewHead) + "/" + std::to_string(l) + "/" + std::to_string(h));
      EXPECT_EQ(r.y, first.y) << "layer " << l << " head " << h << " wrapped";
      EXPECT_LE(r.x + r.w, overview.x + overview.w) << "layer " << l << " head " << h;
      EXPECT_GE(r.w, 8.0f);
    }
  }
  EXPECT_TRUE(ui.widget_rects.count(ids::kPredictions));
}

}  // namespace
}  // namespace headlab::ui
