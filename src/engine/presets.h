#pragma once
// Head presets: data files (assets/presets/*.json, format in docs/presets.md) that write W_Q, W_K,
// W_V (and optionally the head's block of W_O) of one head so it builds a textbook pattern
// analytically (previous token, attend to [SEP], verb -> subject, the two halves of an induction
// circuit, ...). Entries name features of the embedding the preset is for (named features, or the
// symbols A..J with their free dimensions; embedding.h), so the learner can read in the matrices
// what the preset did and edit it.
//
// Applying zeroes the head's W_Q, W_K and W_V (and its W_O block when the preset writes W_O), then
// writes each entry. W_Q entries are multiplied by sqrt(d_k) so that the logits q.k / sqrt(d_k) are
// what the file says whatever the head size.
#include <string>
#include <vector>

#include "engine/analysis/label.h"
#include "engine/localized_text.h"
#include "engine/model.h"
#include "engine/result.h"

namespace headlab {

enum class PresetMatrix { W_Q, W_K, W_V, W_O };

// W_Q, W_K, W_V: matrix[feature, col]. W_O: the head's block of W_O, block[col, feature]: value
// dimension `col` of the head writes into output feature `feature`.
struct PresetEntry {
  PresetMatrix matrix = PresetMatrix::W_Q;
  int feature = 0;  // dimension index in the preset's embedding (embedding.h)
  int col = 0;      // column of W_Q/W_K/W_V, or the head's value dimension for W_O
  float value = 0.0f;
};

struct Preset {
  std::string id;
  LocalizedText name;
  LocalizedText description;
  analysis::Label label;         // the primary label the analysis gives it (file: "previous_token", "syntactic:nsubj")
  std::string example_sentence;  // id in assets/sentences.json on which the pattern is promised ("" for symbols)
  Embedding embedding = Embedding::named_features;  // the embedding whose features the entries name
  bool requires_special_tokens = false;
  bool requires_positions = false;  // uses pos / pos^2, so positional must not be "none"
  std::vector<PresetEntry> entries;

  // Columns of W_Q/W_K the preset needs (d_k must be at least this); W_V and W_O entries beyond d_v
  // are skipped, so a narrow head copies fewer features.
  int key_columns() const;
  // One more than the largest feature index the entries use: d_model must be at least this.
  int features_needed() const;
  bool writes_output() const;
};

// Parses one preset file. Errors name the path ("entries[3].feature: unknown feature \"nouns\"").
Result<Preset> parse_preset(const std::string& json_text);

// Reads assets/presets/index.json and every preset it lists, in that order.
Result<std::vector<Preset>> load_presets();

// Finds a preset by id; nullptr when absent.
const Preset* find_preset(const std::vector<Preset>& presets, const std::string& id);

// Writes the preset into head `head` of layer `layer`. Returns "" on success, or why it cannot
// (random embedding, d_k too small, no special tokens for a [CLS] preset, ...); then the model
// is unchanged.
std::string apply_preset(Model& model, int layer, int head, const Preset& preset);

}  // namespace headlab
