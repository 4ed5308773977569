// The Training tab without a GPU: plot helpers, every view drawn headlessly at several sizes, and
// Play / "+10 steps" / probes / comparison / "Use in lab" clicked with simulated mouse input.
#include <gtest/gtest.h>

#include <cmath>

#include "app/controller.h"
#include "app/lesson_runner.h"
#include "app/training_session.h"
#include "../app/test_resources.h"
#include "headless_imgui.h"
#include "imgui.h"
#include "ui/lab_window.h"
#include "ui/plot.h"
#include "ui/role_timeline.h"
#include "ui/widget_ids.h"

namespace headlab::ui {
namespace {

TEST(Plot, NiceTicksAreRoundAndCoverTheRange) {
  EXPECT_EQ(nice_ticks(0, 3000, 4), (std::vector<float>{0, 1000, 2000, 3000}));
  EXPECT_EQ(nice_ticks(0, 4.6f, 5), (std::vector<float>{0, 1, 2, 3, 4}));
  const std::vector<float> fractions = nice_ticks(0.2f, 0.9f, 3);
  ASSERT_EQ(fractions.size(), 4u);
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(fractions[i], 0.2f * (i + 1), 1e-6f);
  EXPECT_TRUE(nice_ticks(1, 1, 4).empty());
}

TEST(Plot, BucketMeansAverageEqualSlicesAndSkipNaN) {
  const float values[] = {1, 3, 5, 7, NAN, 11};
  std::vector<float> out;
  bucket_means(values, 6, 3, out);
  EXPECT_EQ(out, (std::vector<float>{2, 6, 11}));
  bucket_means(values, 6, 100, out);  // never more buckets than values
  EXPECT_EQ(out.size(), 6u);
  bucket_means(values, 0, 4, out);
  EXPECT_TRUE(out.empty());
}

TEST(RoleText, RelationsReadInTheDirectionOfAttention) {
  const Words en{app::test_resources(), app::Language::en};
  app::HeadRole role{analysis::Label::syntactic(analysis::Relation::nsubj), 0.9f, 0.5f, training::kHeadToDependent};
  EXPECT_EQ(role_text(role, en), "verb -> subject (nsubj)");
  role.direction = training::kDependentToHead;
  EXPECT_EQ(role_text(role, en), "subject -> verb (nsubj)");
  EXPECT_EQ(role_text(role, en, false), "subject -> verb");
  EXPECT_EQ(role_text({analysis::Label::of(analysis::Role::previous_token), 0.8f, 0.5f}, en), "previous token");
  EXPECT_EQ(role_text({}, en), "mixed");
}

TEST(RoleText, ChineseNamesTheRelationsEndsAndTheRoles) {
  const Words zh{app::test_resources(), app::Language::zh};
  const app::HeadRole role{analysis::Label::syntactic(analysis::Relation::nsubj), 0.9f, 0.5f, training::kDependentToHead};
  EXPECT_EQ(role_text(role, zh), "主语 -> 动词 (nsubj)");
  EXPECT_EQ(role_text({analysis::Label::of(analysis::Role::previous_token), 0.8f, 0.5f}, zh), "前一个词");
  EXPECT_EQ(role_text({}, zh), "混合");
  EXPECT_EQ(role_text({analysis::Label::syntactic(analysis::Relation::conj), 0.9f, 0.5f}, zh), "conj（句法）");
}

class TrainingPanel : public ::testing::Test {
 protected:
  HeadlessImGui imgui;

  void frame(app::Controller& controller, app::TrainingSession& session) {
    ImGuiIO& io = ImGui::GetIO();
    io.DeltaTime = 1.0f / 60.0f;
    ImGui::NewFrame();
    app::Dispatcher dispatcher(controller, &session);
    draw_lab_window(dispatcher, ui);
    ImGui::Render();
  }
  void click(app::Controller& controller, app::TrainingSession& session, const char* name) {
    click_widget(ui, name, [&] { frame(controller, session); });
  }

