// The sentences of the queries-and-keys picture (app/query_key_job.h) and the picture through the
// JS API: the learner's sentence from the lab's trace, the examples through a forward pass of
// their own, a sentence a step, a checkpoint's count capped, and every attention recovered from
// the normalised points' vectors.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "api/api.h"
#include "app/controller.h"
#include "app/query_key_job.h"
#include "gpt2_shaped_checkpoint.h"
#include "test_resources.h"

namespace headlab::app {
namespace {

// The head's attention on `text`, through a document of its own (the lab's own path).
Matrix attention_of(const Model& model, const std::string& text, int layer, int head) {
  Document document{model, Input{}};
  document.input.text = text;
  const PreparedInput input = prepare_input(document, test_resources().lexicon);
  Trace trace;
  forward(model, input.X, trace);
  return trace.layers[layer].heads[head].attention;
}

TEST(QueryKeyJob, ReadsTheLearnersSentenceAndTheExamplesASentenceAStep) {
  AppState state;
  Controller controller(state, test_resources());
  ASSERT_TRUE(controller.apply(SetLayerCount{2}).ok());
  const int layer = 1, head = 2;
  QueryKeyJob job(state, test_resources(), layer);
  EXPECT_EQ(job.read(), 1);
  // The default sentence is one of the examples: it is read once, as the learner's.
  EXPECT_EQ(job.total(), static_cast<int>(test_resources().example_sentences.size()));
  int steps = 0;
  while (!job.advance(state, test_resources())) EXPECT_EQ(job.read(), ++steps + 1);
  const analysis::QueryKeySample& sample = job.sample();
  ASSERT_EQ(static_cast<int>(sample.sentences.size()), job.total());
  EXPECT_EQ(sample.sentences[0].text, state.document.input.text);
  EXPECT_TRUE(sample.sentences[0].heads[head].attention.isApprox(state.trace.layers[layer].heads[head].attention));
  const analysis::SampledSentence& other = sample.sentences[5];
  EXPECT_NE(other.text, state.document.input.text);
  const Matrix expected = attention_of(state.document.model, other.text, layer, head);
  ASSERT_EQ(other.heads[head].attention.rows(), expected.rows());
  EXPECT_LT((other.heads[head].attention - expected).cwiseAbs().maxCoeff(), 1e-6f);
  EXPECT_EQ(static_cast<Eigen::Index>(other.tokens.size()), expected.rows());
}

// What the picture promises: from a point's normalised query and key vectors (before the
// projection), the softmax of their scaled dot products gives back every attention row.
TEST(QueryKeyJob, TheNormalisedVectorsGiveBackEveryAttentionRow) {
  AppState state;
  Controller controller(state, test_resources());
  const analysis::QueryKeySample sample = sample_query_keys(state, test_resources(), 0);
  const int head = 1;
  const analysis::HeadQueryKeyMap picture = analysis::head_query_key_map(sample, head);
  std::size_t tokens = 0;
  for (const auto& s : sample.sentences) tokens += s.tokens.size();
  EXPECT_EQ(picture.points.size(), tokens);
  for (const analysis::SampledSentence& s : sample.sentences) {
    Matrix q = s.heads[head].queries, k = s.heads[head].keys;
    analysis::normalise_queries_keys(picture.map.normalisation, q, k);
    Matrix attention;
    softmax_rows(q * k.transpose() / std::sqrt(static_cast<float>(q.cols())), attention);
    EXPECT_LT((attention - s.heads[head].attention).cwiseAbs().maxCoeff(), 1e-5f) << s.text;
  }
}

TEST(QueryKeyJob, ACheckpointReadsFewerSentencesAndTheApiAnswersForTheSelectedHead) {
  AppState state;
  Controller controller(state, test_resources());
  controller.open_checkpoint(gpt2_shaped_checkpoint(), "model.safetensors");
  ASSERT_TRUE(controller.apply(SelectHead{3, 7}).ok());
  const nlohmann::json reply = nlohmann::json::parse(api::handle_request(controller, R"({"op": "queryKeyMap"})"));
  ASSERT_TRUE(reply["ok"]) << reply.dump().substr(0, 300);
  const nlohmann::json& r = reply["result"];
  EXPECT_EQ(r["layer"], 3);
  EXPECT_EQ(r["head"], 7);
  EXPECT_EQ(r["sentences"].size(), static_cast<std::size_t>(kQueryKeyCheckpointSentences + 1));
  // A causal model: no query gives anything to a later key.
  const nlohmann::json& attention = r["sentences"][2]["attention"];
  EXPECT_EQ(attention[0][1].get<float>(), 0.0f);
  for (const nlohmann::json& p : r["points"]) {
    EXPECT_GE(p["query"][0].get<float>(), r["bounds"]["min_x"].get<float>());
    EXPECT_LE(p["key"][1].get<float>(), r["bounds"]["max_y"].get<float>());
  }
  const nlohmann::json refused = nlohmann::json::parse(api::handle_request(controller, R"({"op": "queryKeyMap", "layer": 9})"));
  EXPECT_EQ(refused["error"], "layer: expected an integer in 0..6 (got 9)");
}

}  // namespace
}  // namespace headlab::app
