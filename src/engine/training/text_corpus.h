#pragma once
// Text as the text task's corpus: every non-empty line encoded with a byte-level BPE, lines one
// after another with the tokenizer's newline between them, as one stream of ids. The command line
// reads the corpus files so, and the page the text sample it fetches, so a run in the page and
// one natively on the same text see the same ids.
#include <string>
#include <string_view>

#include "engine/bpe/bpe_tokenizer.h"
#include "text_task.h"

namespace headlab::training {

// `name` is the tokenizer's (Model::tokenizer of what trains on it). Lines end at '\n'; a '\r'
// before it is dropped.
TextCorpus text_corpus(const bpe::BpeTokenizer& tokenizer, std::string name, std::string_view text);

// Appends `text`'s lines to `corpus` as text_corpus does (for text that comes in several files).
void append_text_lines(const bpe::BpeTokenizer& tokenizer, std::string_view text, TextCorpus& corpus);

}  // namespace headlab::training
