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
#include "app/training_session.h"
#include "engine/assets.h"
#include "engine/embedding.h"
#include "engine/forward.h"
#include "engine/training/gold_corpus.h"
#include "test_resources.h"

namespace headlab::app {
namespace {

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
  EXPECT_EQ(r["result"]["total"], 12 * kExperimentStepsPerRun);
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

}  // namespace
}  // namespace headlab::app
