#pragma once
// What a head is labelled: a role, for syntactic heads with the relation it follows, or mixed when
// no role fires (head_label.h decides). Inside HeadLab labels are this value; only the edges (JSON
// of the JS API and headlab-cli, lesson files, the worker's messages) spell them as text:
//   "previous_token", "syntactic:nsubj", "mixed", and "syntactic" for the family of every relation.
#include <optional>
#include <string>
#include <string_view>

#include "engine/analysis/relation.h"
#include "engine/analysis/roles.h"

namespace headlab::analysis {

struct Label {
  std::optional<Role> role;          // empty: mixed
  std::optional<Relation> relation;  // the relation of a syntactic label; empty for other roles

  static Label mixed_label() { return {}; }
  static Label of(Role r) { return {r, std::nullopt}; }
  static Label syntactic(Relation r) { return {Role::syntactic, r}; }

  bool mixed() const { return !role; }
  bool is(Role r) const { return role == r; }
  // The label without its relation: all syntactic labels share one family (layer profiles count it).
  Label family() const { return {role, std::nullopt}; }

  // The text of a label: a role id, "syntactic:<relation>", "syntactic" (family) or "mixed".
  std::string text() const;

  bool operator==(const Label& o) const { return role == o.role && relation == o.relation; }
  bool operator!=(const Label& o) const { return !(*this == o); }
  // Any strict order, for sets and maps: mixed first, then by role, then relation.
  bool operator<(const Label& o) const {
    return role != o.role ? role < o.role : relation < o.relation;
  }
};

// The label a text spells, or nothing for any other text (unknown role or relation, a relation on
// a role other than syntactic, "syntactic:" with nothing after it).
std::optional<Label> parse_label(std::string_view text);

}  // namespace headlab::analysis
