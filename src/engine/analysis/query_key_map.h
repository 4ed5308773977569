#pragma once
// Queries and keys in one picture (AttentionViz: Yeh et al. 2023, "AttentionViz: A Global View of
// Transformer Attention", sec. 4.1). A head's queries and keys live in the same d_k-dimensional
// space, and attention is a softmax of their dot products; two changes that leave every softmax as
// it was bring the two clouds together, so that a query lies near the keys it attends to:
//   translate: every key + c, with c = mean(queries) - mean(keys). q.(k + c) = q.k + q.c adds the
//     same number to a whole row of logits, which a row softmax ignores.
//   scale: queries times a, keys divided by a, so their mean norms are equal; every dot product
//     q.k stays as it was.
// Then both sets together are projected on their first two principal components.
#include <vector>

#include "engine/matrix.h"

namespace headlab::analysis {

// What the AttentionViz normalisation does to a head's queries and keys.
struct QueryKeyNormalisation {
  RowVector key_shift;      // (d_k) c, added to every key: the key centroid becomes the query centroid
  float query_scale = 1.0f;  // a: queries are multiplied by it, keys (after the shift) divided by it
};

// The normalisation of `queries` (n_q, d_k) and `keys` (n_k, d_k), one token a row. a is
// sqrt(mean |k + c| / mean |q|), so that a |q| and |k + c| / a have the same mean; 1 when either
// mean norm is zero (nothing to balance).
QueryKeyNormalisation query_key_normalisation(const Matrix& queries, const Matrix& keys);

// Applies it in place: queries *= a; keys = (keys + c) / a.
void normalise_queries_keys(const QueryKeyNormalisation& normalisation, Matrix& queries, Matrix& keys);

// The principal axes of a set of points (n, d), one a row.
struct PrincipalAxes {
  RowVector mean;                // (d) the centroid the axes go through
  Matrix axes;                   // (d, count) unit columns, largest variance first; each column's
                                 // largest-magnitude entry is positive, so the picture is the same every time
  std::vector<float> variances;  // (count) the variance along each axis
  float total_variance = 0.0f;   // the sum over all d directions
};

// The first min(count, d) principal axes, from the eigenvectors of the points' covariance
// (Eigen's SelfAdjointEigenSolver, in double precision).
PrincipalAxes principal_axes(const Matrix& points, int count);

// The picture: the normalised queries and keys projected together on their first two principal
// axes. With d_k == 1 the second coordinate is 0.
struct QueryKeyMap {
  Matrix query_points;  // (n_q, 2) x, y of each query
  Matrix key_points;    // (n_k, 2) x, y of each key
  QueryKeyNormalisation normalisation;
  PrincipalAxes axes;   // of the normalised queries and keys together (2 columns, or 1 when d_k is 1)
  // The bounding box of every point (both sets): the view fits this box into its plot with the
  // same scale on both axes, since distance is what the picture is about.
  float min_x = 0, max_x = 0, min_y = 0, max_y = 0;
};

QueryKeyMap query_key_map(const Matrix& queries, const Matrix& keys);

}  // namespace headlab::analysis
