#pragma once
// The one matrix type of HeadLab.
//
// Every matrix is row-major: m(i, j) is row i, column j, rows are contiguous in memory. Tokens are
// rows: X is (n, d_model), Q/K are (n, d_k), V/Z are (n, d_v). For attention, A(i, j) is how much
// query token i attends to key token j, and each row of A sums to 1 (tests pin this down). Using
// row-major everywhere keeps heatmaps, JSON "arrays of rows" and Eigen storage in the same order.
#include <Eigen/Core>

namespace headlab {

using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using RowVector = Eigen::Matrix<float, 1, Eigen::Dynamic>;

}  // namespace headlab
