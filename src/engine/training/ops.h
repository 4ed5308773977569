#pragma once
// Forward and backward of the operations a HeadLab model is made of, each on its own so the tests
// can check every one against finite differences (tests/training/gradient_check_test.cpp).
//
// Convention: a backward function receives dL/d(output) and returns dL/d(input) (overwritten) and
// adds dL/d(parameter) into the parameter gradients (accumulated, so a batch sums over sentences).
// Shapes: T rows = tokens (of a whole batch), d = d_model, n = tokens of one sentence.
#include <vector>

#include "engine/matrix.h"
#include "engine/model.h"

namespace headlab::training {

using MatrixRef = Eigen::Ref<Matrix>;
using ConstMatrixRef = Eigen::Ref<const Matrix>;
using MatrixMap = Eigen::Map<Matrix>;

// LayerNorm (Ba, Kiros & Hinton 2016) of each row, epsilon 1e-5 as engine/forward.cpp:
//   y = (x - mean) * rstd * gamma + beta,  rstd = 1 / sqrt(var + 1e-5).
// Keeps xhat = (x - mean) * rstd (T, d) and rstd (T) for the backward pass.
void layer_norm_forward(const Matrix& x, const RowVector& gamma, const RowVector& beta, Matrix& y,
                        Matrix& xhat, Eigen::VectorXf& rstd);
// dx = rstd * (g - mean(g) - xhat * mean(g . xhat)) with g = dy . gamma (row-wise means).
void layer_norm_backward(const Matrix& dy, const Matrix& xhat, const Eigen::VectorXf& rstd,
                         const RowVector& gamma, Matrix& dx, RowVector& dgamma, RowVector& dbeta);

// Scaled dot-product attention of one sentence (Vaswani et al. 2017, eq. 1):
//   A (n, n) = softmax(Q K^T / sqrt(d_k)) row-wise, row i = query i, rows sum to 1 (or the other
//   `normalization`s of engine/model.h); with `causal`, A(i, j) = 0 for j > i.   Z (n, d_v) = A V.
void attention_forward(const ConstMatrixRef& Q, const ConstMatrixRef& K, const ConstMatrixRef& V, bool causal,
                       AttentionNormalization normalization, MatrixMap& A, MatrixRef Z);
// dV = A^T dZ; dA = dZ V^T; dS = A . (dA - rowsum(A . dA)) / sqrt(d_k) for softmax and softmax + 1,
// dS = A . (1 - A) . dA / sqrt(d_k) for sigmoid; dQ = dS K; dK = dS^T Q.
// `scratch` holds at least n * n floats (dA, then dS in place).
void attention_backward(const ConstMatrixRef& Q, const ConstMatrixRef& K, const ConstMatrixRef& V,
                        AttentionNormalization normalization, const MatrixMap& A, const ConstMatrixRef& dZ, float* scratch,
                        MatrixRef dQ, MatrixRef dK, MatrixRef dV);

// Position-wise feed-forward (Vaswani et al. 2017, eq. 2): pre = x W_1 + b_1 (T, d_ff),
// act = ReLU(pre), y = act W_2 + b_2 (T, d).
void ffn_forward(const Matrix& x, const Matrix& W_1, const RowVector& b_1, const Matrix& W_2, const RowVector& b_2,
                 Matrix& pre, Matrix& act, Matrix& y);
// `dpre` is a (T, d_ff) workspace.
void ffn_backward(const Matrix& dy, const Matrix& x, const Matrix& pre, const Matrix& act, const Matrix& W_1,
                  const Matrix& W_2, Matrix& dpre, Matrix& dx, Matrix& dW_1, RowVector& db_1, Matrix& dW_2,
                  RowVector& db_2);

// Mean cross-entropy of row-wise softmax(logits) (M, V) against target ids (M); writes
// dL/dlogits = (softmax - onehot) / M into `dlogits` (may alias `logits`). Returns the loss.
float softmax_cross_entropy(const Matrix& logits, const std::vector<int>& targets, Matrix& dlogits);

}  // namespace headlab::training
