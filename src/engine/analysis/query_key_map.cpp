#include "engine/analysis/query_key_map.h"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>

namespace headlab::analysis {
namespace {

double mean_norm(const Matrix& rows) {
  if (rows.rows() == 0) return 0.0;
  double sum = 0.0;
  for (Eigen::Index i = 0; i < rows.rows(); ++i) sum += rows.row(i).cast<double>().norm();
  return sum / static_cast<double>(rows.rows());
}

RowVector centroid(const Matrix& rows) {
  if (rows.rows() == 0) return RowVector::Zero(rows.cols());
  return (rows.cast<double>().colwise().sum() / static_cast<double>(rows.rows())).cast<float>();
}

}  // namespace

QueryKeyNormalisation query_key_normalisation(const Matrix& queries, const Matrix& keys) {
  QueryKeyNormalisation result;
  result.key_shift = RowVector::Zero(queries.cols());
  if (queries.rows() == 0 || keys.rows() == 0) return result;
  result.key_shift = centroid(queries) - centroid(keys);
  const Matrix shifted = keys.rowwise() + result.key_shift;
  const double query_norm = mean_norm(queries), key_norm = mean_norm(shifted);
  if (query_norm > 0.0 && key_norm > 0.0) result.query_scale = static_cast<float>(std::sqrt(key_norm / query_norm));
  return result;
}

void normalise_queries_keys(const QueryKeyNormalisation& normalisation, Matrix& queries, Matrix& keys) {
  queries *= normalisation.query_scale;
  if (keys.rows() == 0) return;
  keys.rowwise() += normalisation.key_shift;
  keys /= normalisation.query_scale;
}

PrincipalAxes principal_axes(const Matrix& points, int count) {
  PrincipalAxes result;
  const Eigen::Index d = points.cols();
  const Eigen::Index kept = std::clamp<Eigen::Index>(count, 0, d);
  result.mean = centroid(points);
  result.axes = Matrix::Zero(d, kept);
  result.variances.assign(static_cast<std::size_t>(kept), 0.0f);
  if (points.rows() < 2 || kept == 0) {
    for (Eigen::Index c = 0; c < kept; ++c) result.axes(c, c) = 1.0f;  // no spread: the first coordinates
    return result;
  }
  // (d, d) covariance, in double: the points of a GPT-2 head reach norms in the hundreds.
  const Eigen::MatrixXd centred = points.cast<double>().rowwise() - result.mean.cast<double>();
  const Eigen::MatrixXd covariance = centred.transpose() * centred / static_cast<double>(points.rows() - 1);
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(covariance);
  // Eigenvalues come in increasing order: the last columns hold the largest.
  for (Eigen::Index c = 0; c < kept; ++c) {
    const Eigen::Index source = d - 1 - c;
    Eigen::VectorXd axis = solver.eigenvectors().col(source);
    Eigen::Index largest = 0;
    axis.cwiseAbs().maxCoeff(&largest);
    if (axis(largest) < 0.0) axis = -axis;
    result.axes.col(c) = axis.cast<float>();
    result.variances[static_cast<std::size_t>(c)] = static_cast<float>(std::max(0.0, solver.eigenvalues()(source)));
  }
  result.total_variance = static_cast<float>(std::max(0.0, covariance.trace()));
  return result;
}

QueryKeyMap query_key_map(const Matrix& queries, const Matrix& keys) {
  QueryKeyMap map;
  map.normalisation = query_key_normalisation(queries, keys);
  Matrix q = queries, k = keys;
  normalise_queries_keys(map.normalisation, q, k);
  Matrix both(q.rows() + k.rows(), q.cols());
  both << q, k;
  map.axes = principal_axes(both, 2);
  const auto project = [&](const Matrix& rows) {
    Matrix out = Matrix::Zero(rows.rows(), 2);
    if (rows.rows() > 0) out.leftCols(map.axes.axes.cols()) = (rows.rowwise() - map.axes.mean) * map.axes.axes;
    return out;
  };
  map.query_points = project(q);
  map.key_points = project(k);
  if (both.rows() > 0) {
    Matrix all(both.rows(), 2);
    all << map.query_points, map.key_points;
    map.min_x = all.col(0).minCoeff();
    map.max_x = all.col(0).maxCoeff();
    map.min_y = all.col(1).minCoeff();
    map.max_y = all.col(1).maxCoeff();
  }
  return map;
}

}  // namespace headlab::analysis
