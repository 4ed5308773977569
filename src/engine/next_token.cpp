#include "next_token.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "gemm.h"

namespace headlab {

bool has_predictions(const Model& model) {
  return model.token_embedding.rows() > 0 && model.token_embedding.cols() == model.d_model &&
         has_learned_embedding(model);
}

Matrix next_token_logits(const Model& model, const Trace& trace) {
  if (!has_predictions(model) || trace.layers.empty()) return {};
  const Matrix& last = trace.layers.back().output;
  if (is_checkpoint_model(model)) {
    Matrix normed;
    layer_norm(last, model.final_gamma, model.final_beta, normed);
    Matrix logits;
    multiply_transposed(normed, model.token_embedding, logits);
    return logits;
  }
  Matrix logits;
  multiply_transposed(last, model.token_embedding, logits);
  logits /= std::sqrt(static_cast<float>(model.d_model));
  if (model.output_bias.size() == logits.cols()) logits.rowwise() += model.output_bias;
  return logits;
}

double row_log_sum_exp(const Matrix& logits, Eigen::Index row) {
  const double top = logits.row(row).maxCoeff();
  double sum = 0.0;
  for (Eigen::Index c = 0; c < logits.cols(); ++c) sum += std::exp(static_cast<double>(logits(row, c)) - top);
  return top + std::log(sum);
}

std::vector<std::vector<NextToken>> top_next_tokens(const Matrix& logits, int count) {
  std::vector<std::vector<NextToken>> out(static_cast<std::size_t>(logits.rows()));
  const int k = std::max(0, std::min<int>(count, static_cast<int>(logits.cols())));
  std::vector<int> order(static_cast<std::size_t>(logits.cols()));
  for (Eigen::Index r = 0; r < logits.rows(); ++r) {
    const double normaliser = row_log_sum_exp(logits, r);
    std::iota(order.begin(), order.end(), 0);
    std::partial_sort(order.begin(), order.begin() + k, order.end(), [&](int a, int b) {
      return logits(r, a) != logits(r, b) ? logits(r, a) > logits(r, b) : a < b;
    });
    for (int i = 0; i < k; ++i)
      out[static_cast<std::size_t>(r)].push_back(
          {order[static_cast<std::size_t>(i)], static_cast<float>(std::exp(static_cast<double>(logits(r, order[static_cast<std::size_t>(i)])) - normaliser))});
  }
  return out;
}

}  // namespace headlab
