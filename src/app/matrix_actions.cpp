#include "app/matrix_actions.h"

#include <cmath>

namespace headlab::app {
namespace {

// Shared by the const and mutable look-ups: State is AppState or const AppState.
template <class State>
auto locate(State& state, const MatrixRef& ref, std::string* error) -> decltype(&state.document.model.layers[0].W_O) {
  auto& model = state.document.model;
  const auto fail = [&](const std::string& message) -> decltype(&model.layers[0].W_O) {
    if (error) *error = message;
    return nullptr;
  };
  if (ref.layer < 0 || ref.layer >= static_cast<int>(model.layers.size()))
    return fail("layer " + std::to_string(ref.layer) + " does not exist");
  auto& layer = model.layers[ref.layer];
  if (ref.which == WeightMatrix::W_O) return &layer.W_O;
  if (ref.head < 0 || ref.head >= layer.head_count()) return fail("head " + std::to_string(ref.head) + " does not exist");
  auto& h = layer.heads[ref.head];
  return ref.which == WeightMatrix::W_Q ? &h.W_Q : ref.which == WeightMatrix::W_K ? &h.W_K : &h.W_V;
}

Matrix* find_mutable(AppState& state, const MatrixRef& ref, std::string& error) { return locate(state, ref, &error); }

}  // namespace

const Matrix* find_matrix(const AppState& state, const MatrixRef& ref, std::string* error) {
  return locate(state, ref, error);
}

std::string scale_line(AppState& state, const MatrixRef& ref, Axis axis, int index, double factor) {
  std::string error;
  Matrix* m = find_mutable(state, ref, error);
  if (!m) return error;
  if (!std::isfinite(factor) || std::fabs(factor) > 1e6) return "the scale factor must be a finite number up to 1e6";
  const Eigen::Index count = axis == Axis::row ? m->rows() : m->cols();
  if (index < 0 || index >= count) return "line " + std::to_string(index) + " is outside the matrix";
  // Checked before writing, so a refused scale leaves the matrix as it was.
  const float f = static_cast<float>(factor);
  const bool finite = axis == Axis::row ? (m->row(index) * f).allFinite() : (m->col(index) * f).allFinite();
  if (!finite) return "scaling would overflow";
  if (axis == Axis::row) m->row(index) *= f;
  else m->col(index) *= f;
  return {};
}

std::string set_line(AppState& state, const MatrixRef& ref, Axis axis, int index, const std::vector<float>& values) {
  std::string error;
  Matrix* m = find_mutable(state, ref, error);
  if (!m) return error;
  const Eigen::Index count = axis == Axis::row ? m->rows() : m->cols();
  const Eigen::Index length = axis == Axis::row ? m->cols() : m->rows();
  if (index < 0 || index >= count) return "line " + std::to_string(index) + " is outside the matrix";
  if (static_cast<Eigen::Index>(values.size()) != length)
    return "expected " + std::to_string(length) + " values, got " + std::to_string(values.size());
  for (float v : values)
    if (!std::isfinite(v)) return "weights must be finite numbers";
  for (Eigen::Index k = 0; k < length; ++k) {
    if (axis == Axis::row) (*m)(index, k) = values[k];
    else (*m)(k, index) = values[k];
  }
  return {};
}

std::string zero_output_block(AppState& state, int layer, int head) {
  auto& layers = state.document.model.layers;
  if (layer < 0 || layer >= static_cast<int>(layers.size())) return "layer " + std::to_string(layer) + " does not exist";
  Layer& l = layers[layer];
  if (head == -1) {
    l.W_O.setZero();
    return {};
  }
  if (head < 0 || head >= l.head_count()) return "head " + std::to_string(head) + " does not exist";
  l.W_O.middleRows(head * l.d_v, l.d_v).setZero();
  return {};
}

}  // namespace headlab::app
