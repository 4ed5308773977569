// The Trainer: its batched forward pass computes what the engine shows, training is deterministic
// and lowers the loss, trained models round-trip through the model file, and bad configs fail
// with the field's name.
#include <gtest/gtest.h>

#include "engine/embedding.h"
#include "engine/forward.h"
#include "engine/model_file.h"
#include "engine/training/backprop.h"
#include "engine/training/compare.h"
#include "engine/training/trainer.h"

namespace headlab::training {
namespace {

const Grammar& grammar() {
  static const Grammar g = load_grammar().value();
  return g;
}

TrainerConfig small_config() {
  TrainerConfig c;
  c.architecture.d_model = 16;
  c.architecture.d_ff = 32;
  c.batch_size = 8;
  return c;
}

// Max |a - b| over same-shaped matrices.
float max_difference(const Matrix& a, const Matrix& b) {
  EXPECT_EQ(a.rows(), b.rows());
  EXPECT_EQ(a.cols(), b.cols());
  return (a - b).cwiseAbs().maxCoeff();
}

TEST(Trainer, BatchedForwardMatchesTheEngineForwardSentenceBySentence) {
  for (Norm norm : {Norm::post, Norm::pre, Norm::none}) {
    TrainerConfig config = small_config();
    config.architecture.norm = norm;
    Trainer trainer = Trainer::create(config, grammar()).value();
    trainer.step(3);  // away from the initialisation
    const Model& model = trainer.model();
    std::vector<Sentence> sentences = generate_sentences(grammar(), 9, 4, true);
    Rng rng(1);
    Batch batch;
    MaskingConfig no_masking;
    no_masking.replace_mask = no_masking.replace_random = 0.0f;  // inputs = sentences
    make_batch(sentences, Objective::masked_token, no_masking, grammar().vocabulary_size(), rng, batch);
    Workspace ws;
    forward_batch(model, batch, ws);
    for (int b = 0; b < batch.sentence_count(); ++b) {
      Trace trace;
      forward(model, embed(to_tokens(sentences[b], grammar()), model), trace);
      for (int l = 0; l < static_cast<int>(model.layers.size()); ++l) {
        for (int h = 0; h < model.layers[l].head_count(); ++h)
          EXPECT_LT(max_difference(batch_attention(ws, batch, l, h, b), trace.layers[l].heads[h].attention), 1e-5f);
        EXPECT_LT(max_difference(ws.layers[l].output.middleRows(batch.offset[b], batch.length[b]), trace.layers[l].output),
                  1e-4f);
      }
    }
  }
}

TEST(Trainer, SameSeedSameLossesAndTrainingLowersTheLoss) {
  TrainerConfig config = small_config();
  Trainer a = Trainer::create(config, grammar()).value(), b = Trainer::create(config, grammar()).value();
  a.step(300);
  b.step(300);
  EXPECT_EQ(a.loss_history(), b.loss_history());
  EXPECT_EQ(a.steps_done(), 300);
  const float first = a.loss_history().front();
  EXPECT_LT(mean_recent_loss(a, 20), first - 0.5f) << "first " << first;
  config.seed = 2;
  Trainer c = Trainer::create(config, grammar()).value();
  c.step(1);
  EXPECT_NE(c.loss_history().front(), a.loss_history().front());
}

TEST(Trainer, LearningRateWarmsUpThenDecays) {
  TrainerConfig config = small_config();
  config.learning_rate = 1e-3f;
  config.warmup_steps = 10;
  config.decay_steps = 20;
  Trainer t = Trainer::create(config, grammar()).value();
  EXPECT_FLOAT_EQ(t.learning_rate(), 1e-4f);
  t.step(10);
  EXPECT_FLOAT_EQ(t.learning_rate(), 1e-3f);
  t.step(15);
  EXPECT_NEAR(t.learning_rate(), 1e-4f, 1e-9f);
}

TEST(Trainer, StepForStopsAtTheStepLimit) {
  Trainer t = Trainer::create(small_config(), grammar()).value();
  EXPECT_EQ(t.step_for(10.0, 3), 3);
  EXPECT_EQ(t.step_for(0.0, 100), 1) << "at least one step";
  EXPECT_EQ(t.steps_done(), 4);
}

TEST(Trainer, TrainedModelRoundTripsThroughTheModelFile) {
  Trainer t = Trainer::create(small_config(), grammar()).value();
  t.step(5);
  const Document document = t.document();
  const Result<Document> parsed = parse_model_file(serialize_model_file(document));
  ASSERT_TRUE(parsed.ok()) << parsed.error();
  const Model& m = parsed.value().model;
  EXPECT_EQ(m.vocab, t.model().vocab);
  EXPECT_LT(max_difference(m.token_embedding, t.model().token_embedding), 1e-6f);
  EXPECT_LT(max_difference(m.output_bias, t.model().output_bias), 1e-6f);
  EXPECT_TRUE(m.special_tokens);
  // The same tokens embed to the same rows: learned table + learned positions; unknown -> [UNK].
  const Tokens tokens = to_tokens(generate_sentences(grammar(), 4, 1, true)[0], grammar());
  EXPECT_LT(max_difference(embed(tokens, m), embed(tokens, t.model())), 1e-6f);
  Token unknown;
  unknown.key = "zebra";
  EXPECT_EQ(vocabulary_index(m, "zebra"), kTokenUnknown);
  EXPECT_LT(max_difference(embed({unknown}, m).row(0), m.token_embedding.row(kTokenUnknown) + m.positional_table.row(0)),
            1e-6f);
}

TEST(Trainer, ModelFilesWithoutAVocabularyAreUnchanged) {
  const Document document = default_document();
  const std::string text = serialize_model_file(document);
  EXPECT_EQ(text.find("vocab"), std::string::npos);
  const Result<Document> parsed = parse_model_file(text);
  ASSERT_TRUE(parsed.ok());
  EXPECT_TRUE(parsed.value().model.vocab.empty());
}

TEST(Trainer, BadVocabularyFieldsAreRefusedWithTheirPath) {
  Trainer t = Trainer::create(small_config(), grammar()).value();
  std::string text = serialize_model_file(t.document());
  const std::size_t at = text.find("\"token_embedding\":[[");
  ASSERT_NE(at, std::string::npos);
  text.insert(at + 20, "1,");  // first row one number too long
  const Result<Document> parsed = parse_model_file(text);
  ASSERT_FALSE(parsed.ok());
  EXPECT_NE(parsed.error().find("token_embedding"), std::string::npos) << parsed.error();
}

TEST(Trainer, BadConfigsNameTheField) {
  const std::vector<std::pair<std::function<void(TrainerConfig&)>, std::string>> cases = {
      {[](TrainerConfig& c) { c.architecture.layer_count = 0; }, "layers"},
      {[](TrainerConfig& c) { c.architecture.head_count = 17; }, "heads"},
      {[](TrainerConfig& c) { c.architecture.d_model = 4; }, "d_model"},
      {[](TrainerConfig& c) { c.batch_size = 0; }, "batch_size"},
      {[](TrainerConfig& c) { c.learning_rate = -1.0f; }, "learning_rate"},
      {[](TrainerConfig& c) { c.masking.mask_rate = 0.0f; }, "mask_rate"},
      {[](TrainerConfig& c) { c.objective = Objective::next_token; }, "causal"},
  };
  for (const auto& [change, field] : cases) {
    TrainerConfig config;
    change(config);
    const Result<Trainer> t = Trainer::create(config, grammar());
    ASSERT_FALSE(t.ok()) << field;
    EXPECT_NE(t.error().find(field), std::string::npos) << t.error();
  }
}

TEST(Trainer, NextTokenObjectiveTrainsACausalModel) {
  TrainerConfig config = small_config();
  config.objective = Objective::next_token;
  config.architecture.causal = true;
  Trainer t = Trainer::create(config, grammar()).value();
  t.step(300);
  EXPECT_TRUE(t.model().causal);
  EXPECT_LT(mean_recent_loss(t, 20), t.loss_history().front() - 0.5f);
}

TEST(Trainer, OneBigHeadAgainstManySmallHeadsUsesTheSameWidth) {
  TrainerConfig config = small_config();
  config.architecture.head_count = 4;
  const Result<LossCurves> curves = compare_heads(config, grammar(), 20);
  ASSERT_TRUE(curves.ok()) << curves.error();
  EXPECT_EQ(curves.value().many_heads.size(), 20u);
  EXPECT_EQ(curves.value().one_head.size(), 20u);
  EXPECT_EQ(curves.value().head_count, 4);
  EXPECT_EQ(curves.value().many_head_dim * 4, curves.value().one_head_dim);
  EXPECT_EQ(curves.value().one_head_dim, config.architecture.d_model);
}

}  // namespace
}  // namespace headlab::training
