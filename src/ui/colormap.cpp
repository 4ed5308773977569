#include "ui/colormap.h"

#include <algorithm>
#include <cmath>

namespace headlab::ui {
namespace {

constexpr Rgb kViridis[9] = {
    {68 / 255.f, 1 / 255.f, 84 / 255.f},    {72 / 255.f, 40 / 255.f, 120 / 255.f},
    {62 / 255.f, 74 / 255.f, 137 / 255.f},  {49 / 255.f, 104 / 255.f, 142 / 255.f},
    {38 / 255.f, 130 / 255.f, 142 / 255.f}, {31 / 255.f, 158 / 255.f, 137 / 255.f},
    {53 / 255.f, 183 / 255.f, 121 / 255.f}, {109 / 255.f, 205 / 255.f, 89 / 255.f},
    {253 / 255.f, 231 / 255.f, 37 / 255.f}};

std::uint32_t pack(Rgb c, float alpha) {
  const auto byte = [](float v) { return static_cast<std::uint32_t>(std::clamp(v, 0.0f, 1.0f) * 255.0f + 0.5f); };
  return byte(c.r) | (byte(c.g) << 8) | (byte(c.b) << 16) | (byte(alpha) << 24);
}

}  // namespace

Rgb viridis(float t) {
  if (!(t >= 0.0f)) t = 0.0f;  // also catches NaN
  t = std::min(t, 1.0f) * 8.0f;
  const int i = std::min(static_cast<int>(t), 7);
  const float f = t - static_cast<float>(i);
  const Rgb a = kViridis[i], b = kViridis[i + 1];
  return {a.r + (b.r - a.r) * f, a.g + (b.g - a.g) * f, a.b + (b.b - a.b) * f};
}

std::uint32_t viridis_u32(float t, float alpha) { return pack(viridis(t), alpha); }

std::uint32_t diverging_u32(float t) {
  if (!std::isfinite(t)) t = 0.0f;
  t = std::clamp(t, -1.0f, 1.0f);
  // Blue (negative) -> near white (zero) -> orange-red (positive): readable in grey scale by
  // lightness, and distinct for red-green colour blindness.
  const Rgb zero{0.93f, 0.93f, 0.93f}, neg{0.13f, 0.40f, 0.67f}, pos{0.80f, 0.30f, 0.10f};
  const Rgb end = t < 0 ? neg : pos;
  const float f = std::fabs(t);
  return pack({zero.r + (end.r - zero.r) * f, zero.g + (end.g - zero.g) * f, zero.b + (end.b - zero.b) * f}, 1.0f);
}

std::uint32_t contrasting_text_u32(Rgb c) {
  const float luminance = 0.2126f * c.r + 0.7152f * c.g + 0.0722f * c.b;
  return luminance > 0.45f ? pack({0.05f, 0.05f, 0.08f}, 1.0f) : pack({1.0f, 1.0f, 1.0f}, 1.0f);
}

}  // namespace headlab::ui
