#include "compare.h"

namespace headlab::training {

Result<HeadComparison> make_head_comparison(const TrainerConfig& config, const Grammar& grammar) {
  TrainerConfig many = config, one = config;
  many.architecture.head_dim = 0;  // d_model / head_count
  one.architecture.head_count = 1;
  one.architecture.head_dim = 0;   // d_model
  Result<Trainer> many_trainer = Trainer::create(many, grammar);
  if (!many_trainer.ok()) return Result<HeadComparison>::failure(many_trainer.error());
  Result<Trainer> one_trainer = Trainer::create(one, grammar);
  if (!one_trainer.ok()) return Result<HeadComparison>::failure(one_trainer.error());
  return HeadComparison{std::move(many_trainer.value()), std::move(one_trainer.value())};
}

void step_comparison(HeadComparison& comparison, int steps) {
  comparison.many.step(steps);
  comparison.one.step(steps);
}

Result<LossCurves> compare_heads(const TrainerConfig& config, const Grammar& grammar, int steps) {
  Result<HeadComparison> comparison = make_head_comparison(config, grammar);
  if (!comparison.ok()) return Result<LossCurves>::failure(comparison.error());
  HeadComparison& c = comparison.value();
  step_comparison(c, steps);
  LossCurves curves;
  curves.many_heads = c.many.loss_history();
  curves.one_head = c.one.loss_history();
  curves.head_count = c.many.model().layers[0].head_count();
  curves.many_head_dim = c.many.model().layers[0].d_k;
  curves.one_head_dim = c.one.model().layers[0].d_k;
  return curves;
}

}  // namespace headlab::training
