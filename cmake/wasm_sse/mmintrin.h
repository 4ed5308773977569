#pragma once
// Eigen's SSE path includes <mmintrin.h> (MMX), which Emscripten does not provide: Emscripten
// translates SSE through SSE4.1 intrinsics to WASM SIMD, but has no MMX. Eigen uses no MMX
// intrinsic, so an empty header is all it needs (CMakeLists.txt, "Eigen in WASM").
