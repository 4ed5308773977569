#include "engine/analysis/circuits.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <random>

#include <Eigen/Eigenvalues>

#include "engine/analysis/analysis_json.h"

namespace headlab::analysis {
namespace {

using nlohmann::json;
using MatrixD = Eigen::MatrixXd;  // internal double-precision work; storage order does not matter here

// Which way head a's output reaches head b. Row-vector derivation (x, y residual rows; head a
// writes x W_OV^a into the stream):
//   b's query reads it:  (x W_OV^a) W_QK^b y^T   -> the path matrix is W_OV^a W_QK^b
//   b's key reads it:    y W_QK^b (x W_OV^a)^T = y W_QK^b W_OV^a^T x^T, whose Frobenius norm is
//                        that of its transpose W_OV^a W_QK^b^T
//   b's value reads it:  (x W_OV^a) W_OV^b       -> W_OV^a W_OV^b
// These are the transposes of Elhage et al.'s |W_QK^T W_OV|, |W_QK W_OV|, |W_OV W_OV| written
// for column vectors (their W_QK is ours, their W_OV is our W_OV^T), so the norms agree.
constexpr const char* kKindIds[] = {"q", "k", "v"};  // CompositionScores' members, in order

// A circuit kept as its two factors, left (d_model, r) times right (r, d_model), r = d_k or d_v,
// with their Gram matrices. ||L1 R1 L2 R2||_F^2 = tr(M^T G1 M H2) with M = R1 L2 (r1, r2),
// G1 = L1^T L1 and H2 = R2 R2^T: every product is r x r or r x d_model, never d_model^3.
struct FactoredCircuit {
  MatrixD left;        // (d_model, r)
  MatrixD right;       // (r, d_model)
  MatrixD left_gram;   // (r, r) left^T left
  MatrixD right_gram;  // (r, r) right right^T
  double norm = 0.0;   // ||left right||_F = sqrt(tr(left_gram right_gram))
};

FactoredCircuit factored(MatrixD left, MatrixD right) {
  FactoredCircuit c;
  c.left_gram = left.transpose() * left;
  c.right_gram = right * right.transpose();
  // Both Grams are symmetric, so tr(G H) is the sum of their entrywise product.
  c.norm = std::sqrt(std::max(0.0, c.left_gram.cwiseProduct(c.right_gram).sum()));
  c.left = std::move(left);
  c.right = std::move(right);
  return c;
}

// (L R)^T = R^T L^T: the QK circuit with query and key swapped.
FactoredCircuit transposed(const FactoredCircuit& c) {
  FactoredCircuit t;
  t.left = c.right.transpose();
  t.right = c.left.transpose();
  t.left_gram = c.right_gram;
  t.right_gram = c.left_gram;
  t.norm = c.norm;
  return t;
}

// ||first second||_F / (||first||_F ||second||_F), 0 when either circuit is all zero.
double composition(const FactoredCircuit& first, const FactoredCircuit& second) {
  const double denominator = first.norm * second.norm;
  if (!(denominator > 0.0)) return 0.0;
  const MatrixD middle = first.right * second.left;  // (r1, r2)
  // tr(M^T G1 M H2) = sum((G1 M) .* (M H2)); rounding can push an exact 0 slightly below.
  const double squared = (first.left_gram * middle).cwiseProduct(middle * second.right_gram).sum();
  return std::sqrt(std::max(0.0, squared)) / denominator;
}

const Layer& layer_at(const Model& model, int layer) {
  assert(layer >= 0 && layer < static_cast<int>(model.layers.size()));
  return model.layers[static_cast<std::size_t>(layer)];
}

const HeadWeights& head_at(const Layer& layer, int head) {
  assert(head >= 0 && head < layer.head_count());
  return layer.heads[static_cast<std::size_t>(head)];
}

FactoredCircuit qk_factors(const Layer& layer, int head) {
  const HeadWeights& w = head_at(layer, head);
  return factored(w.W_Q.cast<double>(), w.W_K.transpose().cast<double>());
}

FactoredCircuit ov_factors(const Layer& layer, int head) {
  const HeadWeights& w = head_at(layer, head);
  const Eigen::Index d_v = w.W_V.cols();
  return factored(w.W_V.cast<double>(), layer.W_O.middleRows(head * d_v, d_v).cast<double>());
}

// Standard normal draws from mt19937's fully specified 32-bit stream by Box-Muller:
// std::normal_distribution differs between standard libraries, and the web build uses another.
class PortableGaussian {
 public:
  explicit PortableGaussian(std::uint32_t seed) : rng_(seed) {}
  double operator()() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    const double u1 = (static_cast<double>(rng_()) + 0.5) / 4294967296.0;  // in (0, 1): log is finite
    const double u2 = (static_cast<double>(rng_()) + 0.5) / 4294967296.0;
    const double radius = std::sqrt(-2.0 * std::log(u1)), angle = 6.283185307179586 * u2;
    spare_ = radius * std::sin(angle);
    has_spare_ = true;
    return radius * std::cos(angle);
  }
  MatrixD matrix(int rows, int cols) {
    MatrixD m(rows, cols);
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < cols; ++j) m(i, j) = (*this)();
    return m;
  }

