#include "gemm.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "vec4.h"

namespace headlab {

namespace {

// A tile of C is kRows x kPanel: 8 accumulators, two vectors of B and one broadcast of A. In
// WebAssembly each A(r, p) is one v128.load32_splat (LLVM makes it of {x, x, x, x} from memory),
// which V8 turns into one broadcast load on x86: no shuffle competes with the multiplies and adds
// for the vector units. Taller or wider tiles spill: V8 gives a function 15 of x86-64's 16 vector
// registers, and every accumulator past about 10 went to the stack (docs/architecture.md, "The
// forward's products", has the tiles measured).
constexpr int kRows = 4;
constexpr int kPanel = 8;

// B's columns j0 .. j0+7 as one panel: panel(p, jj) = B(p, j0 + jj), k rows of 8 floats, zero past
// column n. The kernel reads it from start to end, two neighbouring vectors a step.
void pack(const float* B, Eigen::Index ldb, Eigen::Index k, Eigen::Index j0, Eigen::Index cols, float* out) {
  if (cols == kPanel) {  // two vector copies a row: a memcpy call per 32 bytes was 6% of the forward
    for (Eigen::Index p = 0; p < k; ++p, out += kPanel) {
      const float* row = B + p * ldb + j0;
      store4(out, load4(row));
      store4(out + 4, load4(row + 4));
    }
    return;
  }
  for (Eigen::Index p = 0; p < k; ++p, out += kPanel) {
    std::memcpy(out, B + p * ldb + j0, sizeof(float) * static_cast<std::size_t>(cols));
    std::fill(out + cols, out + kPanel, 0.0f);
  }
}

// The same panel of B^T from B (n x k): panel(p, jj) = B(j0 + jj, p).
void pack_transposed(const float* B, Eigen::Index ldb, Eigen::Index k, Eigen::Index j0, Eigen::Index cols, float* out) {
  for (Eigen::Index jj = 0; jj < cols; ++jj) {
    const float* row = B + (j0 + jj) * ldb;
    for (Eigen::Index p = 0; p < k; ++p) out[p * kPanel + jj] = row[p];
  }
  for (Eigen::Index jj = cols; jj < kPanel; ++jj)
    for (Eigen::Index p = 0; p < k; ++p) out[p * kPanel + jj] = 0.0f;
}

// C's R rows and `cols` (<= 8) columns at c from R rows of A and one packed panel.
template <int R>
void tile(const float* a, Eigen::Index lda, const float* panel, Eigen::Index k, float* c, Eigen::Index ldc, Eigen::Index cols) {
  Vec4 acc[R][2] = {};
  for (Eigen::Index p = 0; p < k; ++p) {
    const Vec4 b0 = load4(panel + p * kPanel), b1 = load4(panel + p * kPanel + 4);
    for (int r = 0; r < R; ++r) {
      const Vec4 s = broadcast4(a + r * lda + p);
      const Vec4 t0 = s * b0, t1 = s * b1;
      acc[r][0] = acc[r][0] + t0;
      acc[r][1] = acc[r][1] + t1;
    }
  }
  for (int r = 0; r < R; ++r) {
    float* out = c + r * ldc;
    if (cols == kPanel) {
      store4(out, acc[r][0]);
      store4(out + 4, acc[r][1]);
    } else {
      float row[kPanel];
      store4(row, acc[r][0]);
      store4(row + 4, acc[r][1]);
      std::memcpy(out, row, sizeof(float) * static_cast<std::size_t>(cols));
    }
  }
}

// C (m x n) = A (m x k) B, B read one packed panel at a time: the panel (8 k floats) stays in the
// L1 cache while every row of A passes it, and the scratch stays small for any n (GPT-2's
// unembedding has 50,257 columns).
template <typename Pack>
void run(const float* a, Eigen::Index m, Eigen::Index k, Eigen::Index n, Pack pack_panel, float* c) {
  thread_local std::vector<float> panel;
  panel.resize(static_cast<std::size_t>(k * kPanel));
  for (Eigen::Index j0 = 0; j0 < n; j0 += kPanel) {
    const Eigen::Index cols = std::min<Eigen::Index>(kPanel, n - j0);
    pack_panel(j0, cols, panel.data());
    Eigen::Index i = 0;
    for (; i + kRows <= m; i += kRows) tile<kRows>(a + i * k, k, panel.data(), k, c + i * n + j0, n, cols);
    const float* ar = a + i * k;
    float* cr = c + i * n + j0;
    switch (m - i) {
      case 3: tile<3>(ar, k, panel.data(), k, cr, n, cols); break;
      case 2: tile<2>(ar, k, panel.data(), k, cr, n, cols); break;
      case 1: tile<1>(ar, k, panel.data(), k, cr, n, cols); break;
      default: break;
    }
  }
}

}  // namespace

void multiply(const Matrix& A, const Matrix& B, Matrix& C) {
  eigen_assert(A.cols() == B.rows() && &C != &A && &C != &B);
  const Eigen::Index m = A.rows(), k = A.cols(), n = B.cols();
  C.resize(m, n);
  if (m == 0 || n == 0) return;
  if (k == 0) {
    C.setZero();
    return;
  }
  run(A.data(), m, k, n, [&](Eigen::Index j0, Eigen::Index cols, float* out) { pack(B.data(), n, k, j0, cols, out); }, C.data());
}

void multiply_transposed(const Matrix& A, const Matrix& B, Matrix& C) {
  eigen_assert(A.cols() == B.cols() && &C != &A && &C != &B);
  const Eigen::Index m = A.rows(), k = A.cols(), n = B.rows();
  C.resize(m, n);
  if (m == 0 || n == 0) return;
  if (k == 0) {
    C.setZero();
    return;
  }
  run(A.data(), m, k, n, [&](Eigen::Index j0, Eigen::Index cols, float* out) { pack_transposed(B.data(), k, k, j0, cols, out); },
      C.data());
}

}  // namespace headlab
