#include "cli/train_options.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>

namespace headlab::cli {

using namespace headlab::training;

const char* const kTrainUsage =
    "usage: headlab-cli train [--task grammar|induction] [--seed S] [--steps N] [--out FILE.json]\n"
    "         [--layers 2] [--heads 4] [--d-model 64] [--head-dim 0 (d_model / heads)] [--d-ff 128] [--norm post|pre|none] [--lr 0.003]\n"
    "         [--positional learned|sinusoidal|none] [--position-init 1 (stddev of learned positions)]\n"
    "         [--batch 16] [--warmup 100] [--decay 3000 (0: constant)] [--objective masked|next]\n"
    "         [--mask-rate 0.15] [--report-every 250] [--held-out 300] [--head-table] [--compare-one-head]\n"
    "         [--attention softmax|softmax_plus_one|sigmoid (how scores become weights, engine/model.h)]\n"
    "       --task induction: repeated random segments; its defaults: 2 layers x 4 heads of 16, d_model 64,\n"
    "         attention only, pre-norm, causal, next token, position init 0.01, lr 0.003, batch 16,\n"
    "         report every 100, 200 held-out sequences, no model file unless --out; and\n"
    "         [--symbols 26] [--prefix 0:12] [--segment 3:12] [--gap 0:8] (lengths MIN:MAX in symbols)\n"
    "       --task lm: a language model over real text: --corpus FILE[,FILE] [--held-out-corpus FILE[,FILE]] [--tokenizer text]\n"
    "         [--window 64] [--repeat-fraction 0.5] [--text TEXT]; defaults 2 layers x 4 heads of 32, d_model 64, attention\n"
    "         only, pre-norm, sinusoidal positions, lr 0.01, batch 16, report every 250, 200 held-out windows;\n"
    "         --out FILE.safetensors writes the model (F16) with the text TEXT\n"
    "       --task lm --experiment: the Training tab's one-vs-many experiment on real text (its defaults: d_model 64,\n"
    "         windows of 32, batch 8, 1,000 steps a run, 60 held-out windows) [--head-counts 1,2,4,8,16] [--seeds 1,2,3]\n";

namespace {

// "3:12" -> 3, 12.
bool parse_range(const std::string& text, int& low, int& high) {
  const std::size_t colon = text.find(':');
  if (colon == std::string::npos) return false;
  char* end = nullptr;
  const long a = std::strtol(text.c_str(), &end, 10);
  if (end != text.c_str() + colon) return false;
  const long b = std::strtol(text.c_str() + colon + 1, &end, 10);
  if (*end != '\0' || colon + 1 == text.size() || a < 0 || b < 0 || a > 1000 || b > 1000) return false;
  low = static_cast<int>(a);
  high = static_cast<int>(b);
  return true;
}

// "1,2,4" -> {1, 2, 4}: positive integers.
template <typename T>
bool parse_list(const std::string& text, std::vector<T>& out) {
  out.clear();
  for (std::size_t start = 0; start <= text.size();) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    char* end = nullptr;
    const long value = std::strtol(text.c_str() + start, &end, 10);
    if (end != text.c_str() + comma || comma == start || value < 1 || value > 1000000) return false;
    out.push_back(static_cast<T>(value));
    start = comma + 1;
  }
  return !out.empty();
}

}  // namespace