 private:
  std::mt19937 rng_;
  double spare_ = 0.0;
  bool has_spare_ = false;
};

float copying_score_of(const MatrixD& square) {
  if (square.size() == 0) return 0.0f;
  if (!square.allFinite()) return std::numeric_limits<float>::quiet_NaN();
  const Eigen::EigenSolver<MatrixD> solver(square, /*computeEigenvectors=*/false);
  if (solver.info() != Eigen::Success) return std::numeric_limits<float>::quiet_NaN();
  const Eigen::VectorXcd& eigenvalues = solver.eigenvalues();
  // Complex eigenvalues of a real matrix come in conjugate pairs, so the sum is real.
  const double absolute_sum = eigenvalues.cwiseAbs().sum();
  if (!(absolute_sum > 0.0)) return 0.0f;
  return static_cast<float>(eigenvalues.real().sum() / absolute_sum);
}

json number(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

}  // namespace

Matrix qk_circuit(const Model& model, int layer, int head) {
  const HeadWeights& w = head_at(layer_at(model, layer), head);
  const MatrixD circuit = w.W_Q.cast<double>() * w.W_K.cast<double>().transpose();  // (d_model, d_model)
  return circuit.cast<float>();
}

Matrix ov_circuit(const Model& model, int layer, int head) {
  const Layer& l = layer_at(model, layer);
  const HeadWeights& w = head_at(l, head);
  const Eigen::Index d_v = w.W_V.cols();
  const MatrixD circuit = w.W_V.cast<double>() * l.W_O.middleRows(head * d_v, d_v).cast<double>();  // (d_model, d_model)
  return circuit.cast<float>();
}

float copying_score(const Matrix& square) {
  assert(square.rows() == square.cols());
  return copying_score_of(square.cast<double>());
}

float ov_copying_score(const Model& model, int layer, int head) {
  const Layer& l = layer_at(model, layer);
  const HeadWeights& w = head_at(l, head);
  const Eigen::Index d_v = w.W_V.cols();
  const MatrixD W_V = w.W_V.cast<double>(), W_O = l.W_O.middleRows(head * d_v, d_v).cast<double>();
  // Eigenvalues of the smaller of the two products (d_v can exceed d_model).
  return copying_score_of(d_v < model.d_model ? MatrixD(W_O * W_V) : MatrixD(W_V * W_O));
}

