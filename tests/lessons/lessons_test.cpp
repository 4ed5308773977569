// Every lesson step is reachable: its goal is false right after its setup and true after its
// "show me" solution, checked natively through the same actions the page applies. Plus lint:
// every text has both languages, every request decodes into an action (Resources refuses to load
// otherwise; assets_lint_test.cpp), highlights are known widgets.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "api/api.h"
#include "app/controller.h"
#include "app/lesson_runner.h"
#include "app/training_session.h"
#include "engine/assets.h"
#include "../app/gpt2_shaped_checkpoint.h"
#include "../app/test_resources.h"

namespace headlab::app {
namespace {

class LessonsTest : public ::testing::Test {
 protected:
  const Resources& resources = test_resources();
};

TEST_F(LessonsTest, AtLeastFourteenLessonsLoad) {
  Result<LessonList> lessons = lessons::load_lessons();
  ASSERT_TRUE(lessons.ok()) << lessons.error();
  EXPECT_GE(lessons.value().size(), 14u);
}

// A step whose goal reads the training run is reached by training after its solution (below);
// here its setup must leave the goal open and its solution must start the run.
TEST_F(LessonsTest, EveryGoalIsFalseAfterSetupAndTrueAfterSolution) {
  give_test_text_sample();  // lesson 18's experiment on real text
  AppState state;
  Controller controller(state, resources);
  TrainingSession training(resources);
  ASSERT_FALSE(resources.lessons.empty());
  for (int l = 0; l < static_cast<int>(resources.lessons.size()); ++l) {
    const lessons::Lesson& lesson = resources.lessons[l];
    for (int s = 0; s < static_cast<int>(lesson.steps.size()); ++s) {
      SCOPED_TRACE(lesson.id + "/" + lesson.steps[s].id);
      if (lessons::waits_for_a_checkpoint(lesson.steps[s].goal, state.document.model)) {
        // Without a checkpoint such a step waits for one; the learner opens it during the step.
        ASSERT_EQ(start_step(controller, l, s), "");
        ASSERT_EQ(show_me(controller), "");  // the named head does not exist in HeadLab's own models
        EXPECT_FALSE(state.progress.goal_met) << "met without a checkpoint open";
        controller.open_checkpoint(gpt2_shaped_checkpoint(), "model.safetensors");
      }
      ASSERT_EQ(start_step(controller, l, s), "");
      sync_training(controller, training);
      EXPECT_FALSE(state.progress.goal_met) << "the goal already holds after the setup";
      EXPECT_FALSE(state.progress.completed.count(lesson.id + "/" + lesson.steps[s].id))
          << "the step was marked completed on arrival (by a state on the way through its setup)";
      ASSERT_EQ(show_me(controller), "");
      sync_training(controller, training);
      if (lessons::find_goal(lesson.steps[s].goal, lessons::GoalKind::training)) {
        EXPECT_TRUE(training.running() || training.experiment_running()) << "the solution does not start training";
        training.set_running(false);
        training.set_experiment_running(false);
        continue;
      }
      EXPECT_TRUE(state.progress.goal_met) << "the solution does not reach the goal";
      EXPECT_TRUE(state.progress.completed.count(lesson.id + "/" + lesson.steps[s].id));
    }
  }
}

// The index of lesson `id` and of its step `step_id`, as start_step takes them.
std::pair<int, int> find_step(const Resources& resources, const std::string& id, const std::string& step_id) {
  for (int l = 0; l < static_cast<int>(resources.lessons.size()); ++l)
    for (int s = 0; s < static_cast<int>(resources.lessons[l].steps.size()); ++s)
      if (resources.lessons[l].id == id && resources.lessons[l].steps[s].id == step_id) return {l, s};
  ADD_FAILURE() << "no step " << id << "/" << step_id;
  return {0, 0};
}

// A run trained in the Training tab before a step counts nothing for it: the step's setup starts
// a fresh run, and the goal (and so Next) follows that run, as the goal's bar does ("step 0").
TEST_F(LessonsTest, ATrainingStepIsNotCompletedByARunTrainedBeforeIt) {
  AppState state;
  Controller controller(state, resources);
  TrainingSession training(resources);
  // The learner picked the induction task in the Training tab and trained until a layer-1 head
  // formed (about step 1,500 with seed 1; EmergenceLessons trains it for real): the session's
  // reading then, its layer-1 heads' prefix matching raised to what a formed head reaches.
  ASSERT_TRUE(controller.apply(RequestTraining{training::Task::induction, 1, false, true}).ok());
  sync_training(controller, training);
  training.step(100);
  lessons::TrainingReading formed = training.reading();
  for (lessons::TrainingHeadReading& head : formed.heads)
    if (head.layer == 1) head.prefix_matching = 0.6f;
  controller.observe_training(formed);

  const auto [lesson, step] = find_step(resources, "16-induction", "train");
  const std::string key = "16-induction/train";
  ASSERT_EQ(start_step(controller, lesson, step), "");
  EXPECT_FALSE(state.progress.goal_met) << "the goal read the run trained before the step";
  EXPECT_FALSE(state.progress.completed.count(key));
  sync_training(controller, training);
  ASSERT_TRUE(state.training.has_value());
  EXPECT_EQ(state.training->steps, 0);
  EXPECT_FALSE(state.progress.goal_met);
  EXPECT_FALSE(state.progress.completed.count(key)) << "Next is unlocked while the goal reads step 0";
}

// The same for the one-vs-many experiment: one finished before the step is not the step's.
TEST_F(LessonsTest, AnExperimentStepIsNotCompletedByAnExperimentRunBeforeIt) {
  AppState state;
  Controller controller(state, resources);
  TrainingSession training(resources);
  lessons::TrainingReading finished;
  finished.experiment_runs = 12;
  finished.experiment_head_counts = 4;
  controller.observe_training(finished);

  const auto [lesson, step] = find_step(resources, "18-one-or-many", "experiment");
  ASSERT_EQ(start_step(controller, lesson, step), "");
  EXPECT_FALSE(state.progress.goal_met) << "the goal read the experiment run before the step";
  EXPECT_FALSE(state.progress.completed.count("18-one-or-many/experiment"));
  sync_training(controller, training);
  ASSERT_TRUE(state.training.has_value());
  EXPECT_EQ(state.training->experiment_head_counts, 0);
  EXPECT_FALSE(state.progress.completed.count("18-one-or-many/experiment"));
}

// The steps that train: after the solution starts the run, training (as the page does, a frame's
// steps at a time) reaches the goal within 3,000 steps. Minutes under sanitizers or WebAssembly,
// so an Emergence test (the native run only).
TEST(EmergenceLessons, TrainingStepsReachTheirGoalByTraining) {
  give_test_text_sample();
  const Resources& resources = test_resources();
  AppState state;
  Controller controller(state, resources);
  TrainingSession training(resources);
  int steps_checked = 0;
  for (int l = 0; l < static_cast<int>(resources.lessons.size()); ++l) {
    const lessons::Lesson& lesson = resources.lessons[l];
    for (int s = 0; s < static_cast<int>(lesson.steps.size()); ++s) {
      if (!lessons::find_goal(lesson.steps[s].goal, lessons::GoalKind::training)) continue;
      SCOPED_TRACE(lesson.id + "/" + lesson.steps[s].id);
      ++steps_checked;
      ASSERT_EQ(start_step(controller, l, s), "");
      sync_training(controller, training);
      EXPECT_FALSE(state.progress.goal_met);
      ASSERT_EQ(show_me(controller), "");
      sync_training(controller, training);
      // The solution starts the run or the experiment; train whichever it started, as frames would.
      const bool experiment = training.experiment_running();
      ASSERT_TRUE(experiment || training.running());
      if (experiment && training.experiment_task() == training::Task::lm) {
        // Five runs of 1,000 steps on real text take minutes natively: the goal's reading is
        // checked below (ExperimentOnRealText), the experiment's runs in HeadCountExperiment.
        training.set_experiment_running(false);
        continue;
      }
      if (!experiment) {
        ASSERT_EQ(training.trainer()->steps_done(), 0);
      }
      const auto steps = [&] { return experiment ? training.experiment()->steps_done() : training.trainer()->steps_done(); };
      while (!state.progress.goal_met && steps() < (experiment ? 12000 : 3000)) {
        if (experiment) training.step_experiment(500);
        else training.step(100);
        sync_training(controller, training);
      }
      EXPECT_TRUE(state.progress.goal_met) << "not reached by training";
      std::printf("%s/%s: goal reached at step %d%s\n", lesson.id.c_str(), lesson.steps[s].id.c_str(), steps(),
                  experiment ? " of the experiment" : "");
      training.set_running(false);
      training.set_experiment_running(false);
    }
  }
  EXPECT_GE(steps_checked, 1);
}

// Lesson 18's goal on real text counts the head counts with a finished run of an experiment on
// real text, not of the grammar's.
TEST(ExperimentOnRealText, TheGoalCountsHeadCountsOfTheTextExperimentOnly) {
  const lessons::Lesson& lesson = *std::find_if(test_resources().lessons.begin(), test_resources().lessons.end(),
                                                [](const lessons::Lesson& l) { return l.id == "18-one-or-many"; });
  const lessons::Goal& goal = lesson.steps.back().goal;
  lessons::TrainingReading reading;
  reading.experiment_head_counts = 5;
  reading.experiment_task = training::Task::grammar;
  EXPECT_TRUE(std::isnan(lessons::training_goal_score(goal, reading)));
  reading.experiment_task = training::Task::lm;
  EXPECT_EQ(lessons::training_goal_score(goal, reading), 5.0);
  reading.experiment_head_counts = 4;
  EXPECT_EQ(lessons::training_goal_score(goal, reading), 4.0);
  EXPECT_EQ(goal.min, 5.0) << "every head count: 1, 2, 4, 8 and 16";
}

TEST_F(LessonsTest, StepsMoveForwardAndBackAndFreePlayComesBack) {
  AppState state;
  Controller controller(state, resources);
  ASSERT_EQ(start_step(controller, 3, 0), "");
  ASSERT_EQ(next_step(controller), "");
  EXPECT_EQ(state.progress.step, 1);
  leave_lesson(controller);
  EXPECT_EQ(state.progress.lesson, -1);
  ASSERT_EQ(resume_lesson(controller), "");
  EXPECT_EQ(state.progress.lesson, 3);
  EXPECT_EQ(state.progress.step, 1);
  ASSERT_EQ(previous_step(controller), "");
  EXPECT_EQ(state.progress.step, 0);
  EXPECT_NE(start_step(controller, 99, 0), "");
}

// Lesson 2 says a strong noun key draws attention to nouns: true for the model it sets up. A key
// only counts through q . k, so the step gives every query a positive first column (W_Q's "bias"
// row) and the claim holds for every word; the starting model's queries all point the other way
// there, and the same key lowered attention to nouns (The -> cat 0.34 -> 0.18).
TEST_F(LessonsTest, LessonTwosStrongNounKeyDrawsEveryWordTowardsTheNouns) {
  AppState state;
  Controller controller(state, resources);
  const auto [l, s] = find_step(resources, "02-projections", "shapes");
  ASSERT_EQ(start_step(controller, l, s), "");
  ASSERT_TRUE(controller.apply(SetHeadDim{0, 2, 2}).ok());
  const auto noun_share = [&](int row) {  // "The cat chased the mouse .": nouns at 1 and 4
    const Matrix& a = state.trace.layers[0].heads[0].attention;
    return a(row, 1) + a(row, 4);
  };
  const Matrix before_key = state.trace.layers[0].heads[0].attention;
  // The solution's strong noun key: every row looks more at the nouns.
  ASSERT_TRUE(controller.apply(SetWeight{0, 0, WeightMatrix::W_K, 5, 0, 3.0}).ok());
  for (int row = 0; row < before_key.rows(); ++row) {
    const double before = before_key(row, 1) + before_key(row, 4);
    EXPECT_GT(noun_share(row), before) << "row " << row;
  }
}

TEST_F(LessonsTest, HighlightsNameWidgetsThatExist) {
  Result<LessonList> lessons = lessons::load_lessons();
  ASSERT_TRUE(lessons.ok());
  const std::set<std::string> prefixes = {"heads/", "layers/", "editor/", "tab/", "overview", "detail/", "examples",
                                          "sentence", "arcs", "labels", "concat", "train/", "qkmap/", "corpus/"};
  for (const auto& lesson : lessons.value())
    for (const auto& step : lesson.steps)
      for (const std::string& id : step.highlight) {
        bool known = false;
        for (const std::string& p : prefixes) known |= id.rfind(p, 0) == 0;
        EXPECT_TRUE(known) << lesson.id << ": unknown widget " << id;
      }
}

// Lesson files are read strictly: a field of the wrong type fails at load with its path instead of
// being ignored (a goal "layer": "1" used to mean layer 0).
TEST(LessonFiles, BadFieldsNameTheirPath) {
  using nlohmann::json;
  const json both = {{"en", "x"}, {"zh", "x"}};
  const json step = {{"title", both}, {"text", both}, {"goal_text", both},
                     {"goal", {{"kind", "label"}, {"layer", 0}, {"label", "previous_token"}}}};
  const json lesson = {{"format", "headlab-lesson"}, {"id", "demo"}, {"title", both}, {"summary", both}, {"steps", {step}}};
  ASSERT_TRUE(lessons::parse_lesson(lesson.dump()).ok()) << lessons::parse_lesson(lesson.dump()).error();
  const auto error_with = [&](const char* pointer, const json& value) {
    json bad = lesson;
    bad[json::json_pointer(pointer)] = value;
    return lessons::parse_lesson(bad.dump()).error();
  };
  EXPECT_EQ(error_with("/steps/0/goal/layer", "1"), "demo.steps[0].goal.layer: expected an integer in -1..5 (got \"1\")");
  EXPECT_EQ(error_with("/steps/0/goal/head", 16), "demo.steps[0].goal.head: expected an integer in -1..15 (got 16)");
  EXPECT_EQ(error_with("/steps/0/goal/min", "high"), "demo.steps[0].goal.min: expected a number in [-1e+06, 1e+06] (got \"high\")");
  EXPECT_EQ(error_with("/steps/0/goal/label", 3.5), "demo.steps[0].goal.label: expected a non-empty string (got 3.5)");
  EXPECT_EQ(error_with("/steps/0/setup", json::array({{{"op", 1}}})), "demo.steps[0].setup[0].op: expected a non-empty string (got 1)");
  EXPECT_EQ(error_with("/steps/0/highlight", json::array({7})), "demo.steps[0].highlight[0]: expected a non-empty string (got 7)");
  EXPECT_EQ(error_with("/id", 5), "id: expected a non-empty string (got 5)");
  EXPECT_EQ(error_with("/steps/0/title", "only english"),
            "demo.steps[0].title: expected {\"en\": \"...\", \"zh\": \"...\"} with both languages");
}

}  // namespace
}  // namespace headlab::app
