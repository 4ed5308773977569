#pragma once
// The model: configuration plus every weight, as plain values.
//
// Shapes (n tokens): X (n, d_model); per head W_Q, W_K (d_model, d_k), W_V (d_model, d_v);
// per layer W_O (head_count * d_v, d_model). A layer with no residual, norm or FFN computes
// exactly Concat(Z_1..Z_h) W_O.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "enum_names.h"
#include "matrix.h"

namespace headlab {

// named: each dimension has a meaning; symbols: one dimension per symbol A..J (embedding.h)
enum class Embedding { named_features, random, symbols };
enum class Positional { sinusoidal, learned, none };
enum class Norm { none, pre, post };

// The names model files and the JS API use for them.
inline constexpr EnumName<Positional> kPositionalNames[] = {
    {"sinusoidal", Positional::sinusoidal}, {"learned", Positional::learned}, {"none", Positional::none}};
inline constexpr EnumName<Norm> kNormNames[] = {{"none", Norm::none}, {"pre", Norm::pre}, {"post", Norm::post}};

// How a head turns its scores s_ij = q_i . k_j / sqrt(d_k) (over the keys query i sees) into weights:
//   softmax:          A_ij = exp(s_ij) / sum_j exp(s_ij); rows sum to 1 (Vaswani et al. 2017).
//   softmax_plus_one: A_ij = exp(s_ij) / (1 + sum_j exp(s_ij)), softmax with an extra zero logit whose
//                     value is zero: a row sums to less than 1, so a head can attend to nothing
//                     (Miller 2023, "Attention is off by one").
//   sigmoid:          A_ij = sigmoid(s_ij - ln(m_i)) elementwise, m_i the keys query i sees; no
//                     normalisation. The bias -ln(m) (Ramapuram et al. 2024) makes a row of zero scores
//                     sum to about 1 at any length; being per query, a causal prefix reads the same
//                     whatever follows. Gu et al. 2025 found no attention sink with unnormalised
//                     sigmoid attention.
enum class AttentionNormalization { softmax, softmax_plus_one, sigmoid };
inline constexpr EnumName<AttentionNormalization> kAttentionNormalizationNames[] = {
    {"softmax", AttentionNormalization::softmax},
    {"softmax_plus_one", AttentionNormalization::softmax_plus_one},
    {"sigmoid", AttentionNormalization::sigmoid}};

inline constexpr int kMaxLayers = 6;
inline constexpr int kMaxHeads = 16;
inline constexpr int kMinDModel = 8;
inline constexpr int kMaxDModel = 512;

struct HeadWeights {
  Matrix W_Q;  // (d_model, d_k)
  Matrix W_K;  // (d_model, d_k)
  Matrix W_V;  // (d_model, d_v)
  // Biases of checkpoints that have them (GPT-2): Q = X W_Q + b_Q. (1, d_k), (1, d_k), (1, d_v);
  // empty in every model HeadLab makes or trains.
  RowVector b_Q{}, b_K{}, b_V{};
  bool pruned = false;  // a pruned head contributes a zero block to the concatenation
};

// ReLU, or GELU in its tanh form as GPT-2 computes it: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
// (Hendrycks and Gimpel 2016).
enum class Activation { relu, gelu_tanh };
inline constexpr EnumName<Activation> kActivationNames[] = {{"relu", Activation::relu}, {"gelu_tanh", Activation::gelu_tanh}};

struct FeedForward {
  Matrix W_1;     // (d_model, d_ff)
  RowVector b_1;  // (1, d_ff)
  Matrix W_2;     // (d_ff, d_model)
  RowVector b_2;  // (1, d_model)
  Activation activation = Activation::relu;
};

struct Layer {
  std::vector<HeadWeights> heads;
  Matrix W_O;  // (head_count * d_v, d_model)
  RowVector b_O{};  // (1, d_model) added to Concat(Z) W_O in checkpoints that have it; empty: none
  int d_k = 0;
  int d_v = 0;
  bool residual = false;
  Norm norm = Norm::none;
  RowVector ln_gamma;  // (1, d_model), used when norm != none (one LayerNorm per sub-layer)
  RowVector ln_beta;
  RowVector ln2_gamma;
  RowVector ln2_beta;
  bool has_ffn = false;
  FeedForward ffn;

