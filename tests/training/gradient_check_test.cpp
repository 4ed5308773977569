// Finite-difference gradient checks for every operation of training and for whole models, as a
// table of cases in the manner of ggml's test-backend-ops: for each case and each input or
// parameter tensor, the analytic gradient g is compared with central differences n,
//   normalised error = ||g - n|| / max(||n||, 1e-12),
// on a scalar loss (a fixed random projection of the op's output, or the model's cross-entropy).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "engine/training/backprop.h"
#include "engine/training/grammar.h"
#include "engine/training/init.h"
#include "engine/training/ops.h"
#include "engine/training/parameters.h"
#include "engine/training/rng.h"

namespace headlab::training {
namespace {

constexpr float kEpsilon = 2e-3f;

Matrix random_matrix(Eigen::Index rows, Eigen::Index cols, Rng& rng, float scale = 1.0f, float mean = 0.0f) {
  Matrix m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = mean + scale * rng.normal();
  return m;
}
RowVector random_row(Eigen::Index n, Rng& rng, float scale, float mean) {
  return random_matrix(1, n, rng, scale, mean).row(0);
}

double projection(const Matrix& y, const Matrix& r) {
  double s = 0.0;
  for (Eigen::Index i = 0; i < y.size(); ++i) s += static_cast<double>(y.data()[i]) * r.data()[i];
  return s;
}

// Signature of the ReLU sign pattern: a difference that crosses a kink is not a derivative.
using KinkSignature = std::function<std::uint64_t()>;

std::uint64_t relu_signature(const Matrix& pre) {
  std::uint64_t h = 1469598103934665603ull;
  for (Eigen::Index i = 0; i < pre.size(); ++i) h = (h ^ (pre.data()[i] > 0.0f ? 1u : 2u)) * 1099511628211ull;
  return h;
}

struct TensorResult {
  std::string tensor;
  double error;
  long checked = 0;  // entries compared (the others crossed a ReLU kink on both sides)
  long total = 0;
};

// Normalised error of `analytic` against central differences of `loss` over data[0, size). When
// one side of the difference crosses a ReLU kink, the other side's one-sided difference is used;
// entries whose both sides cross are skipped (and not counted as checked).
TensorResult gradient_error(const std::string& name, float* data, Eigen::Index size, const float* analytic,
                            const std::function<double()>& loss, const KinkSignature& kinks = nullptr) {
  double diff = 0.0, norm = 0.0;
  const double center = loss();
  const std::uint64_t base = kinks ? kinks() : 0;
  TensorResult result{name, 0.0, 0, static_cast<long>(size)};
  for (Eigen::Index i = 0; i < size; ++i) {
    const float saved = data[i];
    data[i] = saved + kEpsilon;
    const double plus = loss();
    const bool crossed_plus = kinks && kinks() != base;
    data[i] = saved - kEpsilon;
    const double minus = loss();
    const bool crossed_minus = kinks && kinks() != base;
    data[i] = saved;
    if (crossed_plus && crossed_minus) continue;
    const double numeric = crossed_plus    ? (center - minus) / kEpsilon
                           : crossed_minus ? (plus - center) / kEpsilon
                                           : (plus - minus) / (2.0 * kEpsilon);
    ++result.checked;
    diff += (analytic[i] - numeric) * (analytic[i] - numeric);
    norm += numeric * numeric;
  }
  if (kinks) loss();  // leave the caches as at the unperturbed point
  result.error = std::sqrt(diff) / std::max(std::sqrt(norm), 1e-12);
  return result;
}

// ---- Op cases ----------------------------------------------------------------------------------

std::vector<TensorResult> layer_norm_case() {
  Rng rng(11);
  Matrix x = random_matrix(5, 8, rng, 1.5f, 0.3f);
  RowVector gamma = random_row(8, rng, 0.3f, 1.0f), beta = random_row(8, rng, 0.3f, 0.0f);
  const Matrix r = random_matrix(5, 8, rng);
  Matrix y, xhat, dx;
  Eigen::VectorXf rstd;
  auto loss = [&] {
    layer_norm_forward(x, gamma, beta, y, xhat, rstd);
    return projection(y, r);
  };
  loss();
  RowVector dgamma = RowVector::Zero(8), dbeta = RowVector::Zero(8);
  layer_norm_backward(r, xhat, rstd, gamma, dx, dgamma, dbeta);
  return {gradient_error("x", x.data(), x.size(), dx.data(), loss),
          gradient_error("gamma", gamma.data(), gamma.size(), dgamma.data(), loss),
          gradient_error("beta", beta.data(), beta.size(), dbeta.data(), loss)};
}

std::vector<TensorResult> attention_case(bool causal, AttentionNormalization normalization = AttentionNormalization::softmax) {
  Rng rng((causal ? 21 : 22) + 10 * static_cast<int>(normalization));
  const int n = 6, d_k = 4, d_v = 3;
  Matrix Q = random_matrix(n, d_k, rng), K = random_matrix(n, d_k, rng), V = random_matrix(n, d_v, rng);
  const Matrix r = random_matrix(n, d_v, rng);
  std::vector<float> a(n * n), scratch(n * n);
  MatrixMap A(a.data(), n, n);
  Matrix Z(n, d_v), dQ(n, d_k), dK(n, d_k), dV(n, d_v);
  auto loss = [&] {
    attention_forward(Q, K, V, causal, normalization, A, Z);
    return projection(Z, r);
  };
  loss();
  attention_backward(Q, K, V, normalization, A, r, scratch.data(), dQ, dK, dV);
  return {gradient_error("Q", Q.data(), Q.size(), dQ.data(), loss),
          gradient_error("K", K.data(), K.size(), dK.data(), loss),
          gradient_error("V", V.data(), V.size(), dV.data(), loss)};
}

std::vector<TensorResult> ffn_case() {
  Rng rng(31);
  Matrix x = random_matrix(5, 8, rng), W_1 = random_matrix(8, 16, rng, 0.35f), W_2 = random_matrix(16, 8, rng, 0.25f);
  RowVector b_1 = random_row(16, rng, 0.1f, 0.0f), b_2 = random_row(8, rng, 0.1f, 0.0f);
  const Matrix r = random_matrix(5, 8, rng);
  Matrix pre, act, y, dpre, dx;
  auto loss = [&] {
    ffn_forward(x, W_1, b_1, W_2, b_2, pre, act, y);
    return projection(y, r);
  };
  loss();
  Matrix dW_1 = Matrix::Zero(8, 16), dW_2 = Matrix::Zero(16, 8);
  RowVector db_1 = RowVector::Zero(16), db_2 = RowVector::Zero(8);
  ffn_backward(r, x, pre, act, W_1, W_2, dpre, dx, dW_1, db_1, dW_2, db_2);
  const KinkSignature kinks = [&] { return relu_signature(pre); };
  return {gradient_error("x", x.data(), x.size(), dx.data(), loss, kinks),
          gradient_error("W_1", W_1.data(), W_1.size(), dW_1.data(), loss, kinks),
          gradient_error("b_1", b_1.data(), b_1.size(), db_1.data(), loss, kinks),
          gradient_error("W_2", W_2.data(), W_2.size(), dW_2.data(), loss, kinks),
          gradient_error("b_2", b_2.data(), b_2.size(), db_2.data(), loss, kinks)};
}

std::vector<TensorResult> cross_entropy_case() {
  Rng rng(41);
  Matrix logits = random_matrix(4, 7, rng, 2.0f);
  const std::vector<int> targets = {3, 0, 6, 3};
  Matrix dlogits, scratch;
  softmax_cross_entropy(logits, targets, dlogits);
  auto loss = [&] { return static_cast<double>(softmax_cross_entropy(logits, targets, scratch)); };
  return {gradient_error("logits", logits.data(), logits.size(), dlogits.data(), loss)};
}

// ---- Whole-model cases -------------------------------------------------------------------------

const Grammar& grammar() {
  static const Grammar g = load_grammar().value();
  return g;
}

std::vector<TensorResult> model_case(Architecture a, Objective objective, bool prune_one_head) {
  a.d_model = 8;
  a.head_dim = 4;
  const Grammar& g = grammar();
  Model model = make_trainable_model(a, g.vocabulary, 5);
  if (prune_one_head) model.layers[0].heads[1].pruned = true;
  // Perturb LayerNorm gains and biases away from 1 and 0 so their gradients are exercised.
  Rng rng(51);
  for (const ParameterView& p : parameters(model))
    if (!p.is_matrix)
      for (Eigen::Index i = 0; i < p.size; ++i) p.data[i] += 0.2f * rng.normal();
  Rng data(52);
  std::vector<Sentence> sentences(3);
  for (Sentence& s : sentences) generate_sentence(g, data, a.special_tokens, s, nullptr);
  Batch batch;
  MaskingConfig masking;
  masking.mask_rate = 0.4f;
  make_batch(sentences, objective, masking, g.vocabulary_size(), data, batch);

  Workspace ws;
  Model grad = zero_like(model);
  loss_and_gradient(model, batch, ws, grad);
  auto loss = [&] { return static_cast<double>(forward_batch(model, batch, ws)); };
  const KinkSignature kinks = [&] {
    std::uint64_t h = 0;
    for (const LayerCache& c : ws.layers) h = h * 31 + relu_signature(c.ffn_pre);
    return h;
  };
  std::vector<ParameterView> params = parameters(model), grads = parameters(grad);
  std::vector<TensorResult> results;
  for (std::size_t p = 0; p < params.size(); ++p) {
    std::string name = params[p].name;
    if (params[p].layer >= 0) name = "L" + std::to_string(params[p].layer) + "." + name;
    if (params[p].head >= 0) name += "[" + std::to_string(params[p].head) + "]";
    results.push_back(gradient_error(name, params[p].data, params[p].size, grads[p].data, loss, kinks));
  }
  return results;
}

Architecture architecture(int layers, bool residual, Norm norm, int d_ff, Positional positional = Positional::learned,
                          bool causal = false, AttentionNormalization attention = AttentionNormalization::softmax) {
  Architecture a;
  a.layer_count = layers;
  a.head_count = 2;
  a.residual = residual;
  a.norm = norm;
  a.d_ff = d_ff;
  a.positional = positional;
  a.causal = causal;
  a.attention = attention;
  return a;
}

struct Case {
  const char* name;
  std::function<std::vector<TensorResult>()> run;
  double tolerance;
};

TEST(GradientCheck, EveryOperationAndModelMatchesFiniteDifferences) {
  const std::vector<Case> cases = {
      {"layer_norm", layer_norm_case, 1e-2},
      {"attention", [] { return attention_case(false); }, 1e-2},
      {"attention causal", [] { return attention_case(true); }, 1e-2},
      {"attention softmax + 1", [] { return attention_case(false, AttentionNormalization::softmax_plus_one); }, 1e-2},
      {"attention softmax + 1 causal", [] { return attention_case(true, AttentionNormalization::softmax_plus_one); }, 1e-2},
      {"attention sigmoid", [] { return attention_case(false, AttentionNormalization::sigmoid); }, 1e-2},
      {"attention sigmoid causal", [] { return attention_case(true, AttentionNormalization::sigmoid); }, 1e-2},
      {"ffn (ReLU)", ffn_case, 1e-2},
      {"softmax cross-entropy", cross_entropy_case, 1e-2},
      {"model: attention only", [] { return model_case(architecture(1, false, Norm::none, 0), Objective::masked_token, false); }, 2e-2},
      {"model: residual", [] { return model_case(architecture(2, true, Norm::none, 0), Objective::masked_token, false); }, 2e-2},
      {"model: post-norm + FFN", [] { return model_case(architecture(2, true, Norm::post, 16), Objective::masked_token, false); }, 2e-2},
      {"model: pre-norm + FFN", [] { return model_case(architecture(2, true, Norm::pre, 16), Objective::masked_token, false); }, 2e-2},
      {"model: post-norm, no residual", [] { return model_case(architecture(1, false, Norm::post, 16), Objective::masked_token, false); }, 2e-2},
      {"model: sinusoidal positions", [] { return model_case(architecture(1, true, Norm::post, 16, Positional::sinusoidal), Objective::masked_token, false); }, 2e-2},
      {"model: causal next-token", [] { return model_case(architecture(2, true, Norm::pre, 16, Positional::learned, true), Objective::next_token, false); }, 2e-2},
      {"model: causal, softmax + 1", [] { return model_case(architecture(2, true, Norm::pre, 16, Positional::learned, true, AttentionNormalization::softmax_plus_one), Objective::next_token, false); }, 2e-2},
      {"model: causal, sigmoid", [] { return model_case(architecture(2, true, Norm::pre, 16, Positional::learned, true, AttentionNormalization::sigmoid), Objective::next_token, false); }, 2e-2},
      {"model: pruned head", [] { return model_case(architecture(1, true, Norm::post, 16), Objective::masked_token, true); }, 2e-2},
  };
  std::printf("%-32s %-20s %12s %9s  %s\n", "case", "tensor", "norm. error", "checked", "status");
  for (const Case& c : cases) {
    for (const TensorResult& r : c.run()) {
      const bool ok = r.error <= c.tolerance && r.checked * 2 >= r.total;
      std::printf("%-32s %-20s %12.2e %4ld/%-4ld  %s\n", c.name, r.tensor.c_str(), r.error, r.checked, r.total,
                  ok ? "OK" : "FAIL");
      EXPECT_LE(r.error, c.tolerance) << c.name << " " << r.tensor;
      EXPECT_GE(r.checked * 2, r.total) << c.name << " " << r.tensor << ": most differences crossed a ReLU kink";
    }
  }
}

}  // namespace
}  // namespace headlab::training
