#include "engine/analysis/explanation.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>

namespace headlab::analysis {

const char* explanation_template_en(std::string_view id) {
  for (const ExplanationTemplate& t : kExplanationTemplates)
    if (id == t.id) return t.en;
  return "";
}

int format_fixed(double value, int decimals, char* out, int size) {
  const double magnitude = std::fabs(value);
  if (!(magnitude < 1e9) || decimals < 0 || decimals > 3 || size < 16)  // NaN, huge: printf itself
    return std::snprintf(out, static_cast<std::size_t>(size), "%.*f", decimals, value);
  // magnitude = mantissa * 2^-shift exactly, mantissa < 2^53; times 10^decimals (< 2^10) fits 64 bits.
  int exponent = 0;
  const double fraction = std::frexp(magnitude, &exponent);
  const auto mantissa = static_cast<std::uint64_t>(std::ldexp(fraction, 53));
  const int shift = 53 - exponent;  // > 23 below 1e9
  std::uint64_t scale = 1;
  for (int d = 0; d < decimals; ++d) scale *= 10;
  const std::uint64_t scaled = mantissa * scale;
  std::uint64_t rounded = 0;
  if (shift < 64) {
    rounded = scaled >> shift;
    const std::uint64_t rest = scaled - (rounded << shift), half = std::uint64_t{1} << (shift - 1);
    if (rest > half || (rest == half && (rounded & 1u))) ++rounded;
  }  // else scaled < 2^63 <= half an ulp of the last digit: rounds to 0
  char* p = out;
  if (std::signbit(value)) *p++ = '-';  // printf keeps the sign of a negative that rounds to 0
  p = std::to_chars(p, out + size, rounded / scale).ptr;
  if (decimals > 0) {
    *p++ = '.';
    std::uint64_t digits = rounded % scale;
    for (std::uint64_t place = scale / 10; place > 0; place /= 10) {
      *p++ = static_cast<char>('0' + digits / place);
      digits %= place;
    }
  }
  *p = '\0';
  return static_cast<int>(p - out);
}

}  // namespace headlab::analysis
