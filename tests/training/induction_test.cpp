// The induction task: its sequences are deterministic and put the repeat at varying offsets; with
// the default config and seed, a native run forms an induction head in layer 1 that depends on
// the layer-0 previous-token head (pruning it takes more than half of the score), and a 1-layer
// model trained as long forms none (Olsson et al. 2022; docs/training.md, "The induction task").
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <set>

#include "engine/analysis/sentence_context.h"
#include "engine/training/induction_evaluation.h"
#include "engine/training/trainer.h"

namespace headlab::training {
namespace {

// The default seed's induction head forms at the report of step 1,500 (docs/training.md); 2,000
// steps leave a margin and take about 10 s natively with asserts on.
constexpr int kSteps = 2000;
constexpr int kHeldOut = 100;

TEST(InductionTask, SequencesAreDeterministicAndRepeatAtVaryingOffsets) {
  const InductionConfig config;
  Rng a(7), b(7);
  Sentence x, y;
  std::set<int> first_offsets, distances, lengths;
  for (int i = 0; i < 200; ++i) {
    const RepeatLayout layout = generate_repeated_segments(config, a, true, x);
    const RepeatLayout same = generate_repeated_segments(config, b, true, y);
    ASSERT_EQ(x.tokens, y.tokens);
    ASSERT_EQ(layout.first, same.first);
    ASSERT_EQ(layout.second, same.second);
    ASSERT_LE(x.size(), 64);
    EXPECT_EQ(x.tokens.front(), kTokenCls);
    EXPECT_EQ(x.tokens.back(), kTokenSep);
    EXPECT_EQ(layout.second + layout.length + 1, x.size()) << "the second copy ends the sequence";
    for (int k = 0; k < layout.length; ++k) ASSERT_EQ(x.tokens[layout.first + k], x.tokens[layout.second + k]);
    for (int k = 1; k + 1 < x.size(); ++k) {
      ASSERT_GE(x.tokens[k], kSpecialTokenCount);
      ASSERT_LT(x.tokens[k], kSpecialTokenCount + config.symbol_count);
    }
    first_offsets.insert(layout.first);
    distances.insert(layout.second - layout.first);
    lengths.insert(layout.length);
  }
  // Neither where the repeat starts nor how far back its first copy is can be learned as a constant.
  EXPECT_EQ(static_cast<int>(first_offsets.size()), config.max_prefix - config.min_prefix + 1);
  EXPECT_GE(static_cast<int>(distances.size()), 15);
  EXPECT_EQ(static_cast<int>(lengths.size()), config.max_segment - config.min_segment + 1);
  // Another seed, other sequences.
  Rng c(8), d(7);
  generate_repeated_segments(config, c, true, y);
  generate_repeated_segments(config, d, true, x);
  EXPECT_NE(x.tokens, y.tokens);
}

TEST(InductionTask, TheLabSeesTheRepeatsAsInductionRows) {
  const RepeatedSequences held_out = held_out_repeated_segments(InductionConfig{}, 1, 20, true);
  ASSERT_EQ(held_out.sequences.size(), 20u);
  const analysis::GoldCorpus no_gold;
  analysis::SentenceContext context;
  for (std::size_t s = 0; s < held_out.sequences.size(); ++s) {
    const Tokens tokens = symbol_tokens(held_out.sequences[s]);
    analysis::make_sentence_context(tokens, true, no_gold, context);
    const RepeatLayout& layout = held_out.layouts[s];
    // Every symbol of the second copy but its last has its own induction target: the symbol
    // after its earlier copy.
    for (int k = 0; k + 1 < layout.length; ++k)
      EXPECT_EQ(context.induction_mask(layout.second + k, layout.first + k + 1), 1.0f) << s << " " << k;
    EXPECT_GE(context.induction_rows, layout.length - 1);
  }
  EXPECT_EQ(symbol_tokens(held_out.sequences[0])[1].text.size(), 1u);
  EXPECT_EQ(induction_vocabulary(3), (std::vector<std::string>{"[UNK]", "[MASK]", "[CLS]", "[SEP]", "a", "b", "c"}));
}

TEST(InductionTask, TrainerIsDeterministicAndConfigsNameTheirField) {
  const TrainerConfig config = default_trainer_config(Task::induction);
  Trainer a = Trainer::create(config).value(), b = Trainer::create(config).value();
  a.step(5);
  b.step(5);
  EXPECT_EQ(a.loss_history(), b.loss_history());
  EXPECT_EQ(a.model().vocab, induction_vocabulary(config.induction.symbol_count));
  EXPECT_FALSE(a.document().input.text.empty());
  EXPECT_FALSE(Trainer::create(TrainerConfig{}).ok()) << "the grammar task needs its grammar";
  const std::vector<std::pair<std::function<void(TrainerConfig&)>, std::string>> cases = {
      {[](TrainerConfig& c) { c.induction.symbol_count = 1; }, "symbol_count"},
      {[](TrainerConfig& c) { c.induction.max_segment = 30; }, "max_segment"},
      {[](TrainerConfig& c) { c.induction.min_gap = 5, c.induction.max_gap = 2; }, "gap"},
      {[](TrainerConfig& c) { c.objective = Objective::masked_token; }, "objective"},
      {[](TrainerConfig& c) { c.architecture.position_init_stddev = -1.0f; }, "position_init_stddev"},
  };
  for (const auto& [change, field] : cases) {
    TrainerConfig c = config;
    change(c);
    const Result<Trainer> t = Trainer::create(c);
    ASSERT_FALSE(t.ok()) << field;
    EXPECT_NE(t.error().find(field), std::string::npos) << t.error();
  }
}

// Emergence*: thousands of training steps check learning, so the WebAssembly and sanitizer runs
// (scripts/web-test, scripts/fuzz) leave these two to the native run, as they do the grammar's.
TEST(EmergenceInduction, TwoLayersFormAnInductionHeadThatNeedsThePreviousTokenHead) {
  const TrainerConfig config = default_trainer_config(Task::induction);
  Trainer trainer = Trainer::create(config).value();
  trainer.step(kSteps);
  const RepeatedSequences held_out = held_out_repeated_segments(config.induction, config.seed, kHeldOut, true);
  const InductionReport report = induction_report(trainer.model(), held_out);
  const InductionHeadScores induction = strongest_induction_head(report, 1);
  const InductionHeadScores previous = strongest_previous_token_head(report, 0);
  std::printf("L1H%d prefix matching %.2f; L0H%d previous token %.2f; repeat loss %.3f (chance %.3f)\n", induction.head,
              induction.prefix_matching, previous.head, previous.previous_token, report.repeat_loss,
              std::log(static_cast<float>(config.induction.symbol_count)));
  EXPECT_GE(induction.prefix_matching, kInductionFormedScore);
  EXPECT_LT(report.repeat_loss, 0.5f * std::log(static_cast<float>(config.induction.symbol_count)));

  const InductionAblation ablation = ablate_previous_token_head(trainer.model(), held_out);
  std::printf("pruning L0H%d: L1H%d prefix matching %.2f -> %.2f\n", ablation.pruned_head, ablation.induction_head,
              ablation.before, ablation.after);
  EXPECT_EQ(ablation.pruned_head, previous.head);
  EXPECT_EQ(ablation.induction_head, induction.head);
  EXPECT_LT(ablation.after, 0.5f * ablation.before) << "K-composition with the previous-token head";
  EXPECT_TRUE(trainer.model().layers[0].heads[ablation.pruned_head].pruned == false) << "pruned on a copy";
}

TEST(EmergenceInduction, OneLayerFormsNoInductionHead) {
  TrainerConfig config = default_trainer_config(Task::induction);
  config.architecture.layer_count = 1;
  Trainer trainer = Trainer::create(config).value();
  trainer.step(kSteps);
  const RepeatedSequences held_out = held_out_repeated_segments(config.induction, config.seed, kHeldOut, true);
  const InductionReport report = induction_report(trainer.model(), held_out);
  const InductionHeadScores best = strongest_induction_head(report);
  std::printf("1 layer: best L0H%d prefix matching %.2f\n", best.head, best.prefix_matching);
  EXPECT_EQ(best.layer, 0);
  EXPECT_LT(best.prefix_matching, kInductionFormedScore);
  EXPECT_EQ(ablate_previous_token_head(trainer.model(), held_out).induction_head, -1) << "needs 2 layers";
}

}  // namespace
}  // namespace headlab::training
