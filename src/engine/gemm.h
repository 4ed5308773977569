#pragma once
// The forward's matrix products: C = A B and C = A B^T on row-major float matrices.
//
// One register-tiled kernel written with the compiler's 4-float vector type, so the same code is
// SSE natively and SIMD128 in WebAssembly. Why not Eigen's product: Emscripten turns Eigen's SSE
// kernel into SIMD128 one intrinsic at a time, which reached about half of the page's measured
// peak; this kernel keeps its 8 accumulators in registers, broadcasts A from memory and reads the
// right-hand side packed (docs/architecture.md, "The forward's products").
//
// Each entry of C is the sum over p = 0, 1, ..., k-1 of A(i, p) B(p, j) in that order, a multiply
// then an add in float (never fused), whatever the shapes, the build or the machine: the native
// tests and the page compute the same bits, and a product repeated on any path of the lab gives
// the same result.
#include "matrix.h"

namespace headlab {

// C = A B. C is resized; it must not alias A or B.
void multiply(const Matrix& A, const Matrix& B, Matrix& C);

// C = A B^T (for Q K^T: B's rows are the keys). C is resized; it must not alias A or B.
void multiply_transposed(const Matrix& A, const Matrix& B, Matrix& C);

}  // namespace headlab
