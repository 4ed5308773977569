#pragma once
// Labels counted by family: every "syntactic:<relation>" is "syntactic", any other label is its
// own family. How a layer's heads split into roles (the layer profile of the overview, the Training
// tab and headlab.layerProfile) counts families, so four relations do not read as four roles.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace headlab::analysis {

inline std::string label_family(const std::string& label) {
  return label.rfind("syntactic:", 0) == 0 ? "syntactic" : label;
}

// (family, heads) in the order the families first appear in `labels`.
inline std::vector<std::pair<std::string, int>> count_label_families(const std::vector<std::string>& labels) {
  std::vector<std::pair<std::string, int>> counts;
  for (const std::string& label : labels) {
    const std::string family = label_family(label);
    const auto it = std::find_if(counts.begin(), counts.end(), [&](const auto& c) { return c.first == family; });
    if (it == counts.end()) counts.emplace_back(family, 1);
    else ++it->second;
  }
  return counts;
}

}  // namespace headlab::analysis
