#pragma once
// One table of (name, value) per enum, read both ways through here, so each name is spelled once.
// JsonReader::one_of takes the same tables, so readers of files and requests refuse what they miss.
#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>

namespace headlab {

template <class E>
using EnumName = std::pair<const char*, E>;

// The name of `value` in `table`; "" when the table lacks it (a table that misses a value is a bug
// its enum's test catches).
template <class E, std::size_t N>
constexpr std::string_view enum_name(const EnumName<E> (&table)[N], E value) {
  for (const auto& [name, choice] : table)
    if (choice == value) return name;
  return {};
}

// The value named `name` exactly, or nothing.
template <class E, std::size_t N>
constexpr std::optional<E> enum_from_name(const EnumName<E> (&table)[N], std::string_view name) {
  for (const auto& [text, choice] : table)
    if (name == text) return choice;
  return std::nullopt;
}

}  // namespace headlab