CompositionScores composition_scores(const Model& model, int layer_a, int layer_b) {
  assert(layer_a < layer_b);
  const Layer& first = layer_at(model, layer_a);
  const Layer& second = layer_at(model, layer_b);
  std::vector<FactoredCircuit> ov_a, qk_b, kq_b, ov_b;
  for (int a = 0; a < first.head_count(); ++a) ov_a.push_back(ov_factors(first, a));
  for (int b = 0; b < second.head_count(); ++b) {
    qk_b.push_back(qk_factors(second, b));
    kq_b.push_back(transposed(qk_b.back()));
    ov_b.push_back(ov_factors(second, b));
  }
  CompositionScores scores;
  scores.q = scores.k = scores.v = Matrix::Zero(first.head_count(), second.head_count());
  for (int a = 0; a < first.head_count(); ++a)
    for (int b = 0; b < second.head_count(); ++b) {
      if (first.heads[a].pruned || second.heads[b].pruned) continue;
      scores.q(a, b) = static_cast<float>(composition(ov_a[a], qk_b[b]));
      scores.k(a, b) = static_cast<float>(composition(ov_a[a], kq_b[b]));
      scores.v(a, b) = static_cast<float>(composition(ov_a[a], ov_b[b]));
    }
  return scores;
}

CompositionBaseline composition_baseline(int d_model, int d_v_a, int d_k_b, int d_v_b, int samples,
                                         std::uint32_t seed) {
  if (d_model <= 0 || d_v_a <= 0 || d_k_b <= 0 || d_v_b <= 0 || samples <= 0) return {};
  PortableGaussian gaussian(seed);
  double q = 0.0, k = 0.0, v = 0.0;
  for (int s = 0; s < samples; ++s) {
    // Scale does not matter: every score is a ratio of norms.
    const FactoredCircuit ov_a = factored(gaussian.matrix(d_model, d_v_a), gaussian.matrix(d_v_a, d_model));
    const FactoredCircuit qk_b = factored(gaussian.matrix(d_model, d_k_b), gaussian.matrix(d_k_b, d_model));
    const FactoredCircuit ov_b = factored(gaussian.matrix(d_model, d_v_b), gaussian.matrix(d_v_b, d_model));
    q += composition(ov_a, qk_b);
    k += composition(ov_a, transposed(qk_b));
    v += composition(ov_a, ov_b);
  }
  return {static_cast<float>(q / samples), static_cast<float>(k / samples), static_cast<float>(v / samples)};
}

json circuits_json(const Model& model, int layer, int head) {
  return {{"qk", matrix_json(qk_circuit(model, layer, head))},
          {"ov", matrix_json(ov_circuit(model, layer, head))},
          {"copying_score", number(ov_copying_score(model, layer, head))}};
}

json composition_json(const Model& model, int layer_a, int layer_b) {
  const CompositionScores scores = composition_scores(model, layer_a, layer_b);
  const Layer& first = layer_at(model, layer_a);
  const Layer& second = layer_at(model, layer_b);
  const CompositionBaseline baseline = composition_baseline(model.d_model, first.d_v, second.d_k, second.d_v);
  json strongest = nullptr;
  float best = 0.0f;
  const Matrix* by_kind[] = {&scores.q, &scores.k, &scores.v};
  for (int kind = 0; kind < 3; ++kind)
    for (Eigen::Index a = 0; a < by_kind[kind]->rows(); ++a)
      for (Eigen::Index b = 0; b < by_kind[kind]->cols(); ++b)
        if ((*by_kind[kind])(a, b) > best) {
          best = (*by_kind[kind])(a, b);
          strongest = {{"kind", kKindIds[kind]}, {"a", a}, {"b", b}, {"score", number(best)}};
        }
  return {{"q", matrix_json(scores.q)},
          {"k", matrix_json(scores.k)},
          {"v", matrix_json(scores.v)},
          {"baseline", {{"q", number(baseline.q)}, {"k", number(baseline.k)}, {"v", number(baseline.v)}}},
          {"strongest", std::move(strongest)}};
}

}  // namespace headlab::analysis