  const app::Resources& resources = app::test_resources();
  app::AppState state;
  LabUiState ui;
};

TEST_F(TrainingPanel, EveryViewDrawsAtEverySize) {
  app::Controller controller(state, resources);
  app::TrainingSession session(resources);
  ui.detail = DetailView::training;
  frame(controller, session);
  EXPECT_TRUE(session.started());  // opening the tab builds the model
  session.step(200);
  session.start_comparison();
  session.step_comparison(50);
  session.start_probes();
  session.finish_probes();
  for (const ImVec2 size : {ImVec2(1280, 720), ImVec2(390, 844), ImVec2(3840, 2160)}) {
    ImGui::GetIO().DisplaySize = size;
    for (const TrainingView view : {TrainingView::progress, TrainingView::probes, TrainingView::comparison}) {
      ui.training_view = view;
      frame(controller, session);
      EXPECT_GT(ImGui::GetDrawData()->TotalVtxCount, 1000);
    }
  }
  for (const char* name : {ids::kTabTraining, ids::kTrainPlay, ids::kTrainStep, ids::kTrainSeed, ids::kTrainRestart,
                           ids::kTrainRate, ids::kTrainSpeed, ids::kTrainUse, ids::kTrainComparePlot})
    EXPECT_TRUE(ui.widget_rects.count(name)) << name;
  // Every text the tab asks the table for exists, in Chinese too.
  app::set_language(controller, app::Language::zh);
  ImGui::GetIO().DisplaySize = ImVec2(1280, 720);
  for (const TrainingView view : {TrainingView::progress, TrainingView::probes, TrainingView::comparison}) {
    ui.training_view = view;
    frame(controller, session);
  }
  EXPECT_EQ(resources.ui_text.missing(), std::set<std::string>{});
}

// Real text: a click on the task asks for the text sample; the tab draws while the first run waits
// for it (there is no run yet), then the run's curves, with no labels, in both languages.
TEST_F(TrainingPanel, TheRealTextTaskDrawsWhileItWaitsAndOnceItTrains) {
  *resources.text_corpus = app::LateCorpus{};
  app::Controller controller(state, resources);
  app::TrainingSession session(resources);
  ASSERT_TRUE(controller.apply(app::RequestTraining{training::Task::lm, 1, false, true}).ok());
  app::sync_training(controller, session);
  ui.detail = DetailView::training;
  frame(controller, session);
  frame(controller, session);
  EXPECT_TRUE(session.run_waiting());
  EXPECT_FALSE(session.started());
  EXPECT_TRUE(ui.widget_rects.count(ids::kTrainTaskWaiting));
  EXPECT_FALSE(ui.widget_rects.count(ids::kTrainPlay)) << "nothing to play before the first run";
  app::give_test_text_sample();
  session.advance_frame();
  ASSERT_TRUE(session.started());
  EXPECT_EQ(session.settings().task, training::Task::lm);
  EXPECT_FLOAT_EQ(session.settings().learning_rate, 1e-2f) << "real text trains at the shipped model's rate";
  session.step(10);
  for (const app::Language language : {app::Language::en, app::Language::zh}) {
    app::set_language(controller, language);
    for (const ImVec2 size : {ImVec2(1280, 720), ImVec2(390, 844)}) {
      ImGui::GetIO().DisplaySize = size;
      for (const TrainingView view : {TrainingView::probes, TrainingView::progress}) {
        ui.training_view = view;
        frame(controller, session);
      }
    }
  }
  EXPECT_TRUE(ui.widget_rects.count(ids::kTrainFirstTokenPlot));
  EXPECT_FALSE(ui.widget_rects.count(ids::kTrainTimeline)) << "no labels on real text";
  EXPECT_EQ(resources.ui_text.missing(), std::set<std::string>{});
}

TEST_F(TrainingPanel, ButtonsDriveTheSession) {
  app::Controller controller(state, resources);
  app::TrainingSession session(resources);
  ui.detail = DetailView::training;
  click(controller, session, ids::kTrainStep);
  EXPECT_EQ(session.trainer()->steps_done(), 10);
  click(controller, session, ids::kTrainPlay);
  EXPECT_TRUE(session.running());
  click(controller, session, ids::kTrainPlay);
  EXPECT_FALSE(session.running());
  EXPECT_TRUE(ui.widget_rects.count(ids::kTrainLoss));
  EXPECT_TRUE(ui.widget_rects.count(ids::kTrainTimeline));

  click(controller, session, ids::kTrainViewProbes);
  ASSERT_EQ(ui.training_view, TrainingView::probes);
  click(controller, session, ids::kTrainProbe);
  EXPECT_EQ(session.probes().step, 10);
  click(controller, session, ids::kTrainViewCompare);
  click(controller, session, ids::kTrainCompare);
  EXPECT_TRUE(session.comparison_running());

  click(controller, session, ids::kTrainViewProgress);
  click(controller, session, ids::kTrainUse);
  EXPECT_FALSE(state.document.model.vocab.empty());
  EXPECT_EQ(ui.detail, DetailView::heatmap);  // the lab shows the trained heads next
  EXPECT_EQ(ui.side, SidePanel::labels);
}

}  // namespace
}  // namespace headlab::ui
