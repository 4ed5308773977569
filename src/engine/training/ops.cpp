#include "ops.h"

#include <algorithm>
#include <cmath>

#include "engine/attention_normalization.h"

namespace headlab::training {

void layer_norm_forward(const Matrix& x, const RowVector& gamma, const RowVector& beta, Matrix& y,
                        Matrix& xhat, Eigen::VectorXf& rstd) {
  y.resize(x.rows(), x.cols());
  xhat.resize(x.rows(), x.cols());
  rstd.resize(x.rows());
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    // Same arithmetic as engine/forward.cpp layer_norm, so trained and displayed models agree.
    const float mean = x.row(i).mean();
    const float var = (x.row(i).array() - mean).square().mean();
    const float inv = 1.0f / std::sqrt(var + 1e-5f);
    rstd(i) = inv;
    xhat.row(i) = ((x.row(i).array() - mean) * inv).matrix();
    y.row(i) = ((x.row(i).array() - mean) * inv * gamma.array() + beta.array()).matrix();
  }
}

void layer_norm_backward(const Matrix& dy, const Matrix& xhat, const Eigen::VectorXf& rstd,
                         const RowVector& gamma, Matrix& dx, RowVector& dgamma, RowVector& dbeta) {
  dx.resize(dy.rows(), dy.cols());
  const Eigen::Index d = dy.cols();
  const float inv_d = 1.0f / static_cast<float>(d);
  for (Eigen::Index i = 0; i < dy.rows(); ++i) {
    float sum_g = 0.0f, sum_gx = 0.0f;  // g = dy . gamma
    for (Eigen::Index j = 0; j < d; ++j) {
      const float g = dy(i, j) * gamma(j);
      sum_g += g;
      sum_gx += g * xhat(i, j);
      dgamma(j) += dy(i, j) * xhat(i, j);
      dbeta(j) += dy(i, j);
    }
    const float mean_g = sum_g * inv_d, mean_gx = sum_gx * inv_d;
    for (Eigen::Index j = 0; j < d; ++j) dx(i, j) = rstd(i) * (dy(i, j) * gamma(j) - mean_g - xhat(i, j) * mean_gx);
  }
}

void attention_forward(const ConstMatrixRef& Q, const ConstMatrixRef& K, const ConstMatrixRef& V, bool causal,
                       AttentionNormalization normalization, MatrixMap& A, MatrixRef Z) {
  const Eigen::Index n = Q.rows();
  const float scale = 1.0f / std::sqrt(static_cast<float>(Q.cols()));
  A.noalias() = Q * K.transpose();
  for (Eigen::Index i = 0; i < n; ++i) {
    const Eigen::Index visible = causal ? i + 1 : n;  // keys j < visible
    for (Eigen::Index j = 0; j < visible; ++j) A(i, j) *= scale;
    normalize_attention_row(&A(i, 0), visible, n, normalization);
  }
  Z.noalias() = A * V;
}

void attention_backward(const ConstMatrixRef& Q, const ConstMatrixRef& K, const ConstMatrixRef& V,
                        AttentionNormalization normalization, const MatrixMap& A, const ConstMatrixRef& dZ, float* scratch,
                        MatrixRef dQ, MatrixRef dK, MatrixRef dV) {
  const Eigen::Index n = Q.rows();
  const float scale = 1.0f / std::sqrt(static_cast<float>(Q.cols()));
  MatrixMap dS(scratch, n, n);
  dV.noalias() = A.transpose() * dZ;
  dS.noalias() = dZ * V.transpose();  // dA (n, n)
  if (normalization == AttentionNormalization::sigmoid) {
    // Each weight depends on its own score only (the bias is a constant): dA/ds = A (1 - A).
    dS.array() *= A.array() * (1.0f - A.array()) * scale;  // masked A = 0 -> 0
  } else {
    // Softmax + 1 is a softmax over the scores and a zero logit whose value is zero: the extra
    // entry's dA is 0, so the same rowsum(A . dA) over the real keys.
    for (Eigen::Index i = 0; i < n; ++i) {
      const float dot = A.row(i).dot(dS.row(i));
      dS.row(i) = (A.row(i).array() * (dS.row(i).array() - dot) * scale).matrix();  // masked A = 0 -> 0
    }
  }
  dQ.noalias() = dS * K;
  dK.noalias() = dS.transpose() * Q;
}

void ffn_forward(const Matrix& x, const Matrix& W_1, const RowVector& b_1, const Matrix& W_2, const RowVector& b_2,
                 Matrix& pre, Matrix& act, Matrix& y) {
  pre.noalias() = x * W_1;
  pre.rowwise() += b_1;
  act = pre.cwiseMax(0.0f);
  y.noalias() = act * W_2;
  y.rowwise() += b_2;
}

void ffn_backward(const Matrix& dy, const Matrix& x, const Matrix& pre, const Matrix& act, const Matrix& W_1,
                  const Matrix& W_2, Matrix& dpre, Matrix& dx, Matrix& dW_1, RowVector& db_1, Matrix& dW_2,
                  RowVector& db_2) {
  dW_2.noalias() += act.transpose() * dy;
  db_2 += dy.colwise().sum();
  dpre.noalias() = dy * W_2.transpose();
  dpre.array() *= (pre.array() > 0.0f).cast<float>();  // ReLU'
  dW_1.noalias() += x.transpose() * dpre;
  db_1 += dpre.colwise().sum();
  dx.noalias() = dpre * W_1.transpose();
}

float softmax_cross_entropy(const Matrix& logits, const std::vector<int>& targets, Matrix& dlogits) {
  const Eigen::Index rows = logits.rows();
  if (&dlogits != &logits) dlogits.resize(logits.rows(), logits.cols());
  double loss = 0.0;
  const float inv_rows = rows > 0 ? 1.0f / static_cast<float>(rows) : 0.0f;
  for (Eigen::Index m = 0; m < rows; ++m) {
    const float max_logit = logits.row(m).maxCoeff();
    const int target = targets[m];
    const float target_logit = logits(m, target);
    dlogits.row(m) = (logits.row(m).array() - max_logit).exp().matrix();
    const float sum = dlogits.row(m).sum();
    loss += std::log(sum) - (target_logit - max_logit);
    dlogits.row(m) *= inv_rows / sum;
    dlogits(m, target) -= inv_rows;
  }
  return static_cast<float>(loss * inv_rows);
}

}  // namespace headlab::training
