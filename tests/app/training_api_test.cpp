// The window.headlab training ops drive the session: their replies, their refusals, and the
// experiment by frames or by steps.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <functional>
#include <cmath>
#include <nlohmann/json.hpp>
#include <set>

#include "api/api.h"
#include "app/action_codec.h"
#include "app/dispatcher.h"
#include "app/training_session.h"
#include "engine/assets.h"
#include "engine/embedding.h"
#include "engine/forward.h"
#include "engine/training/gold_corpus.h"
#include "test_resources.h"

namespace headlab::app {
namespace {

// Steps of each run of the grammar's experiment.
const int kGrammarExperimentSteps = training::head_count_plan(training::Task::grammar).steps_per_run;

using nlohmann::json;

// ---- the API ops ------------------------------------------------------------------------------------

json call(Controller& controller, TrainingSession* session, const json& request) {
  return json::parse(api::handle_request(controller, request.dump(), session));
}

TEST(TrainingApi, OpsAndErrors) {
  AppState state;
  Controller controller(state, test_resources());
  TrainingSession session(test_resources());
  EXPECT_EQ(call(controller, nullptr, {{"op", "trainState"}})["error"], "training is not available here");
  json r = call(controller, &session, {{"op", "trainState"}});
  EXPECT_EQ(r["result"]["started"], false);
  r = call(controller, &session, {{"op", "trainStep"}, {"steps", 5}, {"losses", true}});
  ASSERT_TRUE(r["ok"]) << r.dump();
  EXPECT_EQ(r["result"]["step"], 5);
  EXPECT_EQ(r["result"]["losses"].size(), 5u);
  EXPECT_EQ(r["result"]["roles"].size(), 8u);
  EXPECT_EQ(r["result"]["roles"][7]["layer"], 1);
  EXPECT_EQ(r["result"]["roles"][7]["head"], 3);
  r = call(controller, &session, {{"op", "trainStart"}, {"lr", 0.002}});
  EXPECT_EQ(r["result"]["running"], true);
  EXPECT_EQ(r["result"]["step"], 5);  // goes on with the same run
  EXPECT_FLOAT_EQ(r["result"]["learning_rate"].get<float>(), 0.002f);
  r = call(controller, &session, {{"op", "trainStart"}, {"seed", 9}});
  EXPECT_EQ(r["result"]["step"], 0);  // a seed starts a new run
  EXPECT_EQ(r["result"]["seed"], 9);
  EXPECT_EQ(call(controller, &session, {{"op", "trainPause"}})["result"]["running"], false);
  r = call(controller, &session, {{"op", "trainSettings"}, {"speed", 0.25}});
  EXPECT_FLOAT_EQ(r["result"]["speed"].get<float>(), 0.25f);
  r = call(controller, &session, {{"op", "compareHeads"}, {"steps", 3}, {"losses", true}});
  ASSERT_TRUE(r["ok"]) << r.dump();
  EXPECT_EQ(r["result"]["one"]["losses"].size(), 3u);
  EXPECT_EQ(r["result"]["many"]["heads"], 4);
  r = call(controller, &session, {{"op", "probe"}, {"wait", true}});
  EXPECT_EQ(r["result"]["heads"].size(), 8u);
  r = call(controller, &session, {{"op", "trainBenchmark"}, {"seconds", 0.2}});
  EXPECT_GT(r["result"]["steps_per_second"].get<double>(), 1.0);
  EXPECT_TRUE(call(controller, &session, {{"op", "trainUseModel"}})["ok"]);
  EXPECT_EQ(controller.state().document.model.layers.size(), 2u);

  const std::pair<json, const char*> refused[] = {
      {{{"op", "trainStep"}, {"steps", 0}}, "steps: expected an integer in 1..5000"},
      {{{"op", "trainReset"}, {"seed", -1}}, "seed: expected an integer in 0..4294967295"},
      {{{"op", "trainStart"}, {"lr", "fast"}}, "lr: expected a number in"},
      {{{"op", "trainSettings"}, {"speed", 0.95}}, "speed: expected a number in [0.1, 0.8] (got 0.95)"},
      {{{"op", "trainSettings"}, {"seed", 2}}, "seed: a new seed is a new run (trainReset)"},
      {{{"op", "trainBenchmark"}, {"seconds", 100}}, "seconds: expected a number in [0.1, 60]"},
      {{{"op", "compareHeads"}, {"run", 1}}, "run: expected true or false"},
      // A field of the wrong type is refused, never thrown (an exception would abort the page).
      {{{"op", "trainState"}, {"losses", "yes"}}, "losses: expected true or false (got \"yes\")"},
      {{{"op", "trainStep"}, {"steps", 2}, {"loss", true}}, "loss: unknown field (trainStep takes steps, losses)"},
      {{{"op", "probe"}, {"wait", 1}}, "wait: expected true or false (got 1)"},
  };
  for (const auto& [request, message] : refused) {
    r = call(controller, &session, request);
    EXPECT_FALSE(r["ok"]) << request.dump();
    EXPECT_EQ(r["error"].get<std::string>().rfind(message, 0), 0u) << r.dump();
  }
}

TEST(TrainingApi, TheHeadCountExperimentRunsByFramesOrBySteps) {
  AppState state;
  Controller controller(state, test_resources());
  TrainingSession session(test_resources());
  json r = call(controller, &session, {{"op", "headCountExperiment"}, {"steps", 5}});
  ASSERT_TRUE(r["ok"]) << r.dump();
  EXPECT_EQ(r["result"]["running"], false);
  EXPECT_EQ(r["result"]["step"], 5);
  EXPECT_EQ(r["result"]["total"], 12 * kGrammarExperimentSteps);
  ASSERT_EQ(r["result"]["runs"].size(), 12u);
  EXPECT_EQ(r["result"]["runs"][0]["heads"], 1);
  EXPECT_EQ(r["result"]["runs"][3]["heads"], 8);
  EXPECT_EQ(r["result"]["runs"][11]["heads"], 8);
  EXPECT_EQ(r["result"]["runs"][11]["seed"], 3);
  EXPECT_EQ(r["result"]["points"].size(), 4u);
  EXPECT_TRUE(r["result"]["points"][0]["mean"].is_null()) << "no run has finished";
  r = call(controller, &session, {{"op", "headCountExperiment"}, {"run", true}});
  EXPECT_EQ(r["result"]["running"], true);
  session.advance_frame();
  EXPECT_GT(session.experiment()->steps_done(), 5);
  EXPECT_FALSE(call(controller, &session, {{"op", "headCountExperiment"}, {"steps", 0}})["ok"]);
  EXPECT_TRUE(call(controller, &session, {{"op", "trainState"}})["result"]["experiment"].is_object());
}

TEST(TrainingApi, TheTaskIsAFieldOfStartAndReset) {
  AppState state;
  Controller controller(state, test_resources());
  TrainingSession session(test_resources());
  json r = call(controller, &session, {{"op", "trainReset"}, {"task", "induction"}});
  ASSERT_TRUE(r["ok"]) << r.dump();
  EXPECT_EQ(r["result"]["task"], "induction");
  r = call(controller, &session, {{"op", "trainStep"}, {"steps", 100}});
  const json& head = r["result"]["timeline"][1]["heads"][4];
  EXPECT_EQ(head["layer"], 1);
  EXPECT_TRUE(head.contains("prefix_matching"));
  EXPECT_TRUE(r["result"]["timeline"][1].contains("repeat_loss"));
  EXPECT_TRUE(r["result"]["phase_change_step"].is_null());
  EXPECT_EQ(call(controller, &session, {{"op", "probe"}})["ok"], false);
  // trainStart with another task starts a new run of it.
  r = call(controller, &session, {{"op", "trainStart"}, {"task", "grammar"}});
  EXPECT_EQ(r["result"]["task"], "grammar");
  EXPECT_EQ(r["result"]["step"], 0);
  r = call(controller, &session, {{"op", "trainReset"}, {"task", "chess"}});
  EXPECT_EQ(r["error"].get<std::string>().rfind("task: expected one of", 0), 0u) << r.dump();
  // The lesson's request reaches the run before the next request.
  r = call(controller, &session, {{"op", "requestTraining"}, {"task", "induction"}, {"seed", 2}});
  ASSERT_TRUE(r["ok"]) << r.dump();
  EXPECT_EQ(call(controller, &session, {{"op", "trainState"}})["result"]["task"], "induction");
  EXPECT_EQ(call(controller, &session, {{"op", "trainState"}})["result"]["seed"], 2);
}

// The Training tab's controls, the JS API and lesson moves make the same actions, decoded by the one
// codec and applied by the Dispatcher: training ones reach the session, ranges are refused with the
// field named, and without a session a training action is refused.
TEST(TrainingActions, TheDispatcherRoutesEachActionDecodedByTheCodec) {
  AppState state;
  Controller controller(state, test_resources());
  TrainingSession session(test_resources());
  Dispatcher dispatcher(controller, &session);
  const auto apply = [&](const char* request) {
    const Result<Action> action = decode_action(json::parse(request));
    EXPECT_TRUE(action.ok()) << action.error();
    return dispatcher.apply(action.value());
  };
  EXPECT_EQ(apply(R"({"op": "stepTraining", "steps": 12})").error, "");
  EXPECT_EQ(session.trainer()->steps_done(), 12);
  EXPECT_EQ(apply(R"({"op": "setLearningRate", "learning_rate": 0.0123})").error, "");
  EXPECT_FLOAT_EQ(session.trainer()->config().learning_rate, 0.0123f);
  EXPECT_EQ(apply(R"({"op": "setLearningRate", "learning_rate": 0.5})").error,
            "learning_rate: expected a number in [0.0001, 0.03] (got 0.5)");
  EXPECT_EQ(apply(R"({"op": "stepTraining", "steps": 0})").error, "steps: expected an integer in 1..5000 (got 0)");
  EXPECT_EQ(apply(R"({"op": "playTraining"})").error, "");
  EXPECT_TRUE(session.running());
  EXPECT_EQ(apply(R"({"op": "playTraining", "run": false})").error, "");
  EXPECT_FALSE(session.running());
  EXPECT_EQ(apply(R"({"op": "newTrainingRun", "seed": 5})").error, "");
  EXPECT_EQ(session.settings().seed, 5u);
  EXPECT_EQ(session.trainer()->steps_done(), 0);
  EXPECT_FLOAT_EQ(session.settings().learning_rate, 0.0123f);  // a new run keeps the rate
  EXPECT_EQ(apply(R"({"op": "useTrainedModel"})").error, "");
  EXPECT_TRUE(controller.can_undo());
  EXPECT_TRUE(dispatcher.apply(Undo{}).changed);
  EXPECT_FALSE(dispatcher.apply(Undo{}).changed);  // nothing left to undo
  EXPECT_EQ(apply(R"({"op": "setLanguage", "language": "zh"})").error, "");
  EXPECT_EQ(state.progress.language, Language::zh);

  Dispatcher without_training(controller, nullptr);
  EXPECT_EQ(without_training.apply(StepTraining{1}).error, "training is not available here");
  // A lesson's setup runs on the state alone: a training action there is refused, not ignored.
  EXPECT_NE(controller.apply(StepTraining{1}).error, "");
}

}  // namespace
}  // namespace headlab::app
