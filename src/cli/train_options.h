#pragma once
// The options of headlab-cli train, shared by the grammar task (train_command.cpp) and the
// induction task (induction_command.cpp).
#include <cstdint>
#include <string>
#include <vector>

#include "engine/training/head_count_experiment.h"
#include "engine/training/trainer.h"

namespace headlab::cli {

extern const char* const kTrainUsage;

struct TrainOptions {
  training::TrainerConfig config;  // starts from default_trainer_config(--task)
  int steps = 3000;
  std::string out;        // grammar: assets/models/trained.json; induction: nothing written unless given
  int report_every = 0;   // grammar: 250; induction: 100
  int held_out = 0;       // grammar: 300 sentences; induction: 200 sequences
  bool compare_one_head = false;
  bool head_table = false;
  // --task lm --experiment: training::head_count_plan's runs (--head-counts, --seeds change them).
  bool experiment = false;
  std::vector<int> head_counts;
  std::vector<std::uint32_t> seeds;
  // --task lm: the text, its held-out part (default: the corpus path with "train" -> "heldout") and
  // the BPE vocabulary that tokenizes both.
  std::string corpus;
  std::string held_out_corpus;
  std::string tokenizer = "text";
  std::string text;  // --task lm: the text stored with the model (default: the first held-out line of a sentence's length)
};

// Parses the words after "train"; --task is applied first, so the other options change that
// task's defaults whatever their order. False with `error` set on a bad option.
bool parse_train_options(const std::vector<std::string>& args, TrainOptions& options, std::string& error);

}  // namespace headlab::cli
