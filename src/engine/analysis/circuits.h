#pragma once
// A head's weights read as circuits (Elhage et al. 2021, "A Mathematical Framework for Transformer
// Circuits": QK/OV circuits and eigenvalue copying scores in its one-layer part, Q-, K- and
// V-composition in its two-layer part).
//
// This engine multiplies row vectors by weights (Q = X W_Q, output = Z W_O), the paper column
// vectors (W_Q x). W_QK below is the paper's W_Q^T W_K; W_OV is the transpose of the paper's
// W_O W_V, so products of circuits run in the opposite order:
//   QK circuit W_QK = W_Q W_K^T  (d_model, d_model): attention logit (before 1/sqrt(d_k)) of a query
//                                 row x and a key row y is x W_QK y^T; row = query feature,
//                                 column = key feature.
//   OV circuit W_OV = W_V W_O^h  (d_model, d_model): a head that attends to y writes y W_OV into the
//                                 residual stream; row = feature attended to, column = feature
//                                 written. W_O^h = rows [h d_v, (h+1) d_v) of the layer's W_O.
// Circuits describe weights only: a pruned head still has them. Preconditions (asserted): layer
// and head indices name existing ones; callers validate user input.
#include <cstdint>

#include <nlohmann/json.hpp>

#include "engine/model.h"

namespace headlab::analysis {

// (d_model, d_model) W_Q W_K^T of head `head` of layer `layer`, computed in double.
Matrix qk_circuit(const Model& model, int layer, int head);

// (d_model, d_model) W_V W_O^h of head `head` of layer `layer`, computed in double.
Matrix ov_circuit(const Model& model, int layer, int head);

// Copying score of a square circuit M (Elhage et al., "Copying / primitive in-context learning"):
// sum_i Re(lambda_i) / sum_i |lambda_i| over M's eigenvalues, in [-1, 1]. Near +1 when M maps
// features onto themselves (the head copies what it attends to), near -1 when it writes their
// negation, near 0 for a rotation. 0 for an empty or nilpotent (e.g. all-zero) matrix; NaN when M
// holds a non-finite entry.
// Costs about 10 n^3 flops (real Schur form): 0.3 ms at n = 24, 13 ms at 128, 2 s at 512 on this
// project's native build; for a head, ov_copying_score is the cheap way.
float copying_score(const Matrix& square);

// copying_score(ov_circuit(model, layer, head)) from the (d_v, d_v) W_O^h W_V instead: AB and BA
// have the same non-zero eigenvalues, and zero eigenvalues add nothing to either sum.
float ov_copying_score(const Model& model, int layer, int head);

// Composition of head a (earlier layer) into head b (later layer): how much of b's reading is
// aligned with what a writes. Each score is a Frobenius-norm ratio in [0, 1]; 0 when a circuit is
// all zero, and for every pair that involves a pruned head (its path is cut). Scores look at
// weights only, as the paper does for attention-only models: a LayerNorm, FFN or missing residual
// between the two layers changes what actually arrives.
//   Q: ||W_OV^a W_QK^b||_F   / (||W_OV^a||_F ||W_QK^b||_F)   head a's output feeds b's queries
//   K: ||W_OV^a W_QK^b^T||_F / (||W_OV^a||_F ||W_QK^b||_F)   ... b's keys
//   V: ||W_OV^a W_OV^b||_F   / (||W_OV^a||_F ||W_OV^b||_F)   ... b's values
struct CompositionScores {
  Matrix q;  // (heads of layer_a, heads of layer_b)
  Matrix k;
  Matrix v;
};

// Every head pair of layers layer_a < layer_b. Computed from the heads' factors (d_model x d_k
// and d_v pieces) rather than from the (d_model, d_model) circuits: 4 ms for 16 x 16 heads at
// d_model 128 and 0.2 s at 512, where the full products would take minutes.
CompositionScores composition_scores(const Model& model, int layer_a, int layer_b);

// Mean composition scores of heads whose W_V, W_O^h (head a) and W_Q, W_K, W_V, W_O^h (head b)
// are independent Gaussian matrices of the given shapes: the chance level a score is compared
// against. It is not 0 but about 1/sqrt(d_model) (0.20 at d_model 24, 0.09 at 128; somewhat less
// for heads of rank 1 or 2), so "composes" means "well above this". Deterministic for a seed, on
// every platform.
struct CompositionBaseline {
  float q = 0.0f;
  float k = 0.0f;
  float v = 0.0f;
};
CompositionBaseline composition_baseline(int d_model, int d_v_a, int d_k_b, int d_v_b, int samples = 32,
                                         std::uint32_t seed = 1);

// {"qk": rows, "ov": rows, "copying_score": number|null} of one head.
nlohmann::json circuits_json(const Model& model, int layer, int head);

// {"q", "k", "v": rows (heads of layer_a) of columns (heads of layer_b),
//  "baseline": {"q", "k", "v"} (composition_baseline for these layers' shapes),
//  "strongest": {"kind": "q"|"k"|"v", "a", "b", "score"} or null when every score is 0}
nlohmann::json composition_json(const Model& model, int layer_a, int layer_b);

}  // namespace headlab::analysis
