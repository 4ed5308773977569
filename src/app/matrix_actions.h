#pragma once
// Whole-row / whole-column edits of one weight matrix, as the weight editor offers them.
#include <string>
#include <vector>

#include "app/actions.h"

namespace headlab::app {

struct MatrixRef {
  int layer = 0;
  int head = 0;  // ignored for W_O
  WeightMatrix which = WeightMatrix::W_Q;
};

// The matrix a reference points to, or nullptr with `error` set.
const Matrix* find_matrix(const AppState& state, const MatrixRef& ref, std::string* error = nullptr);

std::string scale_line(AppState& state, const MatrixRef& ref, Axis axis, int index, double factor);
// Writes `values` into a row or column (lengths must match); used for zero and paste.
std::string set_line(AppState& state, const MatrixRef& ref, Axis axis, int index, const std::vector<float>& values);
// Zeroes head `head`'s rows of W_O (all rows when head is -1): the head no longer reaches the output.
std::string zero_output_block(AppState& state, int layer, int head);

}  // namespace headlab::app
