// A run saved as bytes and restored into another trainer goes on exactly as if it had never
// moved: the page's training worker relies on it to hand runs back and forth.
#include <gtest/gtest.h>

#include "engine/training/parameters.h"
#include "engine/training/trainer.h"

namespace headlab::training {
namespace {

const Grammar& grammar() {
  static const Grammar g = load_grammar().value();
  return g;
}

TrainerConfig small_config(Task task) {
  TrainerConfig c = default_trainer_config(task);
  c.architecture.d_model = 16;
  c.architecture.head_dim = 4;
  if (c.architecture.d_ff > 0) c.architecture.d_ff = 32;
  c.batch_size = 4;
  return c;
}

Trainer make(const TrainerConfig& config) {
  return config.task == Task::induction ? Trainer::create(config).value() : Trainer::create(config, grammar()).value();
}

void expect_same_weights(Trainer& a, Trainer& b) {
  Model model_a = a.model(), model_b = b.model();
  const std::vector<ParameterView> pa = parameters(model_a), pb = parameters(model_b);
  ASSERT_EQ(pa.size(), pb.size());
  for (std::size_t i = 0; i < pa.size(); ++i)
    for (Eigen::Index k = 0; k < pa[i].size; ++k)
      ASSERT_EQ(pa[i].data[k], pb[i].data[k]) << pa[i].name << " layer " << pa[i].layer << " head " << pa[i].head;
}

TEST(TrainerState, ARestoredRunGoesOnBitForBitAsTheOneThatNeverMoved) {
  for (Task task : {Task::grammar, Task::induction}) {
    const TrainerConfig config = small_config(task);
    Trainer straight = make(config);
    straight.step(12);

    Trainer first_half = make(config);
    first_half.step(5);
    first_half.set_learning_rate(2e-3f);  // the peak travels with the run
    Trainer moved = make(config);         // a fresh trainer elsewhere, at step 0
    ASSERT_EQ(moved.restore_state(first_half.save_state().data(), first_half.save_state().size()), "");
    EXPECT_EQ(moved.steps_done(), 5);
    EXPECT_EQ(moved.loss_history(), first_half.loss_history());
    EXPECT_FLOAT_EQ(moved.learning_rate(), first_half.learning_rate());
    moved.set_learning_rate(config.learning_rate);
    moved.step(7);

    EXPECT_EQ(moved.loss_history(), straight.loss_history()) << task_name(task);
    expect_same_weights(moved, straight);
  }
}

TEST(TrainerState, AStateThatDoesNotFitIsRefusedAndChangesNothing) {
  Trainer trainer = make(small_config(Task::grammar));
  trainer.step(3);
  const std::vector<std::uint8_t> good = trainer.save_state();

  TrainerConfig wider = small_config(Task::grammar);
  wider.architecture.d_model = 32;
  wider.architecture.head_dim = 8;
  Trainer other = make(wider);
  EXPECT_NE(other.restore_state(good.data(), good.size()).find("parameters"), std::string::npos);
  EXPECT_EQ(other.steps_done(), 0);

  Trainer same = make(small_config(Task::grammar));
  EXPECT_NE(same.restore_state(good.data(), 10).find("too short"), std::string::npos);
  EXPECT_NE(same.restore_state(good.data(), good.size() - 4).find("do not match"), std::string::npos);
  std::vector<std::uint8_t> wrong_magic = good;
  wrong_magic[0] ^= 0xFF;
  EXPECT_NE(same.restore_state(wrong_magic.data(), wrong_magic.size()).find("not a trainer state"), std::string::npos);
  EXPECT_EQ(same.steps_done(), 0);
  EXPECT_TRUE(same.loss_history().empty());
}

}  // namespace
}  // namespace headlab::training
