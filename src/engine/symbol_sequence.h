#pragma once
// "Random tokens, repeated": the input on which induction heads show themselves (Olsson et al.
// 2022 measure prefix matching on random token sequences repeated once). A segment of symbols
// from A..J (embedding.h), then the same segment again, as space-separated text.
#include <cstdint>
#include <string>

namespace headlab {

inline constexpr int kMinRepeatedLength = 2;
inline constexpr int kMaxRepeatedLength = 20;  // twice 20 plus [CLS]/[SEP] stays within the token cap

// `length` symbols drawn with `seed` (all different while length <= 10, so every repeated token has
// exactly one earlier copy; longer segments never put the same symbol twice in a row), written
// twice: "C F A J C F A J" for length 4. The same text for a seed on every platform.
// Precondition: kMinRepeatedLength <= length <= kMaxRepeatedLength.
std::string repeated_symbol_text(int length, std::uint32_t seed);

}  // namespace headlab