bool parse_train_options(const std::vector<std::string>& args, TrainOptions& o, std::string& error) {
  Task task = Task::grammar;
  for (std::size_t i = 0; i + 1 < args.size(); ++i)
    if (args[i] == "--task") {
      const std::optional<Task> named = task_from_name(args[i + 1]);
      if (!named) {
        error = "--task: bad value \"" + args[i + 1] + "\" (grammar, induction or lm)";
        return false;
      }
      task = *named;
    }
  o.config = default_trainer_config(task);
  o.experiment = std::find(args.begin(), args.end(), "--experiment") != args.end();
  if (o.experiment) {
    if (task != Task::lm) {
      error = "--experiment: only with --task lm (the grammar's experiment is a test, EmergenceHeadCounts)";
      return false;
    }
    const HeadCountPlan plan = head_count_plan(task);
    o.config = plan.base;
    o.steps = plan.steps_per_run;
    o.held_out = plan.held_out_windows;
    o.head_counts = plan.head_counts;
    o.seeds = plan.seeds;
  }
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--compare-one-head" || a == "--head-table" || a == "--experiment") {
      if (a != "--experiment") (a == "--head-table" ? o.head_table : o.compare_one_head) = true;
      continue;
    }
    if (i + 1 >= args.size()) {
      error = a + ": missing value";
      return false;
    }
    const std::string v = args[++i];
    char* end = nullptr;
    const double number = std::strtod(v.c_str(), &end);
    const bool numeric = end && *end == '\0' && !v.empty();
    const auto integer = [&](int& out) {
      if (!numeric || number != std::floor(number) || std::fabs(number) > 1e9) return false;
      out = static_cast<int>(number);
      return true;
    };
    Architecture& arch = o.config.architecture;
    InductionConfig& induction = o.config.induction;
    int seed = 0;
    bool ok = true;
    if (a == "--task") continue;  // applied above
    else if (a == "--seed") ok = integer(seed) && seed >= 0, o.config.seed = static_cast<std::uint32_t>(seed);
    else if (a == "--steps") ok = integer(o.steps) && o.steps >= 0;
    else if (a == "--out") o.out = v;
    else if (a == "--corpus") o.corpus = v;
    else if (a == "--held-out-corpus") o.held_out_corpus = v;
    else if (a == "--tokenizer") o.tokenizer = v;
    else if (a == "--text") o.text = v;
    else if (a == "--window") ok = integer(o.config.text.window);
    else if (a == "--repeat-fraction") ok = numeric, o.config.text.repeat_fraction = static_cast<float>(number);
    else if (a == "--layers") ok = integer(arch.layer_count);
    else if (a == "--heads") ok = integer(arch.head_count);
    else if (a == "--d-model") ok = integer(arch.d_model);
    else if (a == "--d-ff") ok = integer(arch.d_ff);
    else if (a == "--head-dim") ok = integer(arch.head_dim);
    else if (a == "--batch") ok = integer(o.config.batch_size);
    else if (a == "--warmup") ok = integer(o.config.warmup_steps);
    else if (a == "--decay") ok = integer(o.config.decay_steps);
    else if (a == "--report-every") ok = integer(o.report_every) && o.report_every > 0;
    else if (a == "--held-out") ok = integer(o.held_out) && o.held_out > 0;
    else if (a == "--head-counts") ok = o.experiment && parse_list(v, o.head_counts);
    else if (a == "--seeds") ok = o.experiment && parse_list(v, o.seeds);
    else if (a == "--lr") ok = numeric, o.config.learning_rate = static_cast<float>(number);
    else if (a == "--mask-rate") ok = numeric, o.config.masking.mask_rate = static_cast<float>(number);
    else if (a == "--symbols") ok = integer(induction.symbol_count);
    else if (a == "--prefix") ok = parse_range(v, induction.min_prefix, induction.max_prefix);
    else if (a == "--segment") ok = parse_range(v, induction.min_segment, induction.max_segment);
    else if (a == "--gap") ok = parse_range(v, induction.min_gap, induction.max_gap);
    else if (a == "--position-init") ok = numeric && number >= 0.0, arch.position_init_stddev = static_cast<float>(number);
    else if (a == "--attention") {
      const std::optional<AttentionNormalization> kind = enum_from_name(kAttentionNormalizationNames, v);
      ok = kind.has_value();
      if (ok) arch.attention = *kind;
    } else if (a == "--positional") {
      ok = v == "learned" || v == "sinusoidal" || v == "none";
      arch.positional = v == "learned" ? Positional::learned : v == "sinusoidal" ? Positional::sinusoidal : Positional::none;
    } else if (a == "--norm") {
      ok = v == "post" || v == "pre" || v == "none";
      arch.norm = v == "post" ? Norm::post : v == "pre" ? Norm::pre : Norm::none;
    } else if (a == "--objective") {
      ok = v == "masked" || v == "next";
      o.config.objective = v == "next" ? Objective::next_token : Objective::masked_token;
      arch.causal = v == "next";
    } else {
      error = a + ": unknown option";
      return false;
    }
    if (!ok) {
      error = a + ": bad value \"" + v + "\"";
      return false;
    }
  }
  const bool induction_task = task == Task::induction;
  if (task == Task::lm) {
    if (o.held_out_corpus.empty()) {
      o.held_out_corpus = o.corpus;
      // Each file's: "en.train.txt,zh.train.txt" -> "en.heldout.txt,zh.heldout.txt".
      for (std::size_t at = o.held_out_corpus.find(".train."); at != std::string::npos;
           at = o.held_out_corpus.find(".train.", at + 9))
        o.held_out_corpus.replace(at, 7, ".heldout.");
    }
    if (o.held_out_corpus == o.corpus && !o.corpus.empty()) {
      error = "--held-out-corpus: give a file other than the training text";
      return false;
    }
    if (o.report_every == 0) o.report_every = 250;
    if (o.held_out == 0) o.held_out = 200;
    return true;
  }
  if (o.out.empty() && !induction_task) o.out = "assets/models/trained.json";
  if (o.report_every == 0) o.report_every = induction_task ? 100 : 250;
  if (o.held_out == 0) o.held_out = induction_task ? 200 : 300;
  return true;
}

}  // namespace headlab::cli
