#pragma once
// A linear probe of one head's output Z_i, run on the annotated example sentences
// (assets/sentences.json) with the model being edited: can a logistic-regression classifier read
// a word's part of speech (or the previous word's) off the head's output row for that word?
//
// As in Hewitt & Liang 2019 ("Designing and Interpreting Probes with Control Tasks", sec. 2-3):
// the probe is trained on some sentences and scored on the others, next to a control task that
// gives every word type one random label drawn from the task's label distribution; selectivity =
// accuracy - control accuracy. High accuracy with low selectivity means the probe memorised word
// identities, not that the head carries the property. The training tab probes trained models on
// the synthetic language (training/probe.h); this one probes whatever the learner has built.
#include <cstdint>
#include <string>

#include "engine/analysis/gold.h"
#include "engine/lexicon.h"
#include "engine/model.h"

namespace headlab::analysis {

enum class ProbeTask {
  pos,           // the part of speech of the word itself
  previous_pos,  // the part of speech of the word before it ("none" for the first word)
};

// "pos" | "previous_pos"; false for anything else.
bool parse_probe_task(const std::string& name, ProbeTask& out);

struct ExampleProbe {
  float accuracy = 0.0f;          // on held-out sentences
  float control_accuracy = 0.0f;  // same probe, control labels
  float selectivity = 0.0f;       // accuracy - control_accuracy
  float majority_accuracy = 0.0f; // always guessing the most frequent training label
  int train_words = 0;
  int test_words = 0;
};

// Annotated sentences alternate between training (even) and test (odd). Deterministic for a
// given model. Layer/head out of range gives all zeros.
ExampleProbe probe_head_on_examples(const Model& model, const Lexicon& lexicon, const GoldCorpus& corpus, int layer,
                                    int head, ProbeTask task, std::uint32_t seed = 1);

}  // namespace headlab::analysis
