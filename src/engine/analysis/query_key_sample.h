#pragma once
// The queries, keys and attention of one layer's heads over many sentences, the material of the
// AttentionViz picture (query_key_map.h): a sentence at a time, so that a page can draw between
// them (one sentence through a GPT-2 checkpoint's layers is a whole forward pass).
#include <string>
#include <vector>

#include "engine/analysis/query_key_map.h"
#include "engine/bpe/bpe_tokenizer.h"
#include "engine/document.h"
#include "engine/forward.h"
#include "engine/lexicon.h"

namespace headlab::analysis {

// One head on one sentence.
struct HeadVectors {
  Matrix queries;    // (n, d_k) as the head computed them (biases included)
  Matrix keys;       // (n, d_k)
  Matrix attention;  // (n, n) row i: what query i gives each key
};

struct SampledSentence {
  std::string text;
  std::vector<std::string> tokens;  // as prepare_input names them (subword labels for BPE models)
  Tokens annotated;                 // the same tokens with their metadata (punctuation, word class, key)
  std::vector<HeadVectors> heads;   // every head of the layer
};

// Tokens read per sentence at most: a picture of a few hundred points stays readable.
inline constexpr int kSampledTokensPerSentence = 32;

struct QueryKeySample {
  int layer = 0;
  std::vector<SampledSentence> sentences;
};

// Takes the layer's heads from a trace the caller already has (the lab's own sentence), the first
// kSampledTokensPerSentence tokens of it.
SampledSentence sentence_from_trace(const LayerTrace& layer, const Tokens& tokens, std::string text);

// Reads `text` through `model` up to `layer` (forward_layers; the later layers are not computed).
// `trace` is the caller's workspace, reused from sentence to sentence.
SampledSentence sample_sentence(const Model& model, int layer, const std::string& text, const Lexicon& lexicon,
                                const bpe::BpeTokenizer* subword, Trace& trace);

// A rough count of multiply-adds sample_sentence spends on `tokens` tokens: what a caller with a
// frame budget plans by.
double sample_cost(const Model& model, int layer, int tokens);

// Which sentence and token a point of the picture stands for. Token t of sentence s gives one query
// and one key, so query point i and key point i share the same reference.
struct PointRef {
  int sentence = 0;
  int position = 0;
};

struct HeadQueryKeyMap {
  int layer = 0, head = 0;
  QueryKeyMap map;
  std::vector<PointRef> points;  // (n_points) for row i of map.query_points and of map.key_points
};

// The picture of `head` over every sentence of `sample`.
HeadQueryKeyMap head_query_key_map(const QueryKeySample& sample, int head);

}  // namespace headlab::analysis
