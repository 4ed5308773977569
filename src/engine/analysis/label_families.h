#pragma once
// Labels counted by family: every syntactic label is "syntactic" whatever its relation, any other
// label is its own family. How a layer's heads split into roles (the layer profile of the overview,
// the Training tab and headlab.layerProfile) counts families, so four relations do not read as
// four roles.
#include <algorithm>
#include <utility>
#include <vector>

#include "engine/analysis/label.h"

namespace headlab::analysis {

// (family, heads) in the order the families first appear in `labels`.
inline std::vector<std::pair<Label, int>> count_label_families(const std::vector<Label>& labels) {
  std::vector<std::pair<Label, int>> counts;
  for (const Label& label : labels) {
    const Label family = label.family();
    const auto it = std::find_if(counts.begin(), counts.end(), [&](const auto& c) { return c.first == family; });
    if (it == counts.end()) counts.emplace_back(family, 1);
    else ++it->second;
  }
  return counts;
}

}  // namespace headlab::analysis
