#pragma once
// The roles a head can be given, with the stable ids used in labels.json, window.headlab.state(),
// headlab-cli output and the lessons. Never renumber or rename: files and tests refer to them.
#include <array>
#include <string_view>

namespace headlab::analysis {

enum class Role {
  previous_token,
  next_token,
  local,
  self,
  delimiter,
  cls,
  broad,
  syntactic,
  content_similarity,
  rare_word,
  duplicate_token,
  induction,
};
inline constexpr int kRoleCount = 12;

inline constexpr std::array<const char*, kRoleCount> kRoleIds = {
    "previous_token", "next_token", "local",   "self",      "delimiter",
    "cls",            "broad",      "syntactic", "content_similarity", "rare_word",
    "duplicate_token", "induction"};

// English display names; assets/labels.json has the same plus Chinese (a test keeps them equal).
inline constexpr std::array<const char*, kRoleCount> kRoleNamesEn = {
    "previous token", "next token", "local window", "self",          "delimiter",
    "[CLS]",          "broad",      "syntactic",    "similar words", "rare word",
    "duplicate token", "induction"};

// The label of a head no role describes.
inline constexpr const char* kMixedLabel = "mixed";

inline const char* role_id(Role role) { return kRoleIds[static_cast<int>(role)]; }
inline const char* role_name_en(Role role) { return kRoleNamesEn[static_cast<int>(role)]; }

// Parses a role id; false for anything else (including "mixed" and "syntactic:nsubj").
inline bool role_from_id(std::string_view id, Role& out) {
  for (int r = 0; r < kRoleCount; ++r)
    if (id == kRoleIds[r]) {
      out = static_cast<Role>(r);
      return true;
    }
  return false;
}

}  // namespace headlab::analysis
