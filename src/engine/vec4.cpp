#include "vec4.h"

namespace headlab {

// 1.5 * 2^23 rounds to an integer; ln 2 = 0.693359375 - 2.12194440e-4 (the first part has few
// enough bits that n times it is exact); p0..p5 are Cephes's coefficients for expf.
const ExpConstants kExpConstants = {
    splat4(-87.33654f),      splat4(1.44269504088896341f), splat4(12582912.0f),   splat4(0.693359375f),
    splat4(-2.12194440e-4f), splat4(1.9875691500e-4f),     splat4(1.3981999507e-3f), splat4(8.3334519073e-3f),
    splat4(4.1665795894e-2f), splat4(1.6666665459e-1f),    splat4(5.0000001201e-1f), splat4(1.0f)};

}  // namespace headlab
