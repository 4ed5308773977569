#pragma once
// A model trained on the grammar, brought into the lab: the lab labels syntax only on sentences
// with gold parses, so the model comes with the first annotated example sentence written in its
// vocabulary (the training vocabulary is small and lower-case; most example sentences are not).
#include <string>

#include "engine/analysis/analysis.h"
#include "engine/document.h"

namespace headlab::app {

// The first annotated sentence of `gold` whose every word is in `vocab` ("" when none is).
std::string annotated_sentence_in(const std::vector<std::string>& vocab, const analysis::GoldCorpus& gold);

// `document` with its input replaced by that sentence (kept when there is none).
Document with_annotated_sentence(Document document, const analysis::GoldCorpus& gold);

}  // namespace headlab::app