  int head_count() const { return static_cast<int>(heads.size()); }
};

struct Model {
  int d_model = 24;
  Embedding embedding = Embedding::named_features;
  Positional positional = Positional::sinusoidal;
  bool causal = false;
  AttentionNormalization attention = AttentionNormalization::softmax;  // every head of every layer
  bool special_tokens = false;
  std::uint32_t seed = 1;
  Matrix positional_table;  // (kMaxTokens + 2, d_model) when positional == learned
  std::vector<Layer> layers;
  // Learned token embedding of trained models (engine/training). When `vocab` is not empty, a
  // token's input row is token_embedding.row(index of its key in vocab, else of "[UNK]") plus the
  // positional encoding, instead of the named or random vector.
  std::vector<std::string> vocab;
  // The byte-level BPE whose token ids the model reads ("text", "gpt2"; engine/bpe), its ids then
  // the rows of token_embedding (Token::id); empty for models that read words.
  std::string tokenizer;
  Matrix token_embedding;  // (vocab.size(), d_model)
  RowVector output_bias;   // (1, vocab.size()) logits = output token_embedding^T / sqrt(d_model) + output_bias
  // GPT-2's final LayerNorm (ln_f), applied to the last layer's output before the unembedding, and
  // its plain tied unembedding: logits = ln_f(output) token_embedding^T (no scale, no bias). Empty
  // in HeadLab's own models.
  RowVector final_gamma{}, final_beta{};
};

// A checkpoint's shape (GPT-2 and kin), beyond what the lab lets a learner build by hand.
inline constexpr int kMaxCheckpointLayers = 48;
inline constexpr int kMaxCheckpointHeads = 32;
inline constexpr int kMaxCheckpointDModel = 2048;
inline constexpr int kMaxCheckpointPositions = 2048;

// True for models read from a checkpoint in GPT-2's form (they carry its biases and final norm).
inline bool is_checkpoint_model(const Model& model) { return model.final_gamma.size() > 0; }
// True for models whose input rows come from token_embedding (trained models and BPE models).
inline bool has_learned_embedding(const Model& model) { return !model.vocab.empty() || !model.tokenizer.empty(); }

// A fresh model: `layer_count` attention-only layers of `head_count` heads with d_k = d_v =
// max(1, d_model / head_count), seeded random W_Q/W_K/W_V and W_O = identity-like.
Model make_model(int d_model, int layer_count, int head_count, std::uint32_t seed,
                 Embedding embedding = Embedding::named_features);

// Seeded initialisation of one head (depends only on seed, layer, head: reproducible). Entries
// are N(0, stddev^2); stddev 0 means Xavier, 1 / sqrt(d_model).
HeadWeights init_head(int d_model, int d_k, int d_v, std::uint32_t seed, int layer, int head, float stddev = 0.0f);
// The stddev fresh heads of this model get (init_head): larger for the sparse named features.
float init_stddev(const Model& model);

// Changes the head count of a layer, keeping the heads that stay and their blocks of W_O;
// added heads get init_head and identity-like rows of W_O.
void set_head_count(Model& model, int layer, int head_count);
// Adds fresh layers or drops the last ones; existing layers are untouched.
void set_layer_count(Model& model, int layer_count, int head_count_for_new_layers);
// Changes d_k (and d_v when `also_d_v`) of a layer: overlapping columns are kept, new columns
// are freshly initialised, W_O rows are kept per head block.
void set_head_dims(Model& model, int layer, int d_k, int d_v);
// Adds or removes the FFN (d_ff = 4 d_model) and LayerNorm parameters of a layer.
void set_ffn(Model& model, int layer, bool enabled);
// Re-seeds every weight of the model (same shapes).
void randomize(Model& model, std::uint32_t seed);

// Bytes of the model's numbers and vocabulary: what a copy of it (an undo step) holds.
std::size_t model_bytes(const Model& model);

// Identity-like W_O: row r maps to column r (mod d_model), so the output starts as the plain
// concatenation folded onto d_model.
Matrix identity_like(int rows, int cols);

}  // namespace headlab
