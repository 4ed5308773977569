#pragma once
// Generated sentences as gold annotations in the lab's form (analysis/gold.h), so the training
// page labels the heads of the model it trains with the lab's scores, rules and thresholds
// (analysis/pooled_labels.h) instead of rules of its own.
#include <vector>

#include "engine/analysis/gold.h"
#include "engine/analysis/label_config.h"
#include "generator.h"
#include "grammar.h"

namespace headlab::training {

// One annotated sentence per generated one (id "generated-<i>", the words without [CLS]/[SEP],
// their gold parts of speech and arcs) under the grammar's relations; the fixed-offset baselines
// are the best offsets over these sentences, as the lab's are over its example sentences.
analysis::GoldCorpus gold_corpus(const std::vector<Sentence>& sentences, const Grammar& grammar);

// The lab's thresholds, with the grammar's control relations (arcs built to predict nothing)
// excluded from syntax like "punct".
analysis::LabelConfig label_config_for(const analysis::LabelConfig& lab, const Grammar& grammar);

}  // namespace headlab::training
