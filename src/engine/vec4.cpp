#include "vec4.h"

namespace headlab {

namespace {

// Four equal lanes as a constant expression, so that kExpConstants is initialised at compile time.
constexpr Vec4 all(float x) { return Vec4{x, x, x, x}; }

}  // namespace

// 1.5 * 2^23 rounds to an integer; ln 2 = 0.693359375 - 2.12194440e-4 (the first part has few
// enough bits that n times it is exact); p0..p5 are Cephes's coefficients for expf.
const ExpConstants kExpConstants = {
    all(-87.33654f),       all(1.44269504088896341f), all(12582912.0f),     all(0.693359375f),
    all(-2.12194440e-4f),  all(1.9875691500e-4f),     all(1.3981999507e-3f), all(8.3334519073e-3f),
    all(4.1665795894e-2f), all(1.6666665459e-1f),     all(5.0000001201e-1f), all(1.0f)};

}  // namespace headlab
