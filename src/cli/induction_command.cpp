#include "cli/induction_command.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/output_files.h"
#include "cli/training_loop.h"
#include "engine/model_file.h"
#include "engine/training/induction_evaluation.h"

namespace headlab::cli {
namespace {

using nlohmann::json;
using namespace headlab::training;

const char* norm_name(Norm norm) { return norm == Norm::post ? "post" : norm == Norm::pre ? "pre" : "none"; }

// "step  1300  train 2.412  held-out 2.398  repeat 1.870  prev L0 .12 .93 .10 .08  prefix L0 ... L1 ...  best L1H2 0.63"
void print_report(int step, float train_loss, const InductionReport& r, bool phase_change) {
  const int layer_count = r.head_count > 0 ? static_cast<int>(r.heads.size()) / r.head_count : 0;
  std::printf("step %5d  train ", step);
  if (step > 0) std::printf("%.3f", train_loss);
  else std::printf("  -  ");
  std::printf("  held-out %.3f  repeat %.3f  prev L0", r.loss, r.repeat_loss);
  for (int h = 0; h < r.head_count; ++h) std::printf(" %.2f", r.at(0, h).previous_token);
  std::printf("  prefix");
  for (int l = 0; l < layer_count; ++l) {
    std::printf(" L%d", l);
    for (int h = 0; h < r.head_count; ++h) std::printf(" %.2f", r.at(l, h).prefix_matching);
  }
  float sink = 0.0f;
  for (const InductionHeadScores& h : r.heads) sink = std::max(sink, h.first_token);
  const InductionHeadScores best = strongest_induction_head(r);
  std::printf("  first token max %.2f  best L%dH%d %.2f%s\n", sink, best.layer, best.head, best.prefix_matching,
              phase_change ? "  <- induction head formed" : "");
  std::fflush(stdout);
}

json report_json(int step, float train_loss, const InductionReport& r) {
  const InductionHeadScores best = strongest_induction_head(r);
  return {{"step", step}, {"train_loss", train_loss}, {"held_out_loss", r.loss}, {"repeat_loss", r.repeat_loss},
          {"best_induction_head", {{"layer", best.layer}, {"head", best.head}, {"prefix_matching", best.prefix_matching}}}};
}

json heads_json(const InductionReport& r) {
  json heads = json::array();
  for (const InductionHeadScores& h : r.heads)
    heads.push_back({{"layer", h.layer}, {"head", h.head}, {"prefix_matching", h.prefix_matching},
                     {"previous_token", h.previous_token}, {"duplicate_token", h.duplicate_token}});
  return heads;
}

}  // namespace

int run_train_induction(const TrainOptions& o, const std::vector<std::string>& args) {
  Result<Trainer> created = Trainer::create(o.config);
  if (!created.ok()) {
    std::cerr << "headlab-cli: " << created.error() << "\n";
    return 1;
  }
  Trainer& trainer = created.value();
  const TrainerConfig& c = o.config;
  const Architecture& a = c.architecture;
  const InductionConfig& d = c.induction;
  const RepeatedSequences held_out = held_out_repeated_segments(d, c.seed, o.held_out, a.special_tokens);
  const int head_dim = trainer.model().layers[0].d_k;
  std::printf("induction task, seed %u: %d layer%s x %d heads (d_k %d), d_model %d, %s, norm %s, %s attention, lr %g, batch %d\n"
              "  %d symbols; prefix %d:%d, segment %d:%d, gap %d:%d; %d held-out sequences; repeat loss by chance "
              "ln(%d) = %.2f\n",
              c.seed, a.layer_count, a.layer_count == 1 ? "" : "s", a.head_count, head_dim, a.d_model,
              a.d_ff > 0 ? ("d_ff " + std::to_string(a.d_ff)).c_str() : "attention only", norm_name(a.norm),
              std::string(enum_name(kAttentionNormalizationNames, a.attention)).c_str(), c.learning_rate, c.batch_size, d.symbol_count, d.min_prefix, d.max_prefix, d.min_segment,
              d.max_segment, d.min_gap, d.max_gap, o.held_out, d.symbol_count, std::log(d.symbol_count));

  json emergence = json::array();
  int formed_step = -1;
  InductionReport report;
  const double training_seconds = train_with_reports(trainer, o.steps, o.report_every, 0, [&](int done, float recent) {
    report = induction_report(trainer.model(), held_out);
    const bool formed = formed_step < 0 && strongest_induction_head(report).prefix_matching >= kInductionFormedScore;
    if (formed) formed_step = done;
    print_report(done, recent, report, formed);
    emergence.push_back(report_json(done, recent, report));
  });

  std::printf("head   prefix matching  previous token  duplicate token  first token\n");
  for (const InductionHeadScores& h : report.heads)
    std::printf("L%dH%d   %.2f             %.2f            %.2f             %.2f\n", h.layer, h.head, h.prefix_matching,
                h.previous_token, h.duplicate_token, h.first_token);
  const double steps_per_second = training_seconds > 0 ? o.steps / training_seconds : 0.0;
  if (formed_step >= 0)
    std::printf("induction head formed (prefix matching >= %.1f) at the report of step %d\n", kInductionFormedScore,
                formed_step);
  else
    std::printf("no induction head formed (best prefix matching %.2f < %.1f)\n",
                strongest_induction_head(report).prefix_matching, kInductionFormedScore);
  // The circuit test: prune the layer-0 previous-token head; as a control, the duplicate-token
  // head (the other route to prefix matching, through positions) when it is a different head.
  const InductionAblation ablation = ablate_previous_token_head(trainer.model(), held_out);
  int duplicate_head = -1;
  for (const InductionHeadScores& h : report.heads)
    if (h.layer == 0 && (duplicate_head < 0 || h.duplicate_token > report.at(0, duplicate_head).duplicate_token))
      duplicate_head = h.head;
  const InductionAblation control = duplicate_head != ablation.pruned_head
      ? ablate_layer0_head(trainer.model(), held_out, duplicate_head) : InductionAblation{};
  for (const InductionAblation* x : {&ablation, &control})
    if (x->induction_head >= 0)
      std::printf("pruning L0H%d (previous token %.2f, duplicate token %.2f): L1H%d prefix matching %.2f -> %.2f, "
                  "repeat loss %.3f -> %.3f\n",
                  x->pruned_head, x->pruned_previous_token, x->pruned_duplicate_token, x->induction_head, x->before,
                  x->after, x->repeat_loss_before, x->repeat_loss_after);
  std::printf("%.1f s of training, %.1f steps/s\n", training_seconds, steps_per_second);
  if (o.out.empty()) return 0;

  json model_json = json::parse(serialize_model_file(trainer.document()), nullptr, false);
  round_numbers(model_json, 5);
  json manifest = {
      {"format", "headlab-training-manifest"},
      {"task", "induction"},
      {"model", o.out.substr(o.out.find_last_of('/') + 1)},
      {"command", command_line(args)},
      {"seed", c.seed},
      {"steps", o.steps},
      {"config", {{"layers", a.layer_count}, {"heads", a.head_count}, {"head_dim", head_dim}, {"d_model", a.d_model},
                  {"d_ff", a.d_ff}, {"norm", norm_name(a.norm)}, {"objective", "next"}, {"batch_size", c.batch_size},
                  {"learning_rate", c.learning_rate}, {"warmup_steps", c.warmup_steps}, {"decay_steps", c.decay_steps},
                  {"symbols", d.symbol_count}, {"prefix", {d.min_prefix, d.max_prefix}},
                  {"segment", {d.min_segment, d.max_segment}}, {"gap", {d.min_gap, d.max_gap}}}},
      {"held_out_sequences", o.held_out},
      {"formed_step", formed_step},
      {"wall_time_seconds", training_seconds},
      {"steps_per_second", steps_per_second},
      {"final_heads", heads_json(report)},
      {"ablation", {{"pruned_layer0_head", ablation.pruned_head}, {"induction_head", ablation.induction_head},
                    {"before", ablation.before}, {"after", ablation.after}}},
      {"control_ablation", {{"pruned_layer0_head", control.pruned_head}, {"induction_head", control.induction_head},
                            {"before", control.before}, {"after", control.after}}},
      {"emergence", emergence}};
  round_numbers(manifest, 4);
  if (!write_file(o.out, model_json.dump()) || !write_file(manifest_path(o.out), manifest.dump(2) + "\n")) {
    std::cerr << "headlab-cli: cannot write " << o.out << "\n";
    return 1;
  }
  std::printf("wrote %s and %s\n", o.out.c_str(), manifest_path(o.out).c_str());
  return 0;
}

}  // namespace headlab::cli
