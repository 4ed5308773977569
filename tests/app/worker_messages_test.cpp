// The training worker's messages: every job's header and update round-trips exactly, and a message
// that does not read is refused with what was wrong.
#include <gtest/gtest.h>

#include <cmath>

#include "app/worker_messages.h"

namespace headlab::app {
namespace {

TEST(WorkerMessages, AComparisonTravelsAsOneStateAndTheHeadersOfEveryJobRoundTrip) {
  const std::vector<std::uint8_t> many = {1, 2, 3}, one = {4, 5};
  const ComparisonState parts = unpack_comparison_state(pack_comparison_state(many, one));
  EXPECT_EQ(parts.error, "");
  EXPECT_EQ(parts.many, many);
  EXPECT_EQ(parts.one, one);
  EXPECT_EQ(unpack_comparison_state({1, 2}).error, "comparison state: too short");
  std::vector<std::uint8_t> too_long = pack_comparison_state(many, one);
  too_long[0] = 9;
  EXPECT_EQ(unpack_comparison_state(too_long).error, "comparison state: its first trainer is longer than the state");

  for (WorkerJob job : {WorkerJob::run, WorkerJob::comparison, WorkerJob::probes, WorkerJob::experiment}) {
    WorkerRun run;
    run.job = job;
    run.generation = 3;
    run.seed = 5;
    run.learning_rate = 1.0f / 3000.0f;
    run.attention = AttentionNormalization::softmax_plus_one;
    const Result<WorkerRun> run_back = decode_run_header(encode_run_header(run));
    ASSERT_TRUE(run_back.ok()) << run_back.error();
    EXPECT_EQ(run_back.value().job, job);
    EXPECT_EQ(run_back.value().attention, AttentionNormalization::softmax_plus_one);
    EXPECT_EQ(run_back.value().seed, 5u);
    EXPECT_EQ(run_back.value().learning_rate, run.learning_rate);  // exactly
  }
  WorkerUpdate update;
  update.state = {7, 7};
  update.comparison_generation = 4;
  update.comparison_state = {1, 2, 3};
  update.comparison_paused = true;
  update.probes_generation = 6;
  update.probes = {{1, 2, 0.5f, 1.0f / 3.0f, 0.5f - 1.0f / 3.0f, 0.25f, 0.125f, 0.125f}};
  update.experiment_generation = 8;
  update.experiment_state = {9};
  const EncodedUpdate encoded = encode_update(update);
  EXPECT_EQ(encoded.bytes, (std::vector<std::uint8_t>{7, 7, 1, 2, 3, 9}));  // one buffer, in order
  const Result<WorkerUpdate> update_back = decode_update(encoded.header, encoded.bytes.data(), encoded.bytes.size());
  ASSERT_TRUE(update_back.ok()) << update_back.error();
  EXPECT_EQ(update_back.value().state, update.state);
  EXPECT_EQ(update_back.value().comparison_state, update.comparison_state);
  EXPECT_EQ(update_back.value().experiment_state, update.experiment_state);
  EXPECT_EQ(update_back.value().experiment_generation, 8u);
  EXPECT_EQ(decode_update(encoded.header, encoded.bytes.data(), 5).error(),
            "training update: its bytes are shorter than its header says");
  const std::vector<std::uint8_t> longer = {7, 7, 1, 2, 3, 9, 0};
  EXPECT_EQ(decode_update(encoded.header, longer.data(), longer.size()).error(),
            "training update: its bytes are longer than its header says");
  EXPECT_EQ(update_back.value().generation, 0u);
  EXPECT_EQ(update_back.value().comparison_generation, 4u);
  EXPECT_TRUE(update_back.value().comparison_paused);
  EXPECT_EQ(update_back.value().probes_generation, 6u);
  ASSERT_EQ(update_back.value().probes.size(), 1u);
  EXPECT_EQ(update_back.value().probes[0].head, 2);
  EXPECT_EQ(update_back.value().probes[0].pos_control_accuracy, 1.0f / 3.0f);  // exactly
  EXPECT_EQ(update_back.value().probes[0].pos_selectivity, 0.5f - 1.0f / 3.0f);
}

TEST(WorkerMessages, SamplesRoundTripExactlyAndBrokenMessagesSayWhy) {
  TimelineSample sample;
  sample.step = 300;
  sample.train_loss = 1.0f / 3.0f;
  sample.held_out_loss = NAN;
  sample.heads = {{analysis::Label::syntactic(analysis::Relation::nsubj), 0.7f, 0.25f, training::kHeadToDependent},
                  {analysis::Label::mixed_label(), 0.0f, 0.0f, 0}};
  sample.induction = {{1, 2, 0.123456789f, 0.5f, 0.25f, 0.375f}};
  sample.strongest_induction = sample.induction[0];
  sample.spreads = {{1.0 / 7.0, 2.5, 2.7, 9}};
  WorkerUpdate update;
  update.generation = 7;
  update.samples = {sample};
  const EncodedUpdate encoded = encode_update(update);
  const Result<WorkerUpdate> back = decode_update(encoded.header, encoded.bytes.data(), encoded.bytes.size());
  ASSERT_TRUE(back.ok()) << back.error();
  const TimelineSample& s = back.value().samples.at(0);
  EXPECT_EQ(back.value().generation, 7u);
  EXPECT_EQ(s.train_loss, sample.train_loss);
  EXPECT_TRUE(std::isnan(s.held_out_loss));
  EXPECT_EQ(s.heads[0].label.text(), "syntactic:nsubj");
  EXPECT_EQ(s.heads[0].direction, training::kHeadToDependent);
  EXPECT_EQ(s.induction[0].prefix_matching, sample.induction[0].prefix_matching);
  EXPECT_EQ(s.induction[0].first_token, 0.375f);
  EXPECT_EQ(s.spreads[0].distance, sample.spreads[0].distance);
  EXPECT_EQ(s.spreads[0].rows, 9);
  // A label this build cannot read is refused, not taken for "mixed".
  std::string unknown_label = encoded.header;
  unknown_label.replace(unknown_label.find("syntactic:nsubj"), 15, "syntactic:xcomp");
  const Result<WorkerUpdate> refused = decode_update(unknown_label, encoded.bytes.data(), encoded.bytes.size());
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().find("heads[0][0]: unknown label"), std::string::npos) << refused.error();

