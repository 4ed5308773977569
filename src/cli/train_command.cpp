#include "cli/train_command.h"

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/induction_command.h"
#include "cli/output_files.h"
#include "cli/training_loop.h"
#include "cli/text_command.h"
#include "cli/train_options.h"
#include "engine/analysis/analysis_json.h"
#include "engine/analysis/attention_spread.h"
#include "engine/analysis/pooled_labels.h"
#include "engine/head_index.h"
#include "engine/model_file.h"
#include "engine/training/gold_corpus.h"
#include "engine/training/compare.h"
#include "engine/training/evaluation.h"
#include "engine/training/probe.h"
#include "engine/training/trainer.h"

namespace headlab::cli {
namespace {

using nlohmann::json;
using namespace headlab::training;

json best_json(const BestHead& b, const std::string& relation, bool control) {
  return {{"relation", relation}, {"layer", b.layer}, {"head", b.head},
          {"direction", b.direction == kDependentToHead ? "dependent->head" : "head->dependent"},
          {"accuracy", b.accuracy}, {"baseline", b.baseline}, {"baseline_offset", b.baseline_offset},
          {"control", control}};
}

// Held-out snapshot: best head per relation, the previous-token head, delimiter and [CLS] heads.
json snapshot(const Model& model, const Grammar& grammar, const std::vector<Sentence>& sentences, int step,
              float train_loss, const TrainerConfig& config) {
  const ArcReport report = arc_report(evaluate_sentences(model, grammar, sentences), grammar);
  json relations = json::array();
  for (std::size_t r = 0; r < report.relations.size(); ++r)
    relations.push_back(best_json(best_head(report, static_cast<int>(r)), report.relations[r], report.control[r]));
  const BestHead previous = best_previous_token_head(report);
  float delimiter = 0, cls = 0;
  int delimiter_head = 0, cls_head = 0;
  for (std::size_t h = 0; h < report.heads.size(); ++h) {
    if (report.heads[h].delimiter > delimiter) delimiter = report.heads[h].delimiter, delimiter_head = static_cast<int>(h);
    if (report.heads[h].cls > cls) cls = report.heads[h].cls, cls_head = static_cast<int>(h);
  }
  const auto head_json = [&](int index, float score) {
    const HeadPosition at = head_at_flat_index(model, index);
    return json{{"layer", at.layer}, {"head", at.head}, {"score", score}};
  };
  return {{"step", step},
          {"train_loss", train_loss},
          {"held_out_loss", held_out_loss(model, grammar, sentences, config.objective, config.masking, config.seed)},
          {"relations", relations},
          {"previous_token", {{"layer", previous.layer}, {"head", previous.head}, {"mean_attention", previous.accuracy},
                              {"argmax_share", report.heads[flat_head_index(model, previous.layer, previous.head)].previous_argmax}}},
          {"delimiter", head_json(delimiter_head, delimiter)},
          {"cls", head_json(cls_head, cls)}};
}

// Layer dependence of the trained model on the held-out sentences: per layer the mean attention
// distance and row entropy (analysis/attention_spread.h) and the lab's labels of its heads, pooled
// over the sentences as the Training tab labels them.
json print_layer_profile(const Model& model, const Grammar& grammar, const std::vector<Sentence>& sentences) {
  const HeldOutSet set = evaluate_sentences(model, grammar, sentences);
  std::vector<const Trace*> traces;
  for (const Trace& trace : set.traces) traces.push_back(&trace);
  analysis::Resources resources;
  resources.config = label_config_for(analysis::load_resources().config, grammar);
  resources.gold = gold_corpus(set.sentences, grammar);
  const std::vector<analysis::PooledHead> heads = analysis::label_heads_pooled(set.tokens, set.traces, model.causal, resources);
  std::vector<std::vector<analysis::Label>> labels(model.layers.size());
  std::size_t index = 0;
  for (std::size_t l = 0; l < model.layers.size(); ++l)
    for (int h = 0; h < model.layers[l].head_count(); ++h, ++index) labels[l].push_back(heads[index].label);
  const json profile = analysis::layer_profile_json(analysis::layer_spreads(model, traces), labels);
  std::printf("layer  distance  entropy (uniform)  labels\n");
  for (const json& layer : profile) {
    std::string roles;
    for (const analysis::Label& label : labels[layer["layer"].get<std::size_t>()]) roles += " " + label.text();
    std::printf("L%d     %5.2f     %.2f (%.2f)       %s\n", layer["layer"].get<int>(), layer["mean_distance"].get<double>(),
                layer["mean_entropy"].get<double>(), layer["uniform_entropy"].get<double>(), roles.c_str());
  }
  return profile;
}

// Every head's arc accuracy per relation (dependent->head / head->dependent) and positional scores.
void print_head_table(const Model& model, const Grammar& grammar, const std::vector<Sentence>& sentences) {
  const ArcReport report = arc_report(evaluate_sentences(model, grammar, sentences), grammar);
  std::printf("head   prev  next  self   cls  delim");
  for (const std::string& r : report.relations) std::printf("  %9s", r.c_str());
  std::printf("\nbaseline                         ");
  for (const RelationBaseline& b : report.baselines) std::printf("  %.2f/%.2f", b.accuracy[0], b.accuracy[1]);
  std::printf("\n");
  for (const HeadArcScores& h : report.heads) {
    std::printf("L%dH%d  %.2f  %.2f  %.2f  %.2f  %.2f ", h.layer, h.head, h.previous_token, h.next_token, h.self,
                h.cls, h.delimiter);
    for (std::size_t r = 0; r < report.relations.size(); ++r)
      std::printf("  %.2f/%.2f", h.arc_accuracy[0][r], h.arc_accuracy[1][r]);
    std::printf("\n");
  }
}

void print_snapshot(const json& s) {
  std::printf("step %5d  loss %.3f (held-out %.3f)  prev-token L%dH%d %.2f", s["step"].get<int>(),
              s["train_loss"].get<float>(), s["held_out_loss"].get<float>(), s["previous_token"]["layer"].get<int>(),
              s["previous_token"]["head"].get<int>(), s["previous_token"]["mean_attention"].get<float>());
  for (const json& r : s["relations"])
    std::printf("  %s L%dH%d %.2f/%.2f", r["relation"].get<std::string>().c_str(), r["layer"].get<int>(),
                r["head"].get<int>(), r["accuracy"].get<float>(), r["baseline"].get<float>());
  std::printf("\n");
  std::fflush(stdout);
}

int compare_one_head(const TrainOptions& o, const Grammar& grammar) {
  Result<HeadComparison> comparison = make_head_comparison(o.config, grammar);
  if (!comparison.ok()) {
    std::cerr << "headlab-cli: " << comparison.error() << "\n";
    return 1;
  }
  HeadComparison& c = comparison.value();
  const int chunk = std::max(1, o.report_every);
  std::printf("step   loss %d heads x %d   loss 1 head x %d\n", o.config.architecture.head_count,
              c.many.model().layers[0].d_k, c.one.model().layers[0].d_k);
  for (int done = 0; done < o.steps;) {
    const int n = std::min(chunk, o.steps - done);
    step_comparison(c, n);
    done += n;
    std::printf("%5d   %.4f            %.4f\n", done, mean_recent_loss(c.many, n), mean_recent_loss(c.one, n));
  }
  return 0;
}

}  // namespace

int run_train(const std::vector<std::string>& args) {
  for (const std::string& a : args)
    if (a == "--help" || a == "-h") {
      std::cout << kTrainUsage;
      return 0;
    }
  TrainOptions o;
  std::string error;
  if (!parse_train_options(args, o, error)) {
    std::cerr << "headlab-cli train: " << error << "\n" << kTrainUsage;
    return 2;
  }
  if (o.config.task == Task::induction) return run_train_induction(o, args);
  if (o.config.task == Task::lm) return run_train_text(o, args);
  Result<Grammar> grammar = load_grammar();
  if (!grammar.ok()) {
    std::cerr << "headlab-cli: " << grammar.error() << "\n";
    return 1;
  }
  if (o.compare_one_head) return compare_one_head(o, grammar.value());
  Result<Trainer> created = Trainer::create(o.config, grammar.value());
  if (!created.ok()) {
    std::cerr << "headlab-cli: " << created.error() << "\n";
    return 1;
  }
  Trainer& trainer = created.value();
  const std::vector<Sentence> held_out =
      held_out_sentences(grammar.value(), o.config.seed, o.held_out, o.config.architecture.special_tokens);

  json emergence = json::array();
  const double training_seconds = train_with_reports(trainer, o.steps, o.report_every, 50, [&](int done, float recent) {
    emergence.push_back(snapshot(trainer.model(), grammar.value(), held_out, done, recent, o.config));
    print_snapshot(emergence.back());
  });

  // The model file, rounded to 5 significant digits, then re-read so the manifest describes the
  // file exactly as shipped.
  json model_json = json::parse(serialize_model_file(trainer.document()), nullptr, false);
  round_numbers(model_json, 5);
  const std::string model_text = model_json.dump();
  Result<Document> reloaded = parse_model_file(model_text);
  if (!reloaded.ok()) {
    std::cerr << "headlab-cli: the written model does not parse: " << reloaded.error() << "\n";
    return 1;
  }
  json final_snapshot = snapshot(reloaded.value().model, grammar.value(), held_out, o.steps,
                                 mean_recent_loss(trainer, std::min(o.steps, 50)), o.config);
  if (o.head_table) print_head_table(reloaded.value().model, grammar.value(), held_out);
  const json layers = print_layer_profile(reloaded.value().model, grammar.value(), held_out);
  // Probes of every head (Hewitt & Liang 2019) on the shipped model.
  ProbeConfig probe_config;
  probe_config.seed = o.config.seed;
  json probes = json::array();
  std::printf("probe  POS acc/control/selectivity   relation acc/control/selectivity\n");
  for (const HeadProbe& p : probe_heads(reloaded.value().model, grammar.value(), probe_config)) {
    std::printf("L%dH%d   %.2f / %.2f / %+.2f          %.2f / %.2f / %+.2f\n", p.layer, p.head, p.pos_accuracy,
                p.pos_control_accuracy, p.pos_selectivity, p.relation_accuracy, p.relation_control_accuracy,
                p.relation_selectivity);
    probes.push_back({{"layer", p.layer}, {"head", p.head}, {"pos_accuracy", p.pos_accuracy},
                      {"pos_control_accuracy", p.pos_control_accuracy}, {"pos_selectivity", p.pos_selectivity},
                      {"relation_accuracy", p.relation_accuracy}, {"relation_control_accuracy", p.relation_control_accuracy},
                      {"relation_selectivity", p.relation_selectivity}});
  }
  const TrainerConfig& c = o.config;
  const Architecture& a = c.architecture;
  json manifest = {
      {"format", "headlab-training-manifest"},
      {"model", o.out.substr(o.out.find_last_of('/') + 1)},
      {"command", command_line(args)},
      {"seed", c.seed},
      {"steps", o.steps},
      {"config", {{"layers", a.layer_count}, {"heads", a.head_count}, {"d_model", a.d_model}, {"d_ff", a.d_ff},
                  {"norm", a.norm == Norm::post ? "post" : a.norm == Norm::pre ? "pre" : "none"},
                  {"objective", c.objective == Objective::masked_token ? "masked" : "next"},
                  {"mask_rate", c.masking.mask_rate}, {"batch_size", c.batch_size},
                  {"learning_rate", c.learning_rate}, {"warmup_steps", c.warmup_steps}, {"decay_steps", c.decay_steps}}},
      {"final_loss", final_snapshot["train_loss"]},
      {"held_out_loss", final_snapshot["held_out_loss"]},
      {"held_out_sentences", static_cast<int>(held_out.size())},
      {"wall_time_seconds", training_seconds},
      {"steps_per_second", training_seconds > 0 ? o.steps / training_seconds : 0.0},
      {"final", final_snapshot},
      {"probes", probes},
      {"layers", layers},
      {"emergence", emergence}};
  round_numbers(manifest, 4);
  if (!write_file(o.out, model_text) || !write_file(manifest_path(o.out), manifest.dump(2) + "\n")) {
    std::cerr << "headlab-cli: cannot write " << o.out << "\n";
    return 1;
  }
  std::printf("wrote %s (%zu bytes) and %s; %.1f s of training, %.1f steps/s\n", o.out.c_str(), model_text.size(),
              manifest_path(o.out).c_str(), training_seconds, training_seconds > 0 ? o.steps / training_seconds : 0.0);
  return 0;
}

}  // namespace headlab::cli
