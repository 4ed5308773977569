// The example-sentence probe (src/engine/analysis/example_probe.h) against heads whose output is
// known by construction: nothing carried, the word's own part of speech, the previous word's.
#include "engine/analysis/example_probe.h"

#include <gtest/gtest.h>

#include "engine/analysis/analysis.h"
#include "engine/assets.h"
#include "engine/document.h"
#include "engine/embedding.h"
#include "engine/presets.h"

namespace headlab::analysis {
namespace {

class ExampleProbeTest : public ::testing::Test {
 protected:
  Lexicon lexicon = load_lexicon(nullptr);
  Resources resources = load_resources();
  Model model = default_document().model;

  // Head 0's W_V copies the part-of-speech features, one per column.
  void copy_part_of_speech() {
    HeadWeights& head = model.layers[0].heads[0];
    head.W_V.setZero();
    const char* features[] = {"noun", "verb", "det", "adj", "prep", "punct"};
    for (int c = 0; c < 6; ++c) head.W_V(feature_index(features[c]), c) = 1.0f;
  }
  // Head 0 attends as the preset `id` promises (tests/analysis/preset_test.cpp checks the pattern).
  void attend_like(const std::string& id) {
    const Result<std::vector<Preset>> presets = load_presets();
    ASSERT_TRUE(presets.ok()) << presets.error();
    const Preset* preset = find_preset(presets.value(), id);
    ASSERT_NE(preset, nullptr);
    ASSERT_EQ(apply_preset(model, 0, 0, *preset), "");
  }

  ExampleProbe probe(ProbeTask task) { return probe_head_on_examples(model, lexicon, resources.gold, 0, 0, task); }
};

TEST_F(ExampleProbeTest, AHeadThatCarriesNothingIsNoBetterThanTheCommonestTag) {
  model.layers[0].heads[0].W_V.setZero();
  for (ProbeTask task : {ProbeTask::pos, ProbeTask::previous_pos}) {
    const ExampleProbe p = probe(task);
    EXPECT_GT(p.train_words, 50);
    EXPECT_GT(p.test_words, 50);
    EXPECT_NEAR(p.accuracy, p.majority_accuracy, 1e-6f);
  }
}

TEST_F(ExampleProbeTest, UniformAttentionOverPartOfSpeechValuesCannotTellWordsApart) {
  model.layers[0].heads[0].W_Q.setZero();  // every row attends uniformly: Z_i is the sentence mean
  model.layers[0].heads[0].W_K.setZero();
  copy_part_of_speech();
  EXPECT_LT(probe(ProbeTask::pos).accuracy, 0.5f);
}

TEST_F(ExampleProbeTest, WhereTheHeadLooksDecidesWhichWordsTagTheProbeReads) {
  // The head attends like `preset` and carries part of speech: the probe reads task `read` well
  // and selectively, and the other task at least 0.2 worse.
  auto expect_reads = [&](const std::string& preset, ProbeTask read, ProbeTask other, float min_accuracy, float min_selectivity) {
    SCOPED_TRACE(preset);
    attend_like(preset);
    copy_part_of_speech();
    const ExampleProbe good = probe(read), poor = probe(other);
    EXPECT_GE(good.accuracy, min_accuracy);
    EXPECT_GE(good.selectivity, min_selectivity);
    EXPECT_LT(poor.accuracy, good.accuracy - 0.2f);
  };
  expect_reads("self", ProbeTask::pos, ProbeTask::previous_pos, 0.8f, 0.25f);
  expect_reads("previous_token", ProbeTask::previous_pos, ProbeTask::pos, 0.75f, 0.3f);
}

TEST_F(ExampleProbeTest, ResultsAreDeterministicAndBadHeadsGiveZeros) {
  copy_part_of_speech();
  const ExampleProbe a = probe(ProbeTask::previous_pos), b = probe(ProbeTask::previous_pos);
  EXPECT_EQ(a.accuracy, b.accuracy);
  EXPECT_EQ(a.control_accuracy, b.control_accuracy);
  EXPECT_EQ(probe_head_on_examples(model, lexicon, resources.gold, 0, 9, ProbeTask::pos).test_words, 0);
  EXPECT_EQ(probe_head_on_examples(model, lexicon, resources.gold, 3, 0, ProbeTask::pos).test_words, 0);
  ProbeTask task;
  EXPECT_TRUE(parse_probe_task("previous_pos", task));
  EXPECT_EQ(task, ProbeTask::previous_pos);
  EXPECT_FALSE(parse_probe_task("dependency", task));
}

TEST_F(ExampleProbeTest, AbsurdWeightsDoNotPoisonTheProbe) {
  model.layers[0].heads[0].W_V.setConstant(1e30f);
  const ExampleProbe p = probe(ProbeTask::pos);
  EXPECT_GE(p.accuracy, 0.0f);
  EXPECT_LE(p.accuracy, 1.0f);
}

}  // namespace
}  // namespace headlab::analysis