  EXPECT_EQ(decode_update("[1]", nullptr, 0).error(), "training update: not a JSON object");
  EXPECT_EQ(decode_update(R"({"generation": 1, "error": "", "samples": [{"step": "x"}]})", nullptr, 0).error(),
            "training update: samples[0].step: expected an integer in 0..2147483647 (got \"x\")");
  EXPECT_EQ(decode_run_header(R"({"generation": 1})").error(), "training run: job: missing");
}

// A run naming a job or a task this build does not know is refused with the name, not started as
// the default job or task.
TEST(WorkerMessages, AnUnknownJobOrTaskIsRefused) {
  WorkerRun run;
  run.job = WorkerJob::probes;
  run.task = training::Task::induction;
  const std::string header = encode_run_header(run);
  ASSERT_TRUE(decode_run_header(header).ok());
  const auto with = [&](const std::string& from, const std::string& to) {
    std::string changed = header;
    changed.replace(changed.find(from), from.size(), to);
    return decode_run_header(changed);
  };
  EXPECT_EQ(with("\"probes\"", "\"probe\"").error(),
            "training run: job: expected one of \"run\", \"comparison\", \"probes\", \"experiment\" (got \"probe\")");
  EXPECT_EQ(with("\"induction\"", "\"copying\"").error(),
            "training run: task: expected one of \"grammar\", \"induction\", \"lm\" (got \"copying\")");
}

}  // namespace
}  // namespace headlab::app
