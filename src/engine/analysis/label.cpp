#include "engine/analysis/label.h"

namespace headlab::analysis {

namespace {
constexpr std::string_view kSyntacticPrefix = "syntactic:";
}

std::string Label::text() const {
  if (!role) return kMixedLabel;
  std::string out = role_id(*role);
  if (relation) {
    out += ':';
    out += relation_id(*relation);
  }
  return out;
}

std::optional<Label> parse_label(std::string_view text) {
  if (text == kMixedLabel) return Label::mixed_label();
  if (text.substr(0, kSyntacticPrefix.size()) == kSyntacticPrefix) {
    const std::optional<Relation> relation = relation_from_id(text.substr(kSyntacticPrefix.size()));
    if (!relation) return std::nullopt;
    return Label::syntactic(*relation);
  }
  Role role;
  if (!role_from_id(text, role)) return std::nullopt;
  return Label::of(role);
}

}  // namespace headlab::analysis
