#pragma once
// Token embeddings X (n, d_model) and the names of their dimensions.
//
// Named-feature embedding (the default for hand editing): each of the first kNamedFeatureCount
// dimensions has a meaning, so an entry of W_Q or W_K reads as "verbs query for nouns":
//   bias (always 1), position (i / 8), position^2 ((i / 8)^2), one-hot part of speech,
//   [CLS]/[SEP] flags, semantic classes from the lexicon, rarity ((9 - zipf) / 10, i.e. -log10 of
//   the word's probability, divided by 10).
// The position and position^2 pair lets a head build any relative-offset pattern exactly: with
// q_i = (2(i - o), -1) and k_j = (j, j^2) the logit is -(j - (i - o))^2 + const, peaking at offset o.
// Dimensions beyond the named ones hold a seeded random word-identity vector (unit length).
//
// Random embedding: a seeded Gaussian vector per word plus sinusoidal (Vaswani et al. 2017,
// section 3.5) or learned positional encoding.
//
// Symbol embedding (a token world where identity matters, for induction heads): bias, position,
// position^2 as above, then one dimension per symbol A..J (a token "c" or "C" sets dimension "C"),
// then free dimensions ("free1", ...) that nothing writes but heads, through W_V W_O and the
// residual stream. A previous-token head can write "the token before me was C" into them, and a
// later head can match on it: the induction circuit (Elhage et al. 2021; Olsson et al. 2022).
//
// Learned embedding (models trained by engine/training, Model::vocab not empty): a table row per
// vocabulary word plus the positional encoding.
#include <string>
#include <vector>

#include "matrix.h"
#include "model.h"
#include "token.h"

namespace headlab {

enum NamedFeature : int {
  kFeatureBias,
  kFeaturePosition,
  kFeaturePositionSquared,
  kFeatureDet,
  kFeatureAdj,
  kFeatureNoun,
  kFeatureVerb,
  kFeaturePrep,
  kFeaturePron,
  kFeatureAdv,
  kFeatureConj,
  kFeaturePunct,
  kFeatureUnknown,
  kFeatureCls,
  kFeatureSep,
  kFeatureSemanticFirst,  // kSemanticClasses in order
  kFeatureRarity = kFeatureSemanticFirst + 8,
  kNamedFeatureCount
};

inline constexpr float kPositionScale = 1.0f / 8.0f;

// The symbol embedding's layout.
inline constexpr int kSymbolCount = 10;  // A..J
inline constexpr int kFeatureSymbolFirst = kFeaturePositionSquared + 1;
inline constexpr int kFeatureFreeFirst = kFeatureSymbolFirst + kSymbolCount;
inline constexpr int kMinSymbolDModel = kFeatureFreeFirst;  // no free dimension yet

// "named", "random", "symbols": the id model files, the JS API and saved states use.
const char* embedding_id(Embedding embedding);
// The smallest d_model an embedding can build its input rows with (24 named features, 13 for the
// symbols' fixed dimensions, kMinDModel for random).
int min_d_model(Embedding embedding);
// The symbol a token stands for (0 for "A" or "a", ..., 9 for "J"), or -1.
int symbol_index(const std::string& text);

// Name of every dimension of X for this model ("bias", "pos", "verb", "animal", "id 3", "d17").
std::vector<std::string> feature_names(const Model& model);
// Index of a named feature ("verb", "animal", ...), or -1.
int feature_index(const std::string& name);
// Index of a dimension by its name in the given embedding's layout ("noun"; "C", "free3"), or -1.
int feature_index(const std::string& name, Embedding embedding);

// Index of `key` in model.vocab, else of "[UNK]", else -1 (models with a learned embedding).
int vocabulary_index(const Model& model, const std::string& key);

// Builds X (n, d_model) for the annotated tokens. A model with a vocabulary (trained) uses its
// learned token_embedding rows plus the positional encoding, whatever `embedding` says.
Matrix embed(const Tokens& tokens, const Model& model);
// X for a subword model's token ids (rows of its token embedding; an id out of range gives a zero row).
Matrix embed_token_ids(const std::vector<int>& ids, const Model& model);

}  // namespace headlab
