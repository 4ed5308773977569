// The analysis as the page sees it: window.headlab.state() fields and the pruning/preset ops of
// the JS API (docs/js-api.md), driven through api::handle_request like the browser bridge.
#include <nlohmann/json.hpp>

#include <algorithm>

#include "analysis_fixture.h"
#include "api/api.h"
#include "app/controller.h"
#include "engine/analysis/redundancy.h"
#include "../app/test_resources.h"

namespace headlab::app {
namespace {

using nlohmann::json;

class AppAnalysisTest : public analysis::AnalysisTest {
 protected:
  json call(Controller& controller, const json& request) {
    const json response = json::parse(api::handle_request(controller, request.dump()));
    return response;
  }
  json state(Controller& controller) { return call(controller, {{"op", "state"}})["result"]; }
};

TEST_F(AppAnalysisTest, StateCarriesLabelsScoresAndGold) {
  AppState app;
  Controller controller(app, test_resources());
  const json s = state(controller);
  ASSERT_TRUE(s["gold"]["has_gold"].get<bool>());  // the default text is the example sentence
  EXPECT_EQ(s["gold"]["sentence_id"], "fox");
  const json& layer = s["layers"][0];
  ASSERT_EQ(layer["heads"].size(), 4u);
  for (const json& head : layer["heads"]) {
    EXPECT_TRUE(head["label"].is_string());
    EXPECT_TRUE(head["explanation"].is_string());
    EXPECT_TRUE(head["confidence"].is_number());
    EXPECT_TRUE(head["runners_up"].is_array());
    EXPECT_TRUE(head["importance"].is_number());
    EXPECT_TRUE(head.contains("syntactic_relation"));
    for (const char* id : analysis::kRoleIds) {
      ASSERT_TRUE(head["scores"].contains(id)) << id;
      EXPECT_TRUE(head["scores"][id].is_number()) << id;  // gold present: syntactic is a number too
    }
  }
  EXPECT_EQ(layer["redundancy"].size(), 4u);
  EXPECT_EQ(layer["redundancy"][0].size(), 4u);
  EXPECT_TRUE(layer["near_duplicates"].is_array());
  EXPECT_TRUE(layer["summary"]["label_counts"].contains("mixed"));
  EXPECT_TRUE(layer["summary"]["mean_scores"].contains("broad"));
}

// The per-edit analysis has no redundancy; state() computes it for the call, with the numbers and
// near-duplicate pairs layer_redundancy gives (and the analysis used to carry).
TEST_F(AppAnalysisTest, StateComputesTheRedundancyItCarries) {
  AppState app;
  Controller controller(app, test_resources());
  for (const int head : {0, 3})
    ASSERT_TRUE(call(controller, {{"op", "applyPreset"}, {"layer", 0}, {"head", head}, {"preset", "previous_token"}})["ok"].get<bool>());
  const json s = state(controller);
  for (std::size_t l = 0; l < app.trace.layers.size(); ++l) {
    const analysis::LayerRedundancy expected =
        analysis::layer_redundancy(app.trace.layers[l], app.document.model.causal, test_resources().analysis.config);
    const json& layer = s["layers"][l];
    const int heads = static_cast<int>(expected.distance.rows());
    ASSERT_EQ(layer["redundancy"].size(), static_cast<std::size_t>(heads));
    for (int a = 0; a < heads; ++a)
      for (int b = 0; b < heads; ++b)
        EXPECT_EQ(layer["redundancy"][a][b].get<float>(), expected.distance(a, b)) << "layer " << l << " heads " << a << "," << b;
    json pairs = json::array();
    for (const auto& [a, b] : expected.near_duplicates) pairs.push_back({a, b});
    EXPECT_EQ(layer["near_duplicates"], pairs) << "layer " << l;
  }
  EXPECT_EQ(s["layers"][0]["redundancy"][0][3].get<float>(), 0.0f) << "the same preset twice";
  const json& pairs = s["layers"][0]["near_duplicates"];
  EXPECT_NE(std::find(pairs.begin(), pairs.end(), json::array({0, 3})), pairs.end()) << pairs.dump();
}

TEST_F(AppAnalysisTest, PresetThenLabelThroughTheApi) {
  AppState app;
  Controller controller(app, test_resources());
  json r = call(controller, {{"op", "applyPreset"}, {"layer", 0}, {"head", 1}, {"preset", "previous_token"}});
  ASSERT_TRUE(r["ok"].get<bool>()) << r.dump();
  json s = state(controller);
  EXPECT_EQ(s["layers"][0]["heads"][1]["label"], "previous_token");
  EXPECT_GE(s["layers"][0]["heads"][1]["scores"]["previous_token"].get<double>(), 0.9);
  r = call(controller, {{"op", "applyPreset"}, {"layer", 0}, {"head", 1}, {"preset", "cls"}});
  EXPECT_FALSE(r["ok"].get<bool>());
  EXPECT_NE(r["error"].get<std::string>().find("special tokens"), std::string::npos);
  r = call(controller, {{"op", "applyPreset"}, {"layer", 0}, {"head", 1}, {"preset", "nope"}});
  EXPECT_FALSE(r["ok"].get<bool>());
  ASSERT_TRUE(call(controller, {{"op", "undo"}})["result"].get<bool>());
  s = state(controller);
  EXPECT_NE(s["layers"][0]["heads"][1]["label"], "previous_token");
}

TEST_F(AppAnalysisTest, NoGoldSentenceSaysWhy) {
  AppState app;
  Controller controller(app, test_resources());
  ASSERT_TRUE(call(controller, {{"op", "setText"}, {"text", "A zebra sat."}})["ok"].get<bool>());
  const json s = state(controller);
  EXPECT_FALSE(s["gold"]["has_gold"].get<bool>());
  EXPECT_TRUE(s["gold"]["sentence_id"].is_null());
  EXPECT_NE(s["gold"]["reason"].get<std::string>().find("no hand-checked parse"), std::string::npos);
  EXPECT_TRUE(s["layers"][0]["heads"][0]["scores"]["syntactic"].is_null());
}

TEST_F(AppAnalysisTest, SetPrunedAndPruneLeastImportantAreUndoable) {
  AppState app;
  Controller controller(app, test_resources());
  json r = call(controller, {{"op", "setPruned"}, {"layer", 0}, {"head", 2}, {"pruned", true}});
  ASSERT_TRUE(r["ok"].get<bool>()) << r.dump();
  json s = state(controller);
  EXPECT_TRUE(s["layers"][0]["heads"][2]["pruned"].get<bool>());
  EXPECT_EQ(s["layers"][0]["heads"][2]["importance"].get<double>(), 0.0);
  EXPECT_EQ(s["layers"][0]["heads"][2]["importance_rank"].get<int>(), -1);
  EXPECT_FALSE(call(controller, {{"op", "setPruned"}, {"layer", 0}, {"head", 9}, {"pruned", true}})["ok"].get<bool>());
  EXPECT_FALSE(call(controller, {{"op", "setPruned"}, {"layer", 0}, {"head", 1}})["ok"].get<bool>());

  const json ranking = s["layers"][0]["importance_ranking"];
  ASSERT_EQ(ranking.size(), 3u);
  r = call(controller, {{"op", "pruneLeastImportant"}, {"layer", 0}, {"k", 2}});
  ASSERT_TRUE(r["ok"].get<bool>()) << r.dump();
  EXPECT_EQ(r["result"], json({ranking[0], ranking[1]}));
  s = state(controller);
  int pruned = 0;
  for (const json& head : s["layers"][0]["heads"]) pruned += head["pruned"].get<bool>();
  EXPECT_EQ(pruned, 3);
  r = call(controller, {{"op", "pruneLeastImportant"}, {"layer", 0}, {"k", 1}});
  EXPECT_FALSE(r["ok"].get<bool>());  // one head must stay
  EXPECT_NE(r["error"].get<std::string>().find("one must stay"), std::string::npos);

  ASSERT_TRUE(call(controller, {{"op", "undo"}})["result"].get<bool>());
  ASSERT_TRUE(call(controller, {{"op", "undo"}})["result"].get<bool>());
  s = state(controller);
  for (const json& head : s["layers"][0]["heads"]) EXPECT_FALSE(head["pruned"].get<bool>());
}

}  // namespace
}  // namespace headlab::app
