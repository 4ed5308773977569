// The text task: windows of a token stream, a language model that learns it, and the per-head
// scores of text_evaluation.h checked on heads whose attention is known exactly.
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <set>

#include "engine/assets.h"
#include "engine/bpe/bpe_files.h"
#include "engine/training/text_corpus.h"
#include "engine/training/text_evaluation.h"
#include "engine/training/text_task.h"
#include "engine/training/trainer.h"

namespace headlab::training {
namespace {

// A vocabulary of `size` tokens and `count` ids cycling 0, 1, ..., size - 1.
std::shared_ptr<TextCorpus> cycling_corpus(int size, int count) {
  auto corpus = std::make_shared<TextCorpus>();
  for (int v = 0; v < size; ++v) corpus->vocabulary.push_back("t" + std::to_string(v));
  for (int i = 0; i < count; ++i) corpus->ids.push_back(i % size);
  return corpus;
}

TEST(TextTask, BadCorporaAndWindowsAreRefused) {
  TextTaskConfig config;
  EXPECT_EQ(validate_text_task(config, *cycling_corpus(5, 64)), "corpus: 64 tokens, not more than one window of 64");
  auto corpus = cycling_corpus(5, 100);
  corpus->ids[7] = 5;
  EXPECT_EQ(validate_text_task(config, *corpus), "corpus: token 7 has id 5, outside the 5 tokens");
  config.window = 65;
  EXPECT_EQ(validate_text_task(config, *cycling_corpus(5, 100)), "text.window: expected 2 to 64 tokens");
  EXPECT_FALSE(Trainer::create(default_trainer_config(Task::lm)).ok());
}

TEST(TextTask, WindowsAreContiguousPiecesOfTheStream) {
  const auto corpus = cycling_corpus(7, 1000);
  TextTaskConfig config;
  config.window = 16;
  Rng rng(3);
  Sentence window;
  for (int k = 0; k < 50; ++k) {
    draw_text_window(*corpus, config, rng, window);
    ASSERT_EQ(window.size(), 16);
    for (int i = 1; i < window.size(); ++i) EXPECT_EQ(window.tokens[i], (window.tokens[i - 1] + 1) % 7);
  }
  const std::vector<Sentence> held_out = held_out_text_windows(*corpus, config, 10);
  ASSERT_EQ(held_out.size(), 10u);
  EXPECT_EQ(held_out[0].tokens[0], 0);
  EXPECT_EQ(held_out[1].tokens[0], (985 / 10) % 7);  // evenly spaced starts
}

// With repeats on, a window holds one passage written twice in a row: 8 tokens to half a window,
// at a varying length and place (a fixed distance would let a head find it by position alone).
TEST(TextTask, RepeatedWindowsHoldOnePassageTwiceAtVaryingPlaces) {
  auto corpus = std::make_shared<TextCorpus>();
  for (int v = 0; v < 5000; ++v) corpus->vocabulary.push_back("t" + std::to_string(v)), corpus->ids.push_back(v);
  TextTaskConfig config;
  config.repeat_fraction = 1.0f;
  EXPECT_EQ(validate_text_task(config, *corpus), "");
  Rng rng(5);
  Sentence window;
  std::set<int> lengths, starts;
  for (int k = 0; k < 200; ++k) {
    draw_text_window(*corpus, config, rng, window);
    ASSERT_EQ(window.size(), 64);
    // The stream's ids are all different: the second copy is where a token equals an earlier one.
    int first = -1;
    for (int i = 1; i < 64 && first < 0; ++i)
      if (window.tokens[i] <= window.tokens[i - 1]) first = i;
    ASSERT_GE(first, 0) << "window " << k << " has no repeat";
    const int length = window.tokens[first - 1] - window.tokens[first] + 1;
    ASSERT_GE(length, 8);
    ASSERT_LE(length, 32);
    for (int i = 0; i < length; ++i) EXPECT_EQ(window.tokens[first + i], window.tokens[first - length + i]);
    lengths.insert(length);
    starts.insert(first - length);
  }
  EXPECT_GT(lengths.size(), 10u);
  EXPECT_GT(starts.size(), 10u);
  config.repeat_fraction = 1.5f;
  EXPECT_EQ(validate_text_task(config, *corpus), "text.repeat_fraction: expected a number from 0 to 1");
}

TEST(TextTask, ALanguageModelLearnsAPredictableText) {
  TrainerConfig config = default_trainer_config(Task::lm);
  config.architecture.d_model = 32;
  config.architecture.head_dim = 8;
  config.text.window = 16;
  config.text.repeat_fraction = 0.0f;  // a repeat breaks the cycle where it starts
  Result<Trainer> trainer = Trainer::create(config, cycling_corpus(9, 2000));
  ASSERT_TRUE(trainer.ok()) << trainer.error();
  const float first = trainer.value().step(5);
  trainer.value().step(300);
  EXPECT_GT(first, 1.8f);  // about ln 9 = 2.2 at the start
  EXPECT_LT(mean_recent_loss(trainer.value(), 20), 0.2f);
}

// Every head attends uniformly (W_Q = 0), so each score has a closed form.
TEST(TextEvaluation, ScoresOfUniformHeadsAreExact) {
  TrainerConfig config = default_trainer_config(Task::lm);
  config.architecture.d_model = 16;
  config.architecture.head_dim = 4;
  config.text.window = 8;
  const auto corpus = cycling_corpus(6, 200);
  Result<Trainer> trainer = Trainer::create(config, corpus);
  ASSERT_TRUE(trainer.ok()) << trainer.error();
  Model model = trainer.value().model();
  for (Layer& layer : model.layers)
    for (HeadWeights& head : layer.heads) head.W_Q.setZero();
  const std::vector<Sentence> held_out = held_out_text_windows(*corpus, config.text, 4);
  std::vector<bool> punctuation(6, false);
  punctuation[0] = true;  // one token in six
  const TextEvaluation e = evaluate_text(model, held_out, punctuation, 1, 3);
  // Query i (1..7) gives 1 / (i + 1) to each of its i + 1 keys.
  double mean_share = 0.0;
  for (int i = 1; i < 8; ++i) mean_share += 1.0 / (i + 1);
  mean_share /= 7;
  // Second copy of 4 random tokens repeated: queries 4..7.
  double second_copy = 0.0;
  for (int i = 4; i < 8; ++i) second_copy += 1.0 / (i + 1);
  second_copy /= 4;
  ASSERT_EQ(e.heads.size(), 8u);
  for (const TextHeadScores& s : e.heads) {
    EXPECT_NEAR(s.previous_token, mean_share, 1e-5);
    EXPECT_NEAR(s.first_token, mean_share, 1e-5);
    EXPECT_NEAR(s.duplicate_token, second_copy, 1e-5);
    EXPECT_NEAR(s.induction, second_copy, 1e-5);
    EXPECT_GT(s.punctuation, 0.0f);
    EXPECT_LT(s.punctuation, 0.5f);
  }
  EXPECT_GT(e.held_out_loss, 0.0f);
  EXPECT_NEAR(e.in_context_learning(), e.late_loss - e.early_loss, 1e-6);
}

// The page and the command line read text the same way: each non-empty line's ids, then the
// newline's; a carriage return before a line's end is not part of it.
TEST(TextCorpus, LinesAreEncodedOneAfterAnotherWithTheNewlineBetween) {
  const std::optional<std::string> file = read_asset("tokenizers/text.json");
  ASSERT_TRUE(file);
  const bpe::BpeTokenizer tokenizer = bpe::parse_bpe_file(*file).value();
  const TextCorpus corpus = text_corpus(tokenizer, "text", "The cat sat.\r\n\n我的书很好。\nlast line");
  const auto ids = [&](const char* text) { return bpe::encode(tokenizer, text).ids; };
  std::vector<int> expected;
  for (const char* line : {"The cat sat.", "我的书很好。", "last line"}) {
    for (int id : ids(line)) expected.push_back(id);
    for (int id : ids("\n")) expected.push_back(id);
  }
  EXPECT_EQ(corpus.ids, expected);
  EXPECT_EQ(corpus.tokenizer, "text");
  EXPECT_EQ(corpus.vocabulary, tokenizer.tokens);
  TextCorpus parts = text_corpus(tokenizer, "text", "The cat sat.\n");
  append_text_lines(tokenizer, "我的书很好。\nlast line\n", parts);
  EXPECT_EQ(parts.ids, expected);
  EXPECT_TRUE(text_corpus(tokenizer, "text", "\n\r\n").ids.empty());
}

}  // namespace
}  // namespace headlab::training
