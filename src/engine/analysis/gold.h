#pragma once
// Hand-checked annotations of the example sentences (assets/sentences.json): part of speech and
// dependency arcs, matched to the current input by exact token sequence.
//
// Arcs follow the Stanford basic dependency labels Clark et al. 2019 (sec. 4.2) evaluate on:
// nsubj, dobj, det, amod, prep, pobj, punct, advmod, cc, conj, aux, poss, ... The file spells heads
// 1-based with 0 for the root, as CoNLL files do; in memory everything is 0-based.
#include <string>
#include <vector>

#include "engine/analysis/relation.h"
#include "engine/localized_text.h"
#include "engine/result.h"
#include "engine/token.h"

namespace headlab::analysis {

struct Arc {
  int dependent = 0;  // token index in the gold sentence (0-based, no [CLS]/[SEP])
  int head = 0;       // token index of the head word
  std::string relation;
  int relation_index = -1;  // into GoldCorpus::relations
};

struct GoldSentence {
  std::string id;
  std::string text;
  LocalizedText title;  // what the sentence demonstrates, for the sentence picker
  std::vector<std::string> tokens;  // as the tokenizer splits `text`
  bool has_parse = false;           // false: text only; syntactic scores are not computed for it
  std::vector<PartOfSpeech> pos;    // per token, when has_parse
  std::vector<Arc> arcs;            // every non-root token is a dependent once, when has_parse
  int root = -1;
};

// Clark et al. 2019, sec. 4.2: the baseline predicts that a dependent's head sits at one fixed
// offset, the best offset for that relation over the annotated corpus. The same offset, negated,
// predicts the dependent from the head, so one number serves both directions.
struct FixedOffsetBaseline {
  std::string relation;
  int offset = 0;        // head index - dependent index
  float accuracy = 0.0f; // share of the corpus's arcs of this relation at that offset
  int arcs = 0;          // arcs of this relation in the corpus
};

struct RelationInfo {
  std::string id;       // "nsubj", relation_id(relation)
  LocalizedText name;   // "subject"
  Relation relation = Relation::nsubj;
};

struct GoldCorpus {
  std::vector<GoldSentence> sentences;
  std::vector<RelationInfo> relations;
  std::vector<FixedOffsetBaseline> baselines;  // indexed like `relations`; arcs == 0 if unused
  std::string load_error;                      // non-empty when the file could not be used

  const GoldSentence* find(const std::string& id) const;
  const FixedOffsetBaseline* baseline(const std::string& relation) const;
  // English gloss of a relation ("subject" for nsubj), or the id itself.
  const std::string& relation_name(const std::string& relation) const;
};

// Parses assets/sentences.json and computes the fixed-offset baselines. Errors name the path
// ("sentences[2].heads[4]: head 12 is outside the sentence (1..9, or 0 for the root)").
Result<GoldCorpus> parse_gold_corpus(const std::string& json_text);

// Fills corpus.baselines: the best fixed offset per relation over every annotated sentence
// (Clark et al. 2019, sec. 4.2).
void compute_baselines(GoldCorpus& corpus);

// Reads assets/sentences.json; on failure an empty corpus whose load_error says why.
GoldCorpus load_gold_corpus();

// The gold sentence the input tokens spell, found by exact (case-sensitive) token sequence with
// [CLS]/[SEP] ignored, and where each gold token sits in the input.
struct GoldMatch {
  const GoldSentence* sentence = nullptr;  // nullptr: no annotated sentence matches
  std::vector<int> input_index;            // gold token k is input token input_index[k]
  bool has_gold = false;                   // matched and the sentence has a parse
  std::string reason;                      // plain-English status for the UI
};

GoldMatch match_gold(const GoldCorpus& corpus, const Tokens& tokens);

}  // namespace headlab::analysis
