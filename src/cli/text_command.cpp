#include "cli/text_command.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/output_files.h"
#include "cli/training_loop.h"
#include "cli/tokenize_command.h"
#include "engine/analysis/pooled_labels.h"
#include "engine/bpe/punctuation_tokens.h"
#include "engine/document.h"
#include "engine/bpe/token_labels.h"
#include "engine/embedding.h"
#include "engine/tensor_model_file.h"
#include "engine/tokenizer.h"
#include "engine/training/head_count_experiment.h"
#include "engine/training/text_corpus.h"
#include "engine/training/text_evaluation.h"
#include "engine/training/trainer.h"

namespace headlab::cli {
namespace {

using nlohmann::json;
using namespace headlab::training;

// The lines of each file of a comma-separated list as one stream of ids (training/text_corpus.h).
bool tokenize_files(const std::string& paths, const bpe::BpeTokenizer& tokenizer, TextCorpus& corpus) {
  for (std::size_t start = 0; start <= paths.size();) {
    const std::size_t comma = std::min(paths.find(',', start), paths.size());
    std::ifstream in(paths.substr(start, comma - start), std::ios::binary);
    if (!in) return false;
    append_text_lines(tokenizer, std::string(std::istreambuf_iterator<char>(in), {}), corpus);
    start = comma + 1;
  }
  return true;
}

// The model's example text: the first line of the first file that is a sentence's length (12 to 40 tokens).
std::string example_line(const std::string& paths, const bpe::BpeTokenizer& tokenizer) {
  std::ifstream in(paths.substr(0, paths.find(',')), std::ios::binary);
  for (std::string line; std::getline(in, line);) {
    const std::size_t n = bpe::encode(tokenizer, line).ids.size();
    if (n >= 12 && n <= 40) return line;
  }
  return {};
}

// The lab's labels of each head, pooled over the held-out windows as the Training tab pools them.
std::vector<analysis::Label> pooled_labels(const Model& model, const bpe::BpeTokenizer& tokenizer,
                                           const std::vector<Sentence>& windows) {
  std::vector<Tokens> inputs;
  std::vector<Trace> traces;
  Document document;
  document.model = model;
  document.input.kind = InputKind::token_ids;
  for (const Sentence& window : windows) {
    document.input.ids = window.tokens;
    PreparedInput input = prepare_input(document, Lexicon{}, &tokenizer);
    traces.emplace_back();
    forward(model, input.X, traces.back());
    inputs.push_back(std::move(input.tokens));
  }
  std::vector<analysis::Label> labels;
  for (const analysis::PooledHead& head : analysis::label_heads_pooled(inputs, traces, model.causal, analysis::load_resources()))
    labels.push_back(head.label);
  return labels;
}

json heads_json(const TextEvaluation& e, const std::vector<analysis::Label>& labels) {
  json heads = json::array();
  for (std::size_t i = 0; i < e.heads.size(); ++i) {
    const TextHeadScores& h = e.heads[i];
    heads.push_back({{"layer", h.layer}, {"head", h.head}, {"label", i < labels.size() ? labels[i].text() : ""},
                     {"previous_token", h.previous_token}, {"duplicate_token", h.duplicate_token},
                     {"induction", h.induction}, {"first_token", h.first_token}, {"punctuation", h.punctuation}});
  }
  return heads;
}

const TextHeadScores& best(const TextEvaluation& e, float TextHeadScores::*score) {
  const TextHeadScores* top = &e.heads.front();
  for (const TextHeadScores& h : e.heads)
    if (h.*score > top->*score) top = &h;
  return *top;
}

void print_report(int step, float train_loss, const TextEvaluation& e) {
  const TextHeadScores& previous = best(e, &TextHeadScores::previous_token);
  const TextHeadScores& induction = best(e, &TextHeadScores::induction);
  const TextHeadScores& sink = best(e, &TextHeadScores::first_token);
  std::printf("step %5d  train %.3f  held-out %.3f  in-context %+.3f  prev L%dH%d %.2f  induction L%dH%d %.2f  first token L%dH%d %.2f\n",
              step, train_loss, e.held_out_loss, e.in_context_learning(), previous.layer, previous.head, previous.previous_token,
              induction.layer, induction.head, induction.induction, sink.layer, sink.head, sink.first_token);
  std::fflush(stdout);
}

// The one-vs-many experiment (training/head_count_experiment.h) on the text: every run's held-out
// loss as it finishes, then each head count's mean and range over the seeds.
int run_text_experiment(const TrainOptions& o, std::shared_ptr<const TextCorpus> corpus, const TextCorpus& held_out_corpus) {
  std::vector<Sentence> held_out = held_out_text_windows(held_out_corpus, o.config.text, o.held_out);
  Result<HeadCountExperiment> created =
      HeadCountExperiment::create(o.config, std::move(corpus), std::move(held_out), o.head_counts, o.seeds, o.steps);
  if (!created.ok()) {
    std::cerr << "headlab-cli: " << created.error() << "\n";
    return 1;
  }
  HeadCountExperiment& experiment = created.value();
  const auto started = std::chrono::steady_clock::now();
  std::printf("experiment: %zu runs of %d steps, d_model %d, %d layers, batch %d windows of %d, lr %g, %d held-out windows\n",
              experiment.runs().size(), o.steps, o.config.architecture.d_model, o.config.architecture.layer_count,
              o.config.batch_size, o.config.text.window, o.config.learning_rate, o.held_out);
  for (std::size_t r = 0; r < experiment.runs().size(); ++r) {
    experiment.step(o.steps);
    const HeadCountRun& run = experiment.runs()[r];
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::printf("seed %u  %2d heads x %2d  held-out %.4f  (%.0f s)\n", run.seed, run.heads,
                o.config.architecture.d_model / run.heads, run.held_out_loss, seconds);
    std::fflush(stdout);
  }
  std::printf("heads x d_k   mean     min      max      runs\n");
  for (const HeadCountPoint& p : experiment.points())
    std::printf("%2d x %-2d       %.4f   %.4f   %.4f   %d\n", p.heads, o.config.architecture.d_model / p.heads, p.mean, p.min,
                p.max, p.runs);
  return 0;
}

}  // namespace

int run_train_text(const TrainOptions& o, const std::vector<std::string>& args) {
  const auto fail = [](const std::string& message) {
    std::cerr << "headlab-cli: " << message << "\n";
    return 1;
  };
  if (o.corpus.empty()) return fail("--task lm needs --corpus FILE (third_party/corpus/en.train.txt after scripts/setup)");
  const Result<bpe::BpeTokenizer> tokenizer = load_tokenizer(o.tokenizer);
  if (!tokenizer.ok()) return fail(tokenizer.error());
  const auto started = std::chrono::steady_clock::now();
  auto corpus = std::make_shared<TextCorpus>();
  corpus->tokenizer = o.tokenizer;
  corpus->vocabulary = tokenizer.value().tokens;
  if (!tokenize_files(o.corpus, tokenizer.value(), *corpus)) return fail("cannot read " + o.corpus);
  TextCorpus held_out_corpus;
  if (!tokenize_files(o.held_out_corpus, tokenizer.value(), held_out_corpus)) return fail("cannot read " + o.held_out_corpus);
  const std::string example = example_line(o.held_out_corpus, tokenizer.value());
  const double tokenize_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

  if (o.experiment) return run_text_experiment(o, corpus, held_out_corpus);
  Result<Trainer> created = Trainer::create(o.config, corpus);
  if (!created.ok()) return fail(created.error());
  Trainer& trainer = created.value();
  const TrainerConfig& c = o.config;
  const Architecture& a = c.architecture;
  const std::vector<Sentence> held_out = held_out_text_windows(held_out_corpus, c.text, o.held_out);
  const std::vector<bool> punctuation = bpe::punctuation_tokens(tokenizer.value());
  std::printf("lm task, seed %u: %s (%zu tokens of training text, %zu held out, tokenized in %.1f s), %d layers x %d "
              "heads, d_model %d, %s, %s attention, window %d (%g repeated), lr %g, batch %d\n",
              c.seed, o.tokenizer.c_str(), corpus->ids.size(), held_out_corpus.ids.size(), tokenize_seconds,
              a.layer_count, a.head_count, a.d_model, a.d_ff > 0 ? ("d_ff " + std::to_string(a.d_ff)).c_str() : "attention only",
              std::string(enum_name(kAttentionNormalizationNames, a.attention)).c_str(), c.text.window, c.text.repeat_fraction, c.learning_rate, c.batch_size);

  json emergence = json::array();
  TextEvaluation evaluation;
  const double training_seconds = train_with_reports(trainer, o.steps, o.report_every, 0, [&](int done, float recent) {
    evaluation = evaluate_text(trainer.model(), held_out, punctuation, c.seed);
    print_report(done, recent, evaluation);
    emergence.push_back({{"step", done}, {"train_loss", recent}, {"held_out_loss", evaluation.held_out_loss},
                         {"in_context_learning", evaluation.in_context_learning()},
                         {"previous_token", best(evaluation, &TextHeadScores::previous_token).previous_token},
                         {"induction", best(evaluation, &TextHeadScores::induction).induction},
                         {"first_token", best(evaluation, &TextHeadScores::first_token).first_token}});
  });

  Document document = trainer.document();
  document.input.text = o.text.empty() ? example : o.text;
  std::vector<std::uint8_t> file = write_tensor_model(document);
  // What ships is F16: measure the model as read back from the file.
  const Result<Document> shipped = read_tensor_model(file.data(), file.size());
  if (!shipped.ok()) return fail("the written model does not read back: " + shipped.error());
  const Model& model = shipped.value().model;
  evaluation = evaluate_text(model, held_out, punctuation, c.seed);
  const std::vector<analysis::Label> labels = pooled_labels(model, tokenizer.value(), held_out);
  std::printf("head   label               prev   dup    induction  first  punct\n");
  for (std::size_t i = 0; i < evaluation.heads.size(); ++i) {
    const TextHeadScores& h = evaluation.heads[i];
    std::printf("L%dH%d   %-18s  %.2f   %.2f   %.2f       %.2f   %.2f\n", h.layer, h.head, labels[i].text().c_str(),
                h.previous_token, h.duplicate_token, h.induction, h.first_token, h.punctuation);
  }
  std::printf("held-out loss %.3f (early %.3f, late %.3f: in-context learning %+.3f)\n", evaluation.held_out_loss,
              evaluation.early_loss, evaluation.late_loss, evaluation.in_context_learning());
  std::printf("%.1f s of training, %.1f steps/s\n", training_seconds, o.steps / std::max(training_seconds, 1e-9));
  if (o.out.empty()) return 0;
  json manifest = {{"format", "headlab-training-manifest"},
                   {"task", "lm"},
                   {"model", o.out.substr(o.out.find_last_of('/') + 1)},
                   {"command", command_line(args)},
                   {"seed", c.seed},
                   {"steps", o.steps},
                   {"tokenizer", o.tokenizer},
                   {"training_tokens", corpus->ids.size()},
                   {"held_out_tokens", held_out_corpus.ids.size()},
                   {"held_out_windows", held_out.size()},
                   {"config", {{"layers", a.layer_count}, {"heads", a.head_count}, {"d_model", a.d_model}, {"d_ff", a.d_ff},
                               {"attention", enum_name(kAttentionNormalizationNames, a.attention)}, {"window", c.text.window}, {"repeat_fraction", c.text.repeat_fraction}, {"batch_size", c.batch_size}, {"learning_rate", c.learning_rate},
                               {"warmup_steps", c.warmup_steps}, {"decay_steps", c.decay_steps}}},
                   {"wall_time_seconds", training_seconds},
                   {"held_out_loss", evaluation.held_out_loss},
                   {"early_loss", evaluation.early_loss},
                   {"late_loss", evaluation.late_loss},
                   {"in_context_learning", evaluation.in_context_learning()},
                   {"final_heads", heads_json(evaluation, labels)},
                   {"emergence", emergence}};
  round_numbers(manifest, 4);
  if (!write_file(o.out, std::string(file.begin(), file.end())) || !write_file(manifest_path(o.out), manifest.dump(2) + "\n"))
    return fail("cannot write " + o.out);
  std::printf("wrote %s (%zu bytes) and %s\n", o.out.c_str(), file.size(), manifest_path(o.out).c_str());
  return 0;
}

}  // namespace headlab::cli
